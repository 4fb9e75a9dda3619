# Host tests of lab/lib.sh: patch series sync and config verification.
. tests/lib.sh
export CHMU_CACHE=$(mktemp -d)
. lab/lib.sh
t=$(mktemp -d)
trap 'rm -rf "$t" "$CHMU_CACHE"' EXIT

# A tiny tree and two patches, as a series.
mkdir -p "$t/tree" "$t/p"
printf 'a\nb\nc\n' >"$t/tree/one"
printf 'x\n' >"$t/tree/two"
printf 'keep\n' >"$t/tree/three"
mk_patch() { # mk_patch NAME FILE OLD NEW
	mkdir -p "$t/o" "$t/n"
	printf "$3" >"$t/o/$2"
	printf "$4" >"$t/n/$2"
	(cd "$t" && { diff -u "o/$2" "n/$2" || true; } |
		sed "s#^--- o/#--- a/#; s#^+++ n/#+++ b/#") >"$t/p/$1"
	rm -rf "$t/o" "$t/n"
}
mk_patch 0001-one.patch one 'a\nb\nc\n' 'a\nB\nc\n'
mk_patch 0002-two.patch two 'x\n' 'y\n'
printf '0001-one.patch\n# a comment\n0002-two.patch\n' >"$t/p/series"
log=$t/log

touch -d '2020-01-01' "$t/tree/three"
sync_series "$t/tree" "$t/p" "$t/state" "$log"
expect_eq "$(cat "$t/tree/one" | tr '\n' ' ')" "a B c " "patch 1 applied"
expect_eq "$(cat "$t/tree/two")" y "patch 2 applied"
expect_eq "$(wc -l <"$t/state/list")" 2 "applied patches recorded"

# Unchanged series: nothing is touched.
touch -d '2020-01-01' "$t/tree/one" "$t/tree/two"
sync_series "$t/tree" "$t/p" "$t/state" "$log"
expect_eq "$(stat -c %Y "$t/tree/one")" "$(date -d 2020-01-01 +%s)" "unchanged series leaves files alone"

# Drop patch 2 and change patch 1: the tree follows, file three untouched.
mk_patch 0001-one.patch one 'a\nb\nc\n' 'A\nb\nc\n'
printf '0001-one.patch\n' >"$t/p/series"
sync_series "$t/tree" "$t/p" "$t/state" "$log"
expect_eq "$(cat "$t/tree/one" | tr '\n' ' ')" "A b c " "changed patch 1 applied"
expect_eq "$(cat "$t/tree/two")" x "dropped patch 2 reverted"
expect_eq "$(stat -c %Y "$t/tree/three")" "$(date -d 2020-01-01 +%s)" "untouched file keeps its timestamp"

# Only patch 2 changes: file one, reverted and applied again with the same
# content, keeps its timestamp (nothing that includes it rebuilds).
mk_patch 0002-two.patch two 'x\n' 'z\n'
printf '0001-one.patch\n0002-two.patch\n' >"$t/p/series"
sync_series "$t/tree" "$t/p" "$t/state" "$log"
touch -d '2020-01-01' "$t/tree/one" "$t/tree/two"
mk_patch 0002-two.patch two 'x\n' 'w\n'
sync_series "$t/tree" "$t/p" "$t/state" "$log"
expect_eq "$(cat "$t/tree/one" | tr '\n' ' ')/$(cat "$t/tree/two")" "A b c /w" "patch 2 changed, applied"
expect_eq "$(stat -c %Y "$t/tree/one")" "$(date -d 2020-01-01 +%s)" "a file with the same content keeps its timestamp"
[ "$(stat -c %Y "$t/tree/two")" != "$(date -d 2020-01-01 +%s)" ] || fail "a changed file kept its old timestamp"
[ ! -e "$t/state.keep" ] || fail "the snapshot of the old files was left behind"
printf '0001-one.patch\n' >"$t/p/series"
sync_series "$t/tree" "$t/p" "$t/state" "$log"

