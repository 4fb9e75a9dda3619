# Every invalid configuration is refused with its specific error and
# leaves the instance as it was; the instance's capabilities in sysfs match
# the device; unbind and module unload while monitoring are safe.
. tests/lib.sh
dmesg_mark
hmu_setup

for kv in hotlist_size=1024 counter_width=32 num_ranges=2 msgnum=8 access_types=0x3f \
	unit_sizes=0xffffff ds_factors=0xffff "modes=epoch always-on" "epoch_range_us=100 10000000" \
	threshold=1 unit_shift=12 mode=epoch epoch_us=100000 access=6 ds_shift=0 rand_ds=0 \
	range_first=0 range_count=0 fill_threshold=512 poll_ms=100 enable=0; do
	expect_eq "$(cat "$HMU/${kv%%=*}")" "${kv#*=}" "${kv%%=*}"
done

# Refused when written
expect_errno "Invalid argument" $HMU/ds_shift 16
expect_errno "Invalid argument" $HMU/unit_shift 40
expect_errno "Invalid argument" $HMU/mode sometimes
expect_errno "Invalid argument" $HMU/threshold 4294967296
expect_errno "Invalid argument" $HMU/threshold -1
expect_errno "Invalid argument" $HMU/enable maybe
# Refused at enable, with the reason in dev_dbg
echo "module cxl_hmu +p" >/sys/kernel/debug/dynamic_debug/control
try_enable() { # try_enable ERRNO ATTR=VALUE
	hmu_cfg "$2"
	expect_errno "$1" $HMU/enable 1
	expect_eq "$(cat $HMU/enable)" 0 "still disabled after $2"
	hmu_cfg threshold=1 unit_shift=12 access=6 epoch_us=100000 range_first=0 range_count=0 fill_threshold=512 mode=epoch
}
try_enable "Invalid argument" threshold=0
try_enable "Invalid argument" access=0
try_enable "Invalid argument" access=7
try_enable "Operation not supported" unit_shift=7
try_enable "Invalid argument" epoch_us=50
try_enable "Invalid argument" epoch_us=10000100
try_enable "Invalid argument" epoch_us=150
try_enable "Invalid argument" range_first=2
try_enable "Invalid argument" range_count=3
try_enable "Invalid argument" fill_threshold=1024
dmesg_new | grep -q 'hmu_mem0.0.0: epoch 150 us is not scale x multiplier' || fail "no dev_dbg reason"
dmesg_new | grep -q 'hmu_mem0.0.0: unit size 2^7 not supported' || fail "no dev_dbg reason for the unit size"

# The region for the workload below, made before the enable (chmu_setup
# leaves no instance enabled through the driver).
chmu_setup

# While enabled: configuration and a second enable are busy.
hmu_cfg enable=1
expect_errno "Device or resource busy" $HMU/threshold 9
expect_errno "Device or resource busy" $HMU/enable 1
expect_eq "$(cat $HMU/threshold)" 1 "threshold unchanged"

# Unbind while monitoring, rebind, then unload while monitoring.
echo hmu_mem0.0 >/sys/bus/cxl/drivers/cxl_hmu/unbind
[ ! -e $HMU ] || fail "$HMU still present after unbind"
expect_eq "$(chmu-regs status | grep -o 'enabled=[01]')" enabled=0 "device disabled by unbind"
echo hmu_mem0.0 >/sys/bus/cxl/drivers/cxl_hmu/bind
hmu_cfg threshold=2 fill_threshold=1 enable=1
touch_units 4 3
rmmod cxl_hmu
expect_eq "$(chmu-regs status | grep -o 'enabled=[01]')" enabled=0 "device disabled by module unload"
kernel_quiet
echo ok
