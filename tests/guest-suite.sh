#!/bin/bash
# Runs inside the guest (see tests/run): each named test in its own bash and
# session, with a time limit, its output in $CHMU_RESULTS/logs/NAME.log and
# a "PASS guest/NAME" or "FAIL guest/NAME" line in $CHMU_RESULTS/results.
# NAME is the file's base name; SUITE_PREFIX (default guest) replaces
# "guest". A test past TEST_TIMEOUT seconds gets its processes' states and
# kernel stacks and the kernel's blocked tasks appended to its log before
# it is killed; processes a test leaves behind are killed and named in its
# log. $CHMU_RESULTS/current names the test running (the host's watchdog
# reads it).
TEST_TIMEOUT=${TEST_TIMEOUT:-300}
mkdir -p "$CHMU_RESULTS/logs"
rc_all=0
# Debug kernel: forget what kmemleak suspects from the boot, before any test.
[ -e /sys/kernel/debug/kmemleak ] && echo clear >/sys/kernel/debug/kmemleak

# session_procs SID: the processes of a session, oldest first.
session_procs() {
	ps -e -o sid=,pid= | awk -v s="$1" '$1 == s { print $2 }'
}

# diagnose SID: what a session's processes and the kernel are waiting for.
diagnose() {
	local p
	echo "--- its processes (pid, state, kernel wait channel, command):"
	ps -s "$1" -o pid=,stat=,wchan:32=,args= 2>/dev/null
	for p in $(session_procs "$1"); do
		echo "--- kernel stack of $p ($(cat "/proc/$p/comm" 2>/dev/null)):"
		cat "/proc/$p/stack" 2>/dev/null
	done
	echo "--- tasks blocked in the kernel (sysrq w) and the kernel log's end:"
	echo w >/proc/sysrq-trigger
	dmesg | tail -n 60
}

for t in "$@"; do
	name=$(basename "$t" .sh)
	log=$CHMU_RESULTS/logs/$name.log
	echo "$name $(date +%s)" >"$CHMU_RESULTS/current"
	# its own session: whatever it starts in the background is found
	setsid bash "$t" >"$log" 2>&1 </dev/null &
	pid=$!
	sleep "$TEST_TIMEOUT" &
	timer=$!
	wait -n -p done "$pid" "$timer"
	rc=$?
	if [ "$done" = "$timer" ]; then
		{
			echo "test timed out after ${TEST_TIMEOUT}s"
			diagnose "$pid"
		} >>"$log" 2>&1
		rc=124
	else
		kill "$timer"
		wait "$timer" 2>/dev/null
	fi
	left=$(session_procs "$pid")
	if [ -n "$left" ]; then
		[ $rc -eq 124 ] || echo "killed what the test left running: $(ps -o pid=,args= -p "${left//$'\n'/,}" | tr '\n' ';')" >>"$log"
		kill -KILL $left 2>/dev/null
	fi
	wait "$pid" 2>/dev/null
	if [ $rc -eq 0 ]; then
		echo "PASS ${SUITE_PREFIX:-guest}/$name" >>"$CHMU_RESULTS/results"
	else
		echo "FAIL ${SUITE_PREFIX:-guest}/$name" >>"$CHMU_RESULTS/results"
		rc_all=1
	fi
	echo "$name: exit $rc"
done
# the host watchdog counts from here while the guest powers off
echo "done $(date +%s)" >"$CHMU_RESULTS/current"
exit $rc_all
