# A PMU kept across the removal of its memdev (cxl_pci unbound, then bound
# again, with a perf session open): the kept PMU keeps its sysfs (format/,
# cpumask, type; it sat under the block, whose directory went with the
# memdev), the memdev comes back as mem0 and takes the PMU over; while the
# stale session is open new events get EBUSY and the new instance's owner
# is none; once it ends perf parses the PMU again and a new session (our
# perf and chmu-perf) reports a known workload exactly, with owner
# following it; the module unloads cleanly.
. tests/lib.sh
dmesg_mark
hmu_setup
P=/sys/bus/event_source/devices/$PMU
pdev=$(basename "$(readlink -f /sys/bus/cxl/devices/mem0/..)")
ev="access_type=6,hotness_threshold=2,epoch_scale=5,epoch_multiplier=1,hotness_granual=12"
formats="access_type downsampling_factor epoch_multiplier epoch_scale epoch_type hotness_granual hotness_threshold randomized_downsampling range_base range_size reporting_mode"
type=$(cat $P/type)
cpumask=$(cat $P/cpumask)

# pmu_sysfs WHAT: the PMU's attributes are all there and read as before.
pmu_sysfs() {
	expect_eq "$(ls $P/format 2>&1 | tr '\n' ' ' | sed 's/ $//')" "$formats" "$1: format/"
	expect_eq "$(cat $P/format/hotness_threshold 2>&1)" "config1:0-31" "$1: format/hotness_threshold"
	expect_eq "$(cat $P/type 2>&1) $(cat $P/cpumask 2>&1)" "$type $cpumask" "$1: type and cpumask"
}

chmu-perf "$PMU/$ev/" -- sleep 600 >/tmp/stale.out 2>&1 &
stale=$!
trap 'kill $stale 2>/dev/null; chmu-region destroy all >/dev/null 2>&1' EXIT
hmu_wait owner perf
echo "$pdev" >/sys/bus/pci/drivers/cxl_pci/unbind
[ ! -e /sys/bus/cxl/devices/mem0 ] || fail "mem0 still there after unbind"
pmu_sysfs "kept PMU, memdev gone"
perf_errno ENODEV "$ev"
echo "$pdev" >/sys/bus/pci/drivers/cxl_pci/bind
for _ in $(seq 100); do [ -d $HMU ] && break; sleep 0.1; done
expect_eq "$(ls /sys/bus/pci/devices/$pdev | grep '^mem')" mem0 "memdev after the rebind"
[ -d $HMU ] || fail "no $HMU after the rebind"
pmu_sysfs "kept PMU, rebound"
echo "module cxl_hmu +p" >/sys/kernel/debug/dynamic_debug/control
perf_errno EBUSY "$ev"
dmesg_new | grep -qF "an event opened before the instance was rebound is still open" ||
	fail "no dev_dbg reason for EBUSY"
echo "module cxl_hmu -p" >/sys/kernel/debug/dynamic_debug/control
expect_eq "$(cat $HMU/owner)" none "owner while the stale session is open"

kill $stale
wait $stale || fail "the stale session failed: $(cat /tmp/stale.out)"
expect_eq "$(cat $HMU/owner)" none "owner after the stale session"
pmu_sysfs "after the stale session"
chmu_setup
work="chmu-workload touch --dax $DEV --size 2M"
cd /tmp
perf record -a -e "$PMU/$ev/" -o unbind.data -- sh -c "$work --units 3 --count 10 >/dev/null && sleep 1.5" ||
	fail "perf record on the kept PMU"
expect_eq "$(perf report --dump-raw-traces -i unbind.data |
	sed -n 's/^[0-9a-f]\{16\}  unit \([0-9]*\) dpa 0x[0-9a-f]* count \([0-9]*\)$/\1:\2/p' | tr '\n' ' ' | sed 's/ $//')" \
	"3:10" "perf record after the rebind"
cd - >/dev/null
out=$(chmu-perf "$PMU/$ev/" -- sh -c "cat $HMU/owner && $work --units 5 --count 20 >/dev/null && sleep 1.5")
expect_eq "$(aux_entries <<<"$out") $(grep -cx perf <<<"$out")" "5:20 1" "chmu-perf after the rebind, owner perf"
expect_eq "$(cat $HMU/owner)" none "owner after the session"

chmu-region destroy "$REGION"
trap - EXIT
rmmod cxl_hmu || fail "rmmod cxl_hmu"
[ ! -e $P ] || fail "$PMU left after unload"
modprobe cxl_hmu
kernel_quiet
echo ok
