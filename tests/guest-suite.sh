#!/bin/bash
# Runs inside the guest (see tests/run): each named test in its own bash and
# session, with a time limit, its output in $CHMU_RESULTS/logs/NAME.log and
# a "PASS guest/NAME" or "FAIL guest/NAME" line in $CHMU_RESULTS/results.
# NAME is the file's base name; SUITE_PREFIX (default guest) replaces
# "guest". A test past TEST_TIMEOUT seconds gets its processes' states and
# kernel stacks and the kernel's blocked tasks appended to its log before
# it is killed; processes a test leaves behind are killed and named in its
# log. $CHMU_RESULTS/current names the test running (the host's watchdog
# reads it). $CHMU_RESULTS/times gets, for tests/run's timing summary,
# the kernel's uptime when the suite starts and ends ("start UP", "end UP")
# and per test "test NAME SECONDS SLEPT CPU": SLEPT is the time its fixed
# waits (sleep(1) of 0.25 s or more) ran to their end, as
# build/tests/bin/sleep counts them; CPU the guest's busy time meanwhile,
# all vCPUs summed (/proc/stat), which under TCG is the host's work.
# A test that changed the device model at run time (tests/qmp.sh
# chmu_fault) gets it back as it was when it ends, however it ends: the
# suite restores the properties and binds mem0's device to cxl_pci again
# (chmu_reprobe), so the next test sees the device as the boot left it.
# TEST_XTRACE=1 traces each test's commands with their start times into
# $CHMU_RESULTS/logs/NAME.xtrace (tests/xtrace-top sums them).
# If that fails, no further test runs in this boot (each is reported
# without a result) and the boot fails.
TEST_TIMEOUT=${TEST_TIMEOUT:-300}
. "$(dirname "$0")/qmp.sh"
mkdir -p "$CHMU_RESULTS/logs"
rc_all=0
TIMES=$CHMU_RESULTS/times
read -r up _ </proc/uptime
echo "start $up" >"$TIMES"
TALLY_DIR=${SLEEP_TALLY_DIR:-/run/sleep-tally}
bin=$(cd "$(dirname "$0")/.." && pwd)/build/tests/bin
if [ -x "$bin/sleep" ]; then
	export PATH=$bin:$PATH
	mkdir -p "$TALLY_DIR"
fi
# Debug kernel: forget what kmemleak suspects from the boot, before any test.
[ -e /sys/kernel/debug/kmemleak ] && echo clear >/sys/kernel/debug/kmemleak

# cpu_busy: the guest's busy time so far, all CPUs, in USER_HZ ticks
cpu_busy() {
	local _c user nice system idle iowait irq softirq steal _r
	read -r _c user nice system idle iowait irq softirq steal _r </proc/stat
	echo $((user + nice + system + irq + softirq + steal))
}

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
	export SLEEP_TALLY=$TALLY_DIR/$name
	GUEST_ERRORS_FROM=$(stat -c %s "$CHMU_RESULTS/qemu.log" 2>/dev/null) || GUEST_ERRORS_FROM=0
	export GUEST_ERRORS_FROM
	rm -f "$SLEEP_TALLY"
	t0=$EPOCHREALTIME
	c0=$(cpu_busy)
	# its own session: whatever it starts in the background is found
	if [ -n "${TEST_XTRACE:-}" ]; then
		# every command with its start time, for tests/xtrace-top
		# shellcheck disable=SC2016
		setsid bash -c 'exec 9>"$1"; set --; BASH_XTRACEFD=9
			PS4='\''+ $EPOCHREALTIME '\''; set -x; . "$0"' \
			"$t" "$CHMU_RESULTS/logs/$name.xtrace" >"$log" 2>&1 </dev/null &
	else
		setsid bash "$t" >"$log" 2>&1 </dev/null &
	fi
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
	if [ -s "$CHMU_FAULTS" ]; then
		{
			echo "--- the suite restores what the test changed: $(tr '\n' ' ' <"$CHMU_FAULTS")"
			chmu_faults_restore && modprobe cxl_hmu &&
				timeout 60 bash -c '. "$1"; chmu_reprobe' _ "$(dirname "$0")/qmp.sh"
		} >>"$log" 2>&1 || broken=1
	fi
	t1=$EPOCHREALTIME
	c1=$(cpu_busy)
	slept=$(awk '{ s += $1 } END { printf "%.1f", s }' "$SLEEP_TALLY" 2>/dev/null) || slept=0
	awk -v n="$name" -v a="$t0" -v b="$t1" -v s="${slept:-0}" -v c="$((c1 - c0))" \
		'BEGIN { printf "test %s %.1f %s %.1f\n", n, b - a, s, c / 100 }' >>"$TIMES"
	if [ $rc -eq 0 ]; then
		echo "PASS ${SUITE_PREFIX:-guest}/$name" >>"$CHMU_RESULTS/results"
	else
		echo "FAIL ${SUITE_PREFIX:-guest}/$name" >>"$CHMU_RESULTS/results"
		rc_all=1
	fi
	echo "$name: exit $rc"
	if [ -n "${broken-}" ]; then
		# the next tests would run on a faulted device: none runs (each
		# is reported without a result) and the boot fails
		echo "the device's faults could not be restored after $name: the boot stops" | tee -a "$log"
		rc_all=1
		break
	fi
done
# the host watchdog counts from here while the guest powers off
echo "done $(date +%s)" >"$CHMU_RESULTS/current"
read -r up _ </proc/uptime
echo "end $up" >>"$TIMES"
exit $rc_all
