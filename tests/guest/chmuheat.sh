# chmuheat: a workload with a known hot set (units 3, 7, 20000 and 40000
# touched 100, 300, 9 and 20 times, threshold 5) gives exactly that log2
# histogram, those regions with their DPA and HPA ranges, those heatmap
# cells, and an SVG of the expected size; CSV and NDJSON carry the same;
# raw_tp works like tp_btf; --enable configures, enables and restores an
# instance; unusable environments and bad arguments exit 2 and 1 with one
# line.
. tests/lib.sh

# Environment and usage errors first: no driver, then bad arguments.
modprobe -r cxl_hmu 2>/dev/null || true
rc=0; out=$(chmuheat 1 1 2>&1) || rc=$?
expect_eq "$rc:$out" "2:chmuheat: no chmu tracepoints: load the driver (modprobe cxl_hmu)" "no driver"
hmu_setup
rc=0; out=$(chmuheat 1 1 2>&1) || rc=$?
expect_eq "$rc:$out" "2:chmuheat: no selected CHMU instance is enabled: enable one through sysfs, perf, or --enable" "nothing enabled"
rc=0; out=$(chmuheat -i 9.9 1 1 2>&1) || rc=$?
expect_eq "$rc:$out" "2:chmuheat: no CHMU instance matches the -m/-i selection" "no such instance"
rc=0; out=$(setpriv --reuid=65534 --regid=65534 --clear-groups chmuheat 1 1 2>&1) || rc=$?
expect_eq "$rc:$out" "2:chmuheat: needs CAP_BPF and CAP_PERFMON, or CAP_SYS_ADMIN (it loads BPF programs): run as root" "not root"
# Not root, but with CAP_BPF and CAP_PERFMON: it runs (and finds nothing
# enabled); and without tracefs mounted it still finds the tracepoints.
rc=0; out=$(setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=+bpf,+perfmon \
	--ambient-caps=+bpf,+perfmon chmuheat 1 1 2>&1) || rc=$?
expect_eq "$rc:$out" "2:chmuheat: no selected CHMU instance is enabled: enable one through sysfs, perf, or --enable" "CAP_BPF and CAP_PERFMON suffice"
if mountpoint -q /sys/kernel/tracing; then
	umount /sys/kernel/tracing
	rc=0; out=$(chmuheat 1 1 2>&1) || rc=$?
	mount -t tracefs tracefs /sys/kernel/tracing
	expect_eq "$rc:$out" "2:chmuheat: no selected CHMU instance is enabled: enable one through sysfs, perf, or --enable" "no tracefs needed"
else
	fail "tracefs is not mounted at /sys/kernel/tracing in the lab guest"
fi
for args in "-g 3M" "-i 0" "-m cxl0" "-t 5" "0" "1 1 1" "-x" "-j --csv"; do
	rc=0
	# shellcheck disable=SC2086
	out=$(chmuheat $args 2>&1) || rc=$?
	expect_eq "$rc" 1 "chmuheat $args exit status"
	[ "$(head -n 1 <<<"$out" | grep -c '^chmuheat: ')" = 1 ] || fail "chmuheat $args: '$out'"
done

eval "$(chmu-region create -m mem0 --devdax)"
trap 'chmu-region destroy all >/dev/null 2>&1' EXIT
hpa=$((HPA))
hot() {
	local w="chmu-workload touch --dax $DEV --size 256M"
	$w --units 3,7,7,7 --count 100 >/dev/null	# 100 and 300, one epoch
	$w --units 20000 --count 9 >/dev/null
	$w --units 40000 --count 20 >/dev/null
}
# run ARGS...: chmuheat in 2 s intervals while the hot set is touched,
# output in /tmp/heat.*; stopped (SIGINT) once the driver has drained all
# four entries (it counts a drain after its tracepoints: chmuheat saw
# them), however slowly the guest runs; K is the number of intervals it
# printed (the last one cut short by the signal)
run() {
	hmu_cfg threshold=5 epoch_us=1000000 fill_threshold=0 unit_shift=12 mode=epoch enable=1
	l0=$(bpf_links)
	chmuheat "$@" 2 >/tmp/heat.out 2>/tmp/heat.err &
	local pid=$!
	attached "$l0" $pid
	hot
	hmu_drained 4
	kill -INT $pid
	wait $pid || { cat /tmp/heat.err; fail "chmuheat $* failed"; }
	hmu_cfg enable=0
	K=$(grep -c '^mem0.0.0: [0-9]* entries$' /tmp/heat.out || true)
	[ "$K" -ge 1 ] || K=$(jq -s '[.[] | select(.type == "hist")] | length' /tmp/heat.out 2>/dev/null || echo 0)
}

run -g 64M -o /tmp/heat.svg
cat /tmp/heat.out
# The histograms of the K intervals add up to the hot set's.
expect_eq "$(awk '/-> / && $5 > 0 { n[$1] += $5 } END { for (k in n) print k ":" n[k] }' \
	<(sed -n '/^mem0.0.0: [0-9]* entries/,/^$/p' /tmp/heat.out) | sort -n | tr '\n' ' ')" \
	"8:1 16:1 64:1 256:1 " "log2 histogram over the intervals"
