# A device whose enable never completes: sysfs enable fails with ETIMEDOUT
# after the driver's timeout; a perf event opens (the device is programmed
# when it starts), its start's enable times out and is logged, it gets
# nothing but an empty AUX record flagged truncated that tells it so
# (issue 34, item 5); both say why and leave the instance disabled and
# unowned.
. tests/lib.sh
dmesg_mark
chmu_fault x-chmu-op-stuck=on
hmu_setup
expect_errno "Connection timed out" $HMU/enable 1
expect_eq "$(cat $HMU/enable) $(cat $HMU/owner)" "0 none" "state after the sysfs timeout"
out=$(chmu-perf "$PMU/access_type=6,hotness_threshold=1/" -- sleep 1) || fail "chmu-perf: $out"
grep -q '^summary records=0 entries=0 truncated=1 ' <<<"$out" ||
	fail "the event got something, or was not told it got nothing: $out"
expect_eq "$(cat $HMU/enable) $(cat $HMU/owner)" "0 none" "state after the perf timeout"
expect_eq "$(dmesg_new | grep -c 'hmu_mem0.0.0: counter reset did not complete within 100000 us')" 2 "reasons logged (the reset before the enable hangs)"
dmesg_new | grep -q 'hmu_mem0.0.0: perf event started, enable failed: -110' || fail "no warning for the event"
