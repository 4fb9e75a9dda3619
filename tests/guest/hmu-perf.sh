# The perf PMU of an instance: its format and cpumask, the specific error
# for each invalid field (with its dev_dbg reason), exact AUX records for a
# known workload matching the tracepoints, the flush when the event stops,
# entries lost to a full AUX buffer, an event without AUX feeding the
# tracepoints, and exclusion between perf and sysfs.
. tests/lib.sh
hmu_setup
P=/sys/bus/event_source/devices/$PMU

for kv in epoch_type=config:0-1 access_type=config:2-9 epoch_scale=config:10-13 \
	epoch_multiplier=config:14-25 randomized_downsampling=config:26 \
	downsampling_factor=config:27-34 hotness_threshold=config1:0-31 \
	hotness_granual=config1:32-63 range_base=config2:0-31 range_size=config2:32-63; do
	expect_eq "$(cat "$P/format/${kv%%=*}")" "${kv#*=}" "format ${kv%%=*}"
done
expect_eq "$(cat $P/cpumask)" 0 "cpumask"

# Each invalid field gets its own error and reason.
echo "module cxl_hmu +p" >/sys/kernel/debug/dynamic_debug/control
dmesg -C
ok=access_type=6,hotness_threshold=1
perf_errno ok "$ok"
perf_errno EINVAL "$ok,epoch_type=2"
perf_errno EINVAL "$ok,epoch_type=3"
perf_errno EINVAL "$ok,access_type=0"
perf_errno EINVAL "$ok,access_type=7"
perf_errno EINVAL "$ok,epoch_scale=6,epoch_multiplier=1"
perf_errno EINVAL "$ok,epoch_scale=1,epoch_multiplier=0"
perf_errno EINVAL "$ok,epoch_scale=5,epoch_multiplier=11"
perf_errno EINVAL "$ok,epoch_scale=1,epoch_multiplier=1,hotness_granual=12,epoch_type=0,epoch_scale=0"
perf_errno EINVAL "$ok,downsampling_factor=16"
perf_errno EINVAL "$ok,hotness_threshold=0"
perf_errno EINVAL "$ok,hotness_granual=7"
perf_errno EINVAL "$ok,hotness_granual=40"
perf_errno EOPNOTSUPP "$ok,hotness_granual=33"
perf_errno EINVAL "$ok,range_base=2"
perf_errno EINVAL "$ok,range_base=1,range_size=2"
perf_errno EINVAL "config=0x800000018,$ok"
perf_errno ok "$ok,epoch_type=1,downsampling_factor=15,randomized_downsampling=1,range_base=1,range_size=1"
for reason in "epoch_type 2 is neither 0 (epoch) nor 1 (always-on)" \
	"access type 7 is not 1..6" "epoch_scale 6 / epoch_multiplier 1: scale is 1..5" \
	"epoch 11000000 us outside 100..10000000 us" "downsampling_factor 16: the field holds log2" \
	"hotness_threshold must be at least 1" "hotness_granual 40: log2 of the unit size is 8..39" \
	"unit size 2^33 not supported" "ranges 1+2 outside the 2 ranges" \
	"config bits 0x800000000 are reserved"; do
	dmesg | grep -qF "$reason" || fail "no dev_dbg reason '$reason'"
done
echo "ok: a dev_dbg reason for each"
# Raw device addresses are for CAP_PERFMON: refused by the driver even
# where perf_event_paranoid lets anyone open CPU-wide events.
paranoid=$(cat /proc/sys/kernel/perf_event_paranoid)
echo -1 >/proc/sys/kernel/perf_event_paranoid
expect_eq "$(setpriv --reuid=65534 --regid=65534 --clear-groups chmu-perf --check "$PMU/$ok/" || true)" \
	EACCES "unprivileged perf_event_open"
echo "$paranoid" >/proc/sys/kernel/perf_event_paranoid
dmesg | grep -qF "needs CAP_PERFMON or CAP_SYS_ADMIN" || fail "no reason for EACCES"