expect_eq "$(sed -n "/^mem0.0.0, all $K intervals: 4 entries\$/,/^\$/p" /tmp/heat.out | awk '/-> / && $5 > 0 { print $1 ":" $5 }' | tr '\n' ' ')" \
	"8:1 16:1 64:1 256:1 " "whole-run histogram"
expect_eq "$(grep '^mem0.0.0 region' /tmp/heat.out | tr '\n' ';')" \
	"mem0.0.0 region 0: DPA 0x0-0x3ffffff  HPA $(printf '%#x-%#x' $((hpa + 0x3000)) $((hpa + 0x7fff)));mem0.0.0 region 1: DPA 0x4000000-0x7ffffff  HPA $(printf '%#x-%#x' $((hpa + 0x4e20000)) $((hpa + 0x4e20fff)));mem0.0.0 region 2: DPA 0x8000000-0xbffffff  HPA $(printf '%#x-%#x' $((hpa + 0x9c40000)) $((hpa + 0x9c40fff)));" \
	"hot regions"
expect_eq "$(grep -c 'entries, counts sum' /tmp/heat.out) $(grep 'entries, counts sum' /tmp/heat.out | tr -s ' ' | tr '\n' ';')" \
	"3  2 entries, counts sum 400, max 300; 1 entries, counts sum 9, max 9; 1 entries, counts sum 20, max 20;" "region totals"
grep -q '^one cell: 32 MiB of DPA x 2 s; value: sum of hotlist counts (max ' /tmp/heat.out || fail "no heatmap legend"
expect_eq "$(awk -F'|' '/^ *0x[0-9a-f]+ \|/ && $2 ~ /[^ ]/ { print $1 }' /tmp/heat.out | tr -s ' ' | tr '\n' ';')" \
	" 0x0 ; 0x4000000 ; 0x8000000 ;" "heatmap rows with heat"
expect_eq "$(grep -c -E "^ *0x[0-9a-f]* \|.{$K}\|\$" /tmp/heat.out)" 16 "heatmap: 16 rows of $K columns"
expect_eq "$(sed -n 's/.*<svg [^>]*width="\([0-9]*\)" height="\([0-9]*\)".*/\1x\2/p' /tmp/heat.svg)" 890x366 "SVG size"
expect_eq "$(grep -c '<rect x=' /tmp/heat.svg)" $((16 * K + 9)) "SVG cells and legend swatches"
grep -q '^heatmap image: /tmp/heat.svg$' /tmp/heat.out || fail "image path not printed"

# NDJSON, through raw_tp this time: the same numbers.
CHMU_RAW_TP=1 run -g 64M -j
expect_eq "$(jq -c 'select(.type == "summary") | [.entries, .dropped, .dropped_hist, .dropped_regions, .dropped_cells, .beyond_rows, .dropped_read, .overflows, .lost, .intervals, .heatmap_intervals]' /tmp/heat.out)" \
	"[4,0,0,0,0,0,0,0,0,$K,$K]" "summary"

expect_eq "$(grep -c '"version":1' /tmp/heat.out)" "$(wc -l </tmp/heat.out)" "every record has a version"
expect_eq "$(jq -r 'select(.type=="region") | "\(.region) \(.entries) \(.sum) \(.max) \(.dpa_lo) \(.hpa_lo - '$hpa')"' /tmp/heat.out | tr '\n' ';')" \
	"0 2 400 300 0 12288;1 1 9 9 67108864 81920000;2 1 20 20 134217728 163840000;" "NDJSON regions"
expect_eq "$(jq -r 'select(.type=="cell") | "\(.dpa) \(.sum)"' /tmp/heat.out | awk '{ s[$1] += $2 } END { for (k in s) print k, s[k] }' | sort -n | tr '\n' ';')" \
	"0 400;67108864 9;134217728 20;" "NDJSON heatmap cells"
expect_eq "$(jq -r 'select(.type=="hist") | .buckets[] | "\(.lo)-\(.hi):\(.count)"' /tmp/heat.out | sort -n | tr '\n' ' ')" \
	"8-15:1 16-31:1 64-127:1 256-511:1 " "NDJSON histogram buckets"
grep -q 'raw_tp' /tmp/heat.err && fail "raw_tp run complained: $(cat /tmp/heat.err)"

# CSV.
run --csv --no-heatmap
expect_eq "$(head -n 1 /tmp/heat.out)" "kind,instance,interval,dpa_lo,dpa_hi,hpa_lo,hpa_hi,lo,hi,entries,sum,max" "CSV header"
expect_eq "$(grep '^region,' /tmp/heat.out)" \
	"region,mem0.0.0,,0x0,0xfffffff,$(printf '%#x,%#x' $((hpa + 0x3000)) $((hpa + 0x9c40fff))),,,4,429,300" "CSV region row (256 MiB regions)"
