# guest-env: CHMU_PROPS=chmu-instances=2
# A device without overlapping ranges across instances (CAP1 bit 51
# clear): sysfs shows it, the driver refuses an enable whose ranges
# overlap an enabled sibling's with EOPNOTSUPP and a reason (rather than
# leaving the device to refuse it and the enable to time out), and
# disjoint ranges work, each instance exactly. A perf event holds its
# ranges from its creation to its close: a sibling's enable over them is
# refused while the event is paused too, rather than taking them and
# leaving the event's restart to fail unseen (issue 34, item 5).
. tests/lib.sh
dmesg_mark
chmu_fault x-chmu-cap1-clear=0x8000000000000
chmu_reprobe || fail "mem0 did not come back after a rebind"
hmu_setup
chmu_setup
H1=/sys/bus/cxl/devices/hmu_mem0.0/hmu_mem0.0.1
expect_eq "$(cat $HMU/overlapping_ranges) $(cat $H1/overlapping_ranges)" "0 0" "overlapping_ranges"
expect_eq "$(cat $HMU/epoch_type) $(cat $HMU/insert_after_clear)" "global 1" "epoch_type, insert_after_clear"
[ "$(cat $HMU/num_ranges)" -ge 2 ] || fail "num_ranges $(cat $HMU/num_ranges): need 2"
echo "module cxl_hmu +p" >/sys/kernel/debug/dynamic_debug/control
hmu_cfg mode=always-on threshold=40 fill_threshold=0 range_first=0 range_count=1 enable=1
for f in mode=always-on threshold=40 fill_threshold=0 range_first=0 range_count=0; do echo "${f#*=}" >$H1/${f%%=*}; done
expect_errno "Operation not supported" $H1/enable 1
dmesg_new | grep -qF "overlap another enabled instance's" || fail "no dev_dbg reason"
echo 1 >$H1/range_first
echo 1 >$H1/range_count
echo 1 >$H1/enable
touch_units 9 40
echo 0 >$H1/enable
hmu_cfg enable=0
expect_eq "$(trace_entries)" "9:40" "instance 0 (range 0) exactly; instance 1 saw nothing"

echo 0 >$H1/range_first
echo 0 >$H1/range_count
chmu-perf "$PMU/epoch_type=1,access_type=6,hotness_threshold=40,hotness_granual=12,range_base=0,range_size=1/" -- \
	sleep 600 >/tmp/ovl.out 2>&1 &
pid=$!
hmu_wait enable 1
expect_errno "Operation not supported" $H1/enable 1
kill -USR1 $pid
hmu_wait enable 0
expect_eq "$(cat $HMU/owner)" perf "owner while paused"
expect_errno "Operation not supported" $H1/enable 1
kill -USR1 $pid
hmu_wait enable 1
touch_units 9 40
kill -INT $pid
wait $pid || fail "chmu-perf: $(cat /tmp/ovl.out)"
expect_eq "$(aux_entries </tmp/ovl.out)" "9:40" "the event's entries after its pause"
echo 1 >$H1/enable
echo 0 >$H1/enable
kernel_quiet
echo ok