# A known workload: the AUX records hold exactly its entries, the same as
# the tracepoints, in the RFC framing (count and counter width per record).
eval "$(chmu-region create -m mem0 --devdax)"
trap 'chmu-region destroy all >/dev/null 2>&1' EXIT
hmu_cfg fill_threshold=0 poll_ms=100
echo >$TRACE/trace
work="chmu-workload touch --dax $DEV --size 2M"
out=$(chmu-perf "$PMU/epoch_type=0,access_type=6,hotness_threshold=5,epoch_scale=5,epoch_multiplier=2,hotness_granual=12/" -- \
	sh -c "$work --units 3,7,7,7 --count 100 && $work --units 9 --count 4 &&
		for _ in \$(seq 600); do [ \$(cat $HMU/entries) -ge 2 ] && exit 0; sleep 0.1; done; exit 1" )
echo "$out"
expect_eq "$(grep ^record <<<"$out")" \
	"record seq=1 count=2 counter_width=32 unit_shift=12 mode=0 reason=2 overflow=0" "AUX record header"
expect_eq "$(aux_entries <<<"$out")" "7:300 3:100" "AUX entries"
expect_eq "$(grep -c '^entry unit=7 dpa=0x7000 count=300$' <<<"$out")" 1 "AUX entry DPA"
expect_eq "$(trace_entries)" "7:300 3:100" "tracepoint entries"
expect_eq "$(kv event_count "$(tr ' ' '\n' <<<"$out")")" 2 "event count"
expect_eq "$(trace_events chmu_config enabled threshold epoch_us unit_shift | tr '\n' ';')" \
	"enabled=1 threshold=5 epoch_us=2000000 unit_shift=12;enabled=0 threshold=5 epoch_us=2000000 unit_shift=12;" "config events"
expect_eq "$(cat $HMU/owner)" none "owner after the session"

# Entries still in the hotlist when the event stops are flushed into AUX
# (reason 3, batch 0) and reach the tracepoints too.
hmu_cfg poll_ms=60000
echo >$TRACE/trace
out=$(chmu-perf "$PMU/access_type=6,hotness_threshold=2,epoch_scale=5,epoch_multiplier=1,hotness_granual=12/" -- \
	sh -c "$work --units 12,13 --count 6 && sleep 1.5")
echo "$out"
expect_eq "$(grep ^record <<<"$out")" \
	"record seq=0 count=2 counter_width=32 unit_shift=12 mode=0 reason=3 overflow=0" "flush record"
expect_eq "$(aux_entries <<<"$out")" "12:6 13:6" "flushed entries"
expect_eq "$(trace_entries)" "12:6 13:6" "flushed entries traced"
expect_eq "$(trace_events chmu_hotlist_batch nr reason | grep -v '^nr=0 ')" "nr=2 reason=3" "flush batch traced"

# A full AUX buffer: perf keeps one byte of the page free, so one page
# holds a header and 509 entries; of a batch of 600 the other 91 are
# counted lost and the record is flagged truncated.
hmu_cfg poll_ms=100
echo >$TRACE/trace
out=$(chmu-perf -a 1 "$PMU/access_type=6,hotness_threshold=1,epoch_scale=5,epoch_multiplier=2,hotness_granual=12/" -- \
	sh -c "$work --size 4M --units 0-599 --count 1 && sleep 2.5")
grep -v ^entry <<<"$out"
expect_eq "$(grep ^record <<<"$out")" \
	"record seq=1 count=509 counter_width=32 unit_shift=12 mode=0 reason=2 overflow=0" "truncated record"
expect_eq "$(grep ^summary <<<"$out" | sed 's/ lost_records.*//')" "summary records=1 entries=509 truncated=1" "AUX summary"
expect_eq "$(cat $HMU/lost)" 91 "entries lost to the full AUX buffer"
expect_eq "$(grep -c chmu_hotlist_entry: $TRACE/trace)" 600 "all 600 traced"

# Without an AUX buffer the event still drives the instance: tracepoints
# and the event count.
echo >$TRACE/trace
out=$(chmu-perf -a 0 "$PMU/access_type=6,hotness_threshold=3,epoch_scale=5,epoch_multiplier=1,hotness_granual=12/" -- \
	sh -c "$work --units 21 --count 5 && sleep 1.5")
expect_eq "$(grep ^summary <<<"$out" | sed 's/ truncated.*event_count=/ count=/')" "summary records=0 entries=0 count=1" "no AUX"
expect_eq "$(trace_entries)" "21:5" "traced without AUX"

# perf and sysfs exclude each other.
hmu_cfg enable=1
perf_errno EBUSY "$ok"
dmesg | grep -qF "already held by sysfs" || fail "no reason for EBUSY"
hmu_cfg enable=0
perf_hold "$PMU/$ok/"
expect_eq "$(cat $HMU/owner)" perf "owner while perf runs"
expect_errno "Device or resource busy" $HMU/enable 1
expect_errno "Device or resource busy" $HMU/enable 0
expect_errno "Device or resource busy" $HMU/threshold 3
perf_errno EBUSY "$ok"
perf_release
expect_eq "$(cat $HMU/owner)" none "owner after perf"

# SIGINT ends a session as perf record's Ctrl-C does, also when a shell
# started it in the background (SIGINT ignored): its command gets
# SIGTERM, the records so far and the summary are printed, exit 0.
chmu-perf "$PMU/epoch_type=0,access_type=6,hotness_threshold=5,epoch_scale=5,epoch_multiplier=2,hotness_granual=12/" \
	-- sleep 600 >/tmp/perf.out 2>&1 &
perf=$!
for _ in $(seq 50); do [ "$(cat $HMU/owner)" = perf ] && break; sleep 0.1; done
$work --units 3 --count 100 >/dev/null
sleep 2.5	# the 2 s epoch ends: its entry is in the hotlist
kill -INT $perf
rc=0
wait $perf || rc=$?
cat /tmp/perf.out
expect_eq "$rc" 0 "exit status after SIGINT"
expect_eq "$(aux_entries </tmp/perf.out)" "3:100" "records up to SIGINT"
expect_eq "$(grep -c '^summary ' /tmp/perf.out)" 1 "summary after SIGINT"
expect_eq "$(pgrep -x -f 'sleep 600' || true)" "" "the command ended"
expect_eq "$(cat $HMU/owner)" none "owner after SIGINT"
chmu-region destroy "$REGION"
