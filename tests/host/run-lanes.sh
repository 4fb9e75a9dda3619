# tests/run's guest phase on made-up guests: a QEMU that runs the guest's
# command on the host stands in for the lab's, and made-up guest tests
# stand in for tests/guest/*.sh. Each PASS/FAIL line carries its seconds,
# a test's fixed waits (sleep(1) of 0.25 s or more) are tallied, a
# guest-env reaches QEMU's command line, TEST_MATCH runs only the tests it
# names and boots only their guests, GUEST_JOBS=2 (the default) splits a
# group longer than its share (by the last run's times) across boots, a
# boot that fails with its tests passed fails on its own, a bad
# TEST_MATCH is refused, and the run closes with the timing summary and
# timing.md.
. tests/lib.sh
C=$(fake_cache)
T=$(mktemp -d)
trap 'rm -rf "$C" "$T"' EXIT
cat >"$C/qemu" <<'EOS'
#!/bin/bash
# the results share's path, then the guest's command run here
res=$(printf '%s\n' "$@" | sed -n 's/^local,id=results,path=\([^,]*\),.*/\1/p')
echo boot >>"$(dirname "$0")/boots"
. "$res/env"
export QEMU_ARGS="$*" CHMU_RESULTS=$res SLEEP_TALLY_DIR=$res/tally LAB_ROOT
cd "$LAB_ROOT" && bash -c "$GUEST_CMD" >"$res/output" 2>&1
echo $? >"$res/status"
exit "${FAKE_EXIT:-0}"
EOS
chmod +x "$C/qemu"
mkdir -p "$T/t"
printf 'sleep 0.3\nsleep 0.1\necho ok\n' >"$T/t/a.sh"
printf 'echo "b fails"; exit 1\n' >"$T/t/b.sh"
printf '# guest-env: CHMU_PROPS=x-made-up=1\ngrep -q x-made-up=1 <<<"$QEMU_ARGS"\n' >"$T/t/c.sh"
printf 'true\n' >"$T/t/d.sh"
# tests/run takes guest tests by their path under tests/guest/
rel=tests/guest/$(realpath --relative-to=tests/guest "$T/t")
run() { # run [VAR=VALUE...]: tests/run guest on the four; its output
	env -u GUEST_JOBS -u SHARD_SECS CHMU_CACHE="$C" QEMU="$C/qemu" "$@" tests/run guest "$rel"/{a,b,c,d}.sh 2>&1
}

out=$(run) && fail "a failing test passed the run: $out"
echo "$out"
grep -qE '^PASS  guest/a  [0-9]+\.[0-9]s$' <<<"$out" || fail "no 'PASS  guest/a  0.Ns' line"
grep -qE '^FAIL  guest/b  [0-9.]+s$' <<<"$out" || fail "no 'FAIL  guest/b  N.Ns' line"
grep -qE '^PASS  guest/c  [0-9.]+s$' <<<"$out" || fail "the guest-env did not reach QEMU"
expect_eq "$(tail -n 1 <<<"$out")" "3 passed, 1 failed" "closing line"
expect_eq "$(wc -l <"$C/boots")" 2 "boots: one per guest-env"
expect_eq "$(awk '$1 == "test" && $2 == "guest/a" { print $4 }' "$C/test-results/timing.tsv")" 0.3 \
	"guest/a's fixed waits (its 0.1 s poll not among them)"
grep -q 'TIME .*the ten slowest tests' <<<"$out" || fail "no slowest tests"
grep -qE 'TIME .*- guest boots and power-offs \(2, ' <<<"$out" || fail "no boot time"
grep -q '^| (default) | 3 |' "$C/test-results/timing.md" || fail "timing.md has no row for the default boot"

rm "$C/boots"
out=$(run TEST_MATCH='guest/(a|d)$') || fail "TEST_MATCH run failed: $out"
expect_eq "$(grep -cE '^(PASS|FAIL)  ' <<<"$out")" 2 "tests run with TEST_MATCH"
expect_eq "$(wc -l <"$C/boots")" 1 "boots with TEST_MATCH (c's guest-env not booted)"

# a and d took 300 s last time: the default group (15 s to boot, 300 + 1 +
# 300 s of tests) is over half of the whole (632 s), so it runs as two
# boots of about 300 s: a; b and d. (The first runs' groups were too short
# to split: a shard has at least 120 s of tests.)
rm "$C/boots"
printf 'test guest/a 300 0\ntest guest/b 1 0\ntest guest/d 300 0\ntest guest/c 1 0\nboot 15 3 616\t\n' \
	>"$C/test-results/timing.last"
out=$(run) && fail "a failing test passed the run: $out"
echo "$out"
expect_eq "$(wc -l <"$C/boots")" 3 "boots with GUEST_JOBS=2"
grep -q 'BOOT    guest (shard 1) for 1 tests' <<<"$out" || fail "no first shard of 1 test"
grep -q 'BOOT    guest (shard 2) for 2 tests' <<<"$out" || fail "no second shard of 2 tests"
expect_eq "$(tail -n 1 <<<"$out")" "3 passed, 1 failed" "closing line with GUEST_JOBS=2"

# A boot that fails after its tests all passed (here QEMU exits 3) fails
# on its own line; a T that is not a regular expression is refused.
out=$(run FAKE_EXIT=3 TEST_MATCH='guest/(a|d)$') && fail "a failed boot passed the run: $out"
grep -q '^FAIL  guest/boot-guest-1$' <<<"$out" || fail "no failure for the boot: $out"
expect_eq "$(tail -n 1 <<<"$out")" "2 passed, 1 failed" "closing line with a failed boot"
out=$(run TEST_MATCH='(') && fail "T='(' ran: $out"
expect_eq "$out" "tests/run: T='(' is not an extended regular expression" "bad T"
echo ok
