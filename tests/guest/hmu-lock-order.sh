# guest-env: CHMU_PROPS=chmu-instances=2
# Lock order (issue 34, item 1): the driver takes no lock of its own
# around perf_pmu_register() or the CPU hotplug state, so that perf's
# locks never nest inside it. perf takes pmus_lock then each context's
# mutex when a CPU goes offline, and calls a group sibling's event_init
# under the leader's context mutex; a driver registering its PMU under
# the lock its event_init takes closes a cycle that lockdep reports
# ("possible circular locking dependency", on the debug kernel: make
# test-stress). And CPU hotplug's lock, which the offline callback
# moving a PMU's events holds around the contexts' mutexes, must not be
# taken under it either. The sequence, on instance 1 (its PMU on CPU 1):
# its CPU offline and online, a two-event group opened CPU-wide, unbind
# and rebind (the PMU registered again), the same again, a session
# across its CPU going offline.
. tests/lib.sh
hmu_setup
chmu_setup
HMU=/sys/bus/cxl/devices/hmu_mem0.0/hmu_mem0.0.1
PMU=cxl_hmu_mem0.0.1
expect_eq "$(cat /sys/bus/event_source/devices/$PMU/cpumask)" 1 "$PMU's CPU"
cpu1=/sys/devices/system/cpu/cpu1/online
ev=access_type=6,hotness_threshold=1
group="{$PMU/$ev/,$PMU/$ev/}"
cycle() {
	echo 0 >$cpu1
	echo 1 >$cpu1
	# The sibling finds the instance held by its leader: EBUSY, and
	# perf stat says so. The locks are what this is about.
	out=$(perf stat -a -e "$group" true 2>&1) && fail "a group of two events on one instance was accepted: $out"
	grep -q 'in use' <<<"$out" || fail "perf stat of the group: $out"
	expect_eq "$(cat $HMU/owner)" none "owner after the refused group"
	perf stat -a -e "$PMU/$ev/" true >/dev/null 2>&1 ||
		fail "a single event after the group: $(perf stat -a -e "$PMU/$ev/" true 2>&1)"
}
cycle
echo hmu_mem0.0 >/sys/bus/cxl/drivers/cxl_hmu/unbind
echo hmu_mem0.0 >/sys/bus/cxl/drivers/cxl_hmu/bind
expect_eq "$(cat /sys/bus/event_source/devices/$PMU/cpumask)" 1 "$PMU's CPU after the rebind"
cycle
# A session open across the CPU going offline: its events move
chmu-perf "$PMU/access_type=6,hotness_threshold=1,epoch_scale=5,epoch_multiplier=1/" -- \
	sh -c "echo 0 >$cpu1; echo 1 >$cpu1" >/tmp/lock-order.out 2>&1 ||
	fail "session across CPU offline: $(cat /tmp/lock-order.out)"
kernel_quiet
