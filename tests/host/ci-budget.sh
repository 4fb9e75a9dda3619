# .ci/run runs the stress suite only when the CI time left covers it: the
# suite's last whole run on the machine (recorded by tests/run stress in
# $CHMU_CACHE/logs/stress-seconds), else 55 minutes, plus 15 for the debug
# kernel's build when it is not current and 10 to spare. A made-up make
# stands in for the suites; the made-up cache has no debug kernel.
. tests/lib.sh
C=$(fake_cache)
B=$(mktemp -d)
trap 'rm -rf "$C" "$B"' EXIT
cat >"$B/make" <<'EOS'
#!/bin/bash
echo "make $*" >>"$MAKE_LOG"
case "$1" in
test) echo "3 passed, 0 failed" ;;
test-stress) echo "2 passed, 0 failed" ;;
esac
EOS
chmod +x "$B/make"
ci() { # ci BUDGET [RECORDED]: .ci/run's last line and the makes it ran
	rm -f "$C/make.log" "$C/logs/stress-seconds"
	mkdir -p "$C/logs"
	[ -z "${2-}" ] || echo "$2" >"$C/logs/stress-seconds"
	local out
	out=$(MAKE_LOG=$C/make.log CHMU_CACHE=$C PATH=$B:$PATH CI_BUDGET=$1 .ci/run </dev/null 2>&1) ||
		fail ".ci/run failed: $out"
	echo "$(tail -n 1 <<<"$out") / $(tr '\n' ' ' <"$C/make.log" | sed 's/ $//')"
}
expect_eq "$(ci 5400)" "5 passed, 0 failed / make test make test-stress" "90 min, nothing recorded (55+15+10 min)"
expect_eq "$(ci 4000)" "3 passed, 0 failed / make test" "67 min, nothing recorded"
expect_eq "$(ci 5400 4500)" "3 passed, 0 failed / make test" "90 min, the last suite took 75 min"
expect_eq "$(ci 5400 3000)" "5 passed, 0 failed / make test make test-stress" "90 min, the last suite took 50 min"
expect_eq "$(ci 4000 junk)" "3 passed, 0 failed / make test" "67 min, an unreadable record"
out=$(MAKE_LOG=$C/make.log CHMU_CACHE=$C PATH=$B:$PATH CI_BUDGET=4000 .ci/run 2>&1)
grep -qx 'SKIP  stress suite ([0-9]*s of the CI time left; it needs about 4200s)' <<<"$out" ||
	fail "no SKIP line with the need: $out"
echo ok
