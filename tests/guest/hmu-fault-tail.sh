# A device reporting a tail outside the ring: the driver reads nothing,
# counts it and warns once; no entry is emitted.
. tests/lib.sh
dmesg_mark
chmu_fault x-chmu-bad-tail=on
hmu_setup
chmu_setup
hmu_cfg mode=always-on threshold=1 fill_threshold=0 poll_ms=50 enable=1
touch_units 3 1
sleep 0.5
[ "$(cat $HMU/bad_pointers)" -ge 2 ] || fail "bad_pointers $(cat $HMU/bad_pointers)"
expect_eq "$(grep -c chmu_hotlist_entry $TRACE/trace)" 0 "entries emitted while the tail is bad"
# Disabled, the model reports its real tail again: the flush reads it.
hmu_cfg enable=0
expect_eq "$(trace_events chmu_hotlist_entry unit count)" "unit=3 count=1" "entry flushed after disable"
# The model reports the real tail plus the hotlist's size: 1024 when the
# first drain came before the entry was posted (a slower kernel), else 1025.
expect_eq "$(dmesg_new | grep -cE 'head 0 / tail 102[45] outside the hotlist \(1024 entries\), not read')" 1 "warnings"