expect_eq "$(grep '^hist,' /tmp/heat.out | cut -d, -f8-10 | sort -n | tr '\n' ' ')" "8,15,1 16,31,1 64,127,1 256,511,1 " "CSV histogram rows"
expect_eq "$(awk -F, 'NR > 1 && NF != 12' /tmp/heat.out | wc -l)" 0 "12 columns on every CSV row"

# --enable: configure, enable for the run, restore. At threshold 1 the
# ten touches are posted whichever epochs they fall in, and the drains'
# counts add up to 10: the trace buffer says when all are drained, and
# chmuheat, on the same drains, saw them all.
hmu_cfg threshold=3 epoch_us=100000
echo >$TRACE/trace
l0=$(bpf_links)
chmuheat --enable -t 1 -u 4K -e 1000000 -j 1 >/tmp/heat.out &
pid=$!
attached "$l0" $pid
expect_eq "$(cat $HMU/enable) $(cat $HMU/threshold) $(cat $HMU/epoch_us)" "1 1 1000000" "enabled by chmuheat"
chmu-workload touch --dax "$DEV" --size 2M --units 5 --count 10 >/dev/null
unit5() { trace_entries | tr ' ' '\n' | awk -F: '$1 == 5 { s += $2 } END { print s + 0 }'; }
drained() { [ "$(unit5)" = 10 ]; }
wait_for "the ten touches of unit 5 not all drained" drained
kill -INT $pid
wait $pid || fail "chmuheat --enable: exit $?"
expect_eq "$(cat $HMU/enable) $(cat $HMU/threshold)" "0 3" "disabled and restored at exit"
expect_eq "$(jq -s '[.[] | select(.type == "region") | .sum] | add' /tmp/heat.out)" 10 "counts seen with --enable"
expect_eq "$(jq -r 'select(.type=="summary") | .entries' /tmp/heat.out)" "$(trace_entries | wc -w)" \
	"entries seen with --enable"
hmu_cfg enable=1
rc=0; out=$(chmuheat --enable -t 9 1 1 2>&1) || rc=$?
expect_eq "$rc:$out" "2:chmuheat: mem0.0.0 is already enabled (by sysfs): settings cannot change" "--enable on an enabled instance"
hmu_cfg enable=0

# A rolling heatmap: --window 2 over four 2 s intervals keeps the last
# two; the records number intervals from the run's start, whatever the
# window.
hmu_cfg mode=epoch threshold=1 epoch_us=1000000 fill_threshold=0 unit_shift=12 enable=1
l0=$(bpf_links)
chmuheat -j --heatmap-intervals 2 2 4 >/tmp/heat.out &
pid=$!
attached "$l0" $pid
chmu-workload touch --dax "$DEV" --size 2M --units 5 --count 10 >/dev/null
wait $pid
hmu_cfg enable=0
expect_eq "$(jq -c 'select(.type == "summary") | [.intervals, .heatmap_intervals]' /tmp/heat.out)" "[4,2]" "window summary"
expect_eq "$(jq -s '[.[] | select(.type == "hist") | .interval] | max' /tmp/heat.out)" 3 "intervals numbered from the start"
# the entry's interval (from its histogram): a cell there if it is in
# the window (2 or 3), none anywhere if it rolled out (0 or 1)
at=$(jq -s '[.[] | select(.type == "hist" and .entries > 0) | .interval] | first' /tmp/heat.out)
cells=$(jq -s -c '[.[] | select(.type == "cell") | .interval]' /tmp/heat.out)
if [ "$at" -ge 2 ]; then
	expect_eq "$cells" "[$at]" "the cell of interval $at, in the window"
else
	expect_eq "$cells" "[]" "the cell of interval $at rolled out of the window"
fi
rc=0; out=$(chmuheat --heatmap-intervals 0 2>&1) || rc=$?
expect_eq "$rc" 1 "--heatmap-intervals 0 refused"

# 40 entries in one drain, more than the BPF walker reads at once (16):
# always-on at threshold 10 posts each unit once, with count 10, whatever
# the epochs; with no poll and no fill interrupt the disable's flush is the
# only drain.
hmu_cfg mode=always-on threshold=10 fill_threshold=0 poll_ms=60000 unit_shift=12 enable=1
l0=$(bpf_links)
chmuheat -j --no-heatmap 1 >/tmp/heat.out &
pid=$!
attached "$l0" $pid
chmu-workload touch --dax "$DEV" --size 2M --units 0-39 --count 10 >/dev/null
hmu_cfg enable=0
kill -INT $pid
wait $pid
hmu_cfg poll_ms=100
expect_eq "$(cat "$HMU/batches") $(cat "$HMU/entries")" "1 40" "one drain of 40 entries"
expect_eq "$(jq -c 'select(.type == "summary") | [.batches, .entries, .dropped]' /tmp/heat.out)" "[1,40,0]" "chmuheat saw it whole"
expect_eq "$(jq -r 'select(.type=="region") | "\(.entries) \(.sum) \(.max)"' /tmp/heat.out)" "40 400 10" "their region"
expect_eq "$(jq -s '[.[] | select(.type == "hist") | .buckets[] | select(.lo == 8) | .count] | add' /tmp/heat.out)" 40 "all in the 8-15 bucket"