# A series naming a missing patch is an error.
printf 'missing.patch\n' >"$t/p/series"
rc=0
(sync_series "$t/tree" "$t/p" "$t/state" "$log") 2>"$t/err" || rc=$?
expect_eq "$rc" 1 "missing patch fails"
grep -q 'names missing.patch, which does not exist' "$t/err" || fail "no clear message"

# verify_config: kept, changed, dropped and unset options.
cat >"$t/frag.config" <<'CFG'
CONFIG_A=y
CONFIG_B=m
CONFIG_S="x"
# CONFIG_C is not set
# CONFIG_D is not set
CFG
printf 'CONFIG_A=y\nCONFIG_B=m\nCONFIG_S="x"\n# CONFIG_C is not set\n' >"$t/good"
verify_config "$t/good" "$t/frag.config" || fail "a matching config was rejected"
printf 'CONFIG_A=y\nCONFIG_B=y\nCONFIG_S="x"\nCONFIG_D=y\n' >"$t/bad"
rc=0
verify_config "$t/bad" "$t/frag.config" 2>"$t/err" || rc=$?
cat "$t/err"
expect_eq "$rc" 1 "a config that lost options is rejected"
expect_eq "$(wc -l <"$t/err")" 2 "violations reported"
grep -q "'CONFIG_B=m' became 'CONFIG_B=y'" "$t/err" || fail "B not reported"
grep -q "'# CONFIG_D is not set' became 'CONFIG_D=y'" "$t/err" || fail "D not reported"

# An empty series (comments only) reverts everything and applies nothing.
printf '# nothing yet\n' >"$t/p/series"
sync_series "$t/tree" "$t/p" "$t/state" "$log"
expect_eq "$(cat "$t/tree/one" | tr '\n' ' ')" "a b c " "empty series reverts patch 1"
expect_eq "$(wc -c <"$t/state/list")" 0 "nothing recorded as applied"

# run_logged: a long step reports its elapsed time and progress (kbuild's
# compiled files, ninja's step) while it runs; its output goes to the log
# only; a failure shows the log's tail and exits with the step's status.
# The fake steps end once the heartbeat has reported their last line.
until_shown() { # until_shown REGEX: wait (30 s at most) for it in $t/hb
	for _ in $(seq 300); do grep -Eq "$1" "$t/hb" && return 0; sleep 0.1; done
	return 1
}
kbuild() {
	for i in 1 2 3; do echo "  CC      f$i.o"; done
	echo "  LD      vmlinux"
	until_shown ', 3 files compiled$'
}
ninja() {
	for i in 1 2 3; do echo "[$i/7] Compiling C object x$i.o"; done
	until_shown ', step 3 of 7$'
}
LAB_TAG=KERNEL PROGRESS_SECS=1 run_logged "$t/run.log" kbuild >"$t/hb"
cat "$t/hb"
expect_eq "$(grep -Evc '^  KERNEL    \.\.\. [0-9]+m[0-5][0-9]s, 3 files compiled$' "$t/hb")" 0 "progress lines: tag, elapsed, files compiled"
grep -q '^  LD      vmlinux$' "$t/run.log" || fail "the step's output is not in its log"
LAB_TAG=QEMU PROGRESS_SECS=1 run_logged "$t/run.log" ninja >"$t/hb"
expect_eq "$(grep -Evc '^  QEMU      \.\.\. [0-9]+m[0-5][0-9]s, step 3 of 7$' "$t/hb")" 0 "ninja's step, from this step's output only"
expect_eq "$(PROGRESS_SECS=60 run_logged "$t/run.log" true)" "" "a short step prints nothing"
rc=0
(PROGRESS_SECS=1 run_logged "$t/run.log" sh -c 'echo boom; exit 3') >"$t/out" 2>"$t/err" || rc=$?
expect_eq "$rc" 3 "a failed step's status"
grep -q "^error: 'sh -c echo boom; exit 3' failed (exit 3); last lines of $t/run.log" "$t/err" || fail "no failure line: $(cat "$t/err")"
grep -q '^boom$' "$t/err" || fail "the log's tail is not shown"
