#!/bin/bash
# Runs inside the guest (see tests/run): each named test in its own bash,
# with a time limit, its output in $CHMU_RESULTS/logs/NAME.log and a
# "PASS guest/NAME" or "FAIL guest/NAME" line in $CHMU_RESULTS/results.
# NAME is the file's base name; SUITE_PREFIX (default guest) replaces
# "guest".
TEST_TIMEOUT=${TEST_TIMEOUT:-600}
mkdir -p "$CHMU_RESULTS/logs"
rc_all=0
# Debug kernel: forget what kmemleak suspects from the boot, before any test.
[ -e /sys/kernel/debug/kmemleak ] && echo clear >/sys/kernel/debug/kmemleak
for t in "$@"; do
	name=$(basename "$t" .sh)
	log=$CHMU_RESULTS/logs/$name.log
	timeout -k 5 "$TEST_TIMEOUT" bash "$t" >"$log" 2>&1
	rc=$?
	[ $rc -eq 124 ] && echo "test timed out after ${TEST_TIMEOUT}s" >>"$log"
	if [ $rc -eq 0 ]; then
		echo "PASS ${SUITE_PREFIX:-guest}/$name" >>"$CHMU_RESULTS/results"
	else
		echo "FAIL ${SUITE_PREFIX:-guest}/$name" >>"$CHMU_RESULTS/results"
		rc_all=1
	fi
	echo "$name: exit $rc"
done
exit $rc_all
