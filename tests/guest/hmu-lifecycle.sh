# guest-env: CHMU_PROPS=chmu-instances=2
# Lifecycle with perf sessions open: the PMUs spread over the CPUs; the
# CPU owning a PMU goes offline mid-session and the session moves on with
# nothing missed; the driver is unbound and rebound under an open session;
# the module cannot be unloaded while a session holds it.
. tests/lib.sh
hmu_setup
P=/sys/bus/event_source/devices
expect_eq "$(cat $P/cxl_hmu_mem0.0.0/cpumask) $(cat $P/cxl_hmu_mem0.0.1/cpumask)" "0 1" "PMU CPUs"
eval "$(chmu-region create -m mem0 --devdax)"
trap 'chmu-region destroy all >/dev/null 2>&1' EXIT
work="chmu-workload touch --dax $DEV --size 2M"
ev="access_type=6,hotness_threshold=2,epoch_scale=5,epoch_multiplier=1,hotness_granual=12"

# CPU 1 goes offline between two epochs of instance 1's session.
out=$(chmu-perf "cxl_hmu_mem0.0.1/$ev/" -- sh -c "$work --units 3 --count 10 && sleep 1.5 &&
	echo 0 >/sys/devices/system/cpu/cpu1/online && $work --units 5 --count 20 && sleep 1.5")
echo "$out"
expect_eq "$(cat $P/cxl_hmu_mem0.0.1/cpumask)" 0 "PMU moved to CPU 0"
expect_eq "$(aux_entries <<<"$out")" "3:10 5:20" "entries before and after the CPU went offline"
echo 1 >/sys/devices/system/cpu/cpu1/online
expect_eq "$(cat $P/cxl_hmu_mem0.0.1/cpumask)" 0 "PMU stays on CPU 0"

# Unbind and rebind while a session is open: the session ends normally,
# the PMU keeps its type, and the rebound instance records again.
type=$(cat $P/$PMU/type)
perf_hold "$PMU/$ev/"
echo hmu_mem0.0 >/sys/bus/cxl/drivers/cxl_hmu/unbind
[ ! -e $HMU ] || fail "$HMU still present after unbind"
expect_eq "$(chmu-regs status | grep -o 'enabled=[01]')" enabled=0 "device disabled by unbind"
perf_errno ENODEV "$ev"
echo hmu_mem0.0 >/sys/bus/cxl/drivers/cxl_hmu/bind
perf_errno EBUSY "$ev"
perf_release "the session across unbind"
expect_eq "$(cat $P/$PMU/type)" "$type" "PMU type after rebind"
out=$(chmu-perf "$PMU/$ev/" -- sh -c "$work --units 8 --count 4 && sleep 1.5")
expect_eq "$(aux_entries <<<"$out")" "8:4" "session after rebind"

# Sessions ending while the fill interrupt keeps firing: a stream over
# 512 units posts entries continuously (always-on, threshold 1, fill
# threshold 8) while 15 short sessions open and close.
hmu_cfg fill_threshold=8 poll_ms=50
chmu-workload stream --dax "$DEV" --size 2M --passes 100000 >/dev/null &
stream=$!
irqs() { awk '$NF == "hmu_mem0.0.0" { s = 0; for (i = 2; i < NF - 2; i++) s += $i; print s }' /proc/interrupts; }
before=$(irqs)
for i in $(seq 15); do
	chmu-perf -a 1 "$PMU/epoch_type=1,access_type=6,hotness_threshold=1,hotness_granual=12/" -- sleep 0.$((i % 4)) >/dev/null
done
kill $stream
wait $stream || true
[ "$(irqs)" -gt "$((before + 15))" ] || fail "too few fill interrupts ($before -> $(irqs))"
expect_eq "$(cat $HMU/owner) $(cat $HMU/enable)" "none 0" "instance after the sessions"
hmu_cfg fill_threshold=512 poll_ms=100

# A session holds the module.
perf_hold "$PMU/$ev/"
rmmod cxl_hmu 2>/dev/null && fail "module unloaded under an open session"
perf_release
rmmod cxl_hmu
[ ! -e $P/$PMU ] || fail "PMU left after unload"
modprobe cxl_hmu
expect_eq "$(cat $P/$PMU/cpumask)" 0 "PMU back after reload"
chmu-region destroy "$REGION"
kernel_quiet
echo ok
