# An event opened on a CPU other than the PMU's (cpumask) is moved to the
# PMU's CPU, where its AUX output is written: its records and its count
# hold the workload exactly (the old driver let it open there: what the
# poll drained while it ran was written nowhere, and it counted nothing).
# Frequency or period sampling is refused (perf record's period of 1 for
# AUX events is not sampling).
. tests/lib.sh
hmu_setup
chmu_setup
P=/sys/bus/event_source/devices/$PMU
pmu_cpu=$(cat $P/cpumask)
other=$(seq 0 $(($(nproc) - 1)) | grep -v -x "$pmu_cpu" | head -n 1)
[ -n "$other" ] || fail "one CPU only: no other CPU to open the event on"
hmu_cfg fill_threshold=0 poll_ms=100
ev="$PMU/epoch_type=1,access_type=6,hotness_threshold=1,hotness_granual=12/"
out=$(chmu-perf -C "$other" "$ev" -- sh -c "chmu-workload touch --dax $DEV --size 2M --units 3-5 --count 1 >/dev/null && sleep 0.5") ||
	fail "chmu-perf -C $other: $out"
expect_eq "$(aux_entries <<<"$out")" "3:1 4:1 5:1" "AUX entries of the event opened on CPU $other (PMU's: $pmu_cpu)"
grep -q 'event_count=3$' <<<"$out" || fail "event count: $(tail -n 1 <<<"$out")"
echo "module cxl_hmu +p" >/sys/kernel/debug/dynamic_debug/control
dmesg -C
# chmu-perf --fuzz sets sample settings at random; here: the two that sample
expect_eq "$(chmu-perf --check "$PMU/access_type=6,hotness_threshold=1,period=1000/" 2>&1 || true)" EINVAL "a sampling period"
dmesg | grep -qF "sampling is not supported" || fail "no dev_dbg reason for sampling"
kernel_quiet
echo ok
