# guest-env: CHMU_PROPS=x-chmu-op-stuck=on
# A device whose enable never completes: sysfs enable and perf_event_open
# both fail with ETIMEDOUT after the driver's timeout, say why, and leave
# the instance disabled and unowned.
. tests/lib.sh
hmu_setup
expect_errno "Connection timed out" $HMU/enable 1
expect_eq "$(cat $HMU/enable) $(cat $HMU/owner)" "0 none" "state after the sysfs timeout"
perf_errno ETIMEDOUT "access_type=6,hotness_threshold=1"
expect_eq "$(cat $HMU/enable) $(cat $HMU/owner)" "0 none" "state after the perf timeout"
expect_eq "$(dmesg | grep -c 'hmu_mem0.0.0: enable did not complete within 100000 us')" 2 "reasons logged"
