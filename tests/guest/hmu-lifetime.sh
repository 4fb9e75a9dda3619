# Lifetimes (run on the debug kernel by make test-stress: KASAN, lockdep
# and kmemleak must stay quiet):
# - enable writes racing unbind and bind of the block, 20 rounds: the old
#   driver's remove disabled the instance and then waited for sysfs, so a
#   late write re-enabled it and re-armed its poll work on freed memory;
# - the PMU goes with its instance when no event is open on it;
# - writing 0 to enable while perf owns the instance is EBUSY and leaves
#   perf's polling running; poll_ms 0 is refused;
# - an event left open across a rebind, closed while sysfs owns the new
#   instance, leaves the new instance's polling alone;
# and the instance reports a known workload exactly afterwards.
. tests/lib.sh
hmu_setup
chmu_setup
B=hmu_mem0.0
D=/sys/bus/cxl/drivers/cxl_hmu
P=/sys/bus/event_source/devices/$PMU
for round in $(seq 20); do
	(for _ in $(seq 30); do
		echo 1 >$HMU/enable 2>/dev/null
		echo 0 >$HMU/enable 2>/dev/null
	done; exit 0) &
	echo $B >$D/unbind
	[ -e $P ] && fail "round $round: $PMU still registered after unbind"
	echo $B >$D/bind
	wait
done
[ -e $P ] || fail "no $PMU after bind"
echo "ok: 20 rounds of enable writes against unbind and bind"

expect_errno "Invalid argument" $HMU/poll_ms 0
hmu_cfg fill_threshold=0 poll_ms=100
ev="$PMU/epoch_type=1,access_type=6,hotness_threshold=1,hotness_granual=12/"
out=$(chmu-perf "$ev" -- sh -c "
	echo 0 >$HMU/enable 2>/dev/null && exit 3
	chmu-workload touch --dax $DEV --size 2M --units 7 --count 1 >/dev/null
	for _ in \$(seq 100); do [ \$(cat $HMU/entries) = 1 ] && exit 0; sleep 0.1; done
	exit 4") || fail "perf's polling after enable=0 (EBUSY): $out"
expect_eq "$(aux_entries <<<"$out")" "7:1" "AUX entries"

perf_hold "$ev"
echo $B >$D/unbind
echo $B >$D/bind
hmu_cfg mode=always-on threshold=1 fill_threshold=0 poll_ms=100 enable=1
perf_release "the stale session"	# closes while sysfs owns the instance
touch_units 9 1
hmu_wait entries 1	# polled after the stale event closed
hmu_cfg enable=0
echo >$TRACE/trace
hmu_cfg mode=always-on threshold=40 enable=1
touch_units 3 40
hmu_cfg enable=0
expect_eq "$(trace_entries)" "3:40" "entries after the races"
kernel_quiet
echo ok
