# The promoter's latency target (promote/max_latency_ms): a report is
# acted on while it is fresh. A workload reads 1000 pages of the CXL node
# 50 times each (always-on mode, threshold 50, 4 KiB units: one entry per
# page, all in the hotlist of 1024); nothing drains but the instance's
# stop, so the 1000 records are queued at once, with no entry of the
# migrations' copy reads after them. The instance's own rate limit,
# 1 MiB/s (256 pages a second, a tenth of a second saved up), cannot take
# them within a target of 1 s: records older than 750 ms expire
# unmigrated (at most about 25 + 192 pages, and a batch, can be taken
# before), and every queued page is either expired or tried (exact
# sums). The first batch takes 8 pages (no migration time measured yet;
# without a target it takes 64 records); page_ns is exactly what the
# traced batches' times give (decayed sums of each migrating batch's
# time and pages), and each batch within what the ones before allowed
# in 250 ms; the pages charged to the cap are those tried but off the
# LRU; chmutop's records sum the expired ones. Enabling again resets the counters; the target is 0 (none, the
# default) or 4..60000 ms.
. tests/lib.sh
hmu_setup
wl=
top=
trap '[ -z "$wl$top" ] || kill $wl $top 2>/dev/null; echo 0 >$TRACE/events/chmu/chmu_promote/enable; chmu_cleanup' EXIT
eval "$(chmu-region create -m mem0 --ram)"
P=$HMU/promote
reasons=$PROMOTE_REASONS

expect_eq "$(cat $P/max_latency_ms)" 0 "no target by default"
for v in 1 3 60001 -1 x ""; do expect_errno "Invalid argument" $P/max_latency_ms "$v"; done
for v in 4 60000 0 1000; do
	echo $v >$P/max_latency_ms
	expect_eq "$(cat $P/max_latency_ms)" $v "max_latency_ms <- $v"
done
echo 1 >$P/rate_mbps

hmu_cfg mode=always-on threshold=50 unit_shift=12 access=1 fill_threshold=0 poll_ms=60000 enable=1
chmu-workload touch --node "$NODE" --movable --no-thp --size 4M --units 0-999 --count 50 \
	--wait --hold >/tmp/latency.out &
wl=$!
wait_for "the workload did not allocate" grep -q '^ready=' /tmp/latency.out
lru_drain
echo >$TRACE/trace
echo 1 >$TRACE/events/chmu/chmu_promote/enable
echo 1 >$P/enable
# chmutop reports the expired records over its intervals
l0=$(bpf_links)
chmutop -b -j 1 >/tmp/latency.top 2>/tmp/latency.top.err &
top=$!
attached "$l0" $top
kill -USR1 $wl
wait_for "the workload did not reach --hold" grep -q '^held=' /tmp/latency.out
hmu_cfg enable=0	# the one drain: 1000 entries
expect_eq "$(cat $HMU/entries)" 1000 "entries"
# the queue empties (taken or expired); stopping the promoter waits for a
# batch in flight: the counters below are final
wait_for "queue not emptied" attr_cmp $P/pending -eq 0
echo 0 >$P/enable
echo 0 >$TRACE/events/chmu/chmu_promote/enable
kill -INT $top
wait $top || fail "chmutop: $(cat /tmp/latency.top.err)"
top=
kill -USR1 $wl
wait $wl || fail "workload failed"
wl=
expect_eq "$(jq -s '[.[] | select(.type == "instance") | .promote_expired] | add' /tmp/latency.top)" \
	"$(cat $P/expired)" "chmutop: records expired over its intervals"
for f in queued queued_pages dropped expired expired_pages tried promoted $reasons batches charged page_ns; do
	echo "$f=$(cat $P/$f)"
done
expect_eq "$(cat $P/queued) $(cat $P/queued_pages) $(cat $P/dropped)" "1000 1000 0" \
	"records and pages queued, dropped"
expect_eq "$(cat $P/expired_pages)" "$(cat $P/expired)" "expired pages (one per record)"
expect_eq "$(($(cat $P/expired_pages) + $(cat $P/tried)))" 1000 "queued pages = expired + tried"
[ "$(cat $P/expired)" -gt 0 ] || fail "nothing expired at 256 pages/s within 750 ms"
failed=$(promote_failed)
expect_eq "$(cat $P/tried)" $(($(cat $P/promoted) + failed)) "pages tried = promoted + failed by reason"
expect_eq "$(cat $P/failed_watermark) $(cat $P/failed_policy) $(cat $P/failed_rate_limited)" "0 0 0" \
	"pages refused before any work (watermark, policy, node rate limit)"
expect_eq "$(cat $P/charged)" "$(($(cat $P/tried) - $(cat $P/failed_not_lru)))" "pages charged = tried but off the LRU"
# the batches: "tried migrated ns" each
b=$(trace_events chmu_promote tried migrated ns | sed 's/[a-z]*=//g')
[ -n "$b" ] || fail "no chmu_promote event"
echo "$b" | head -n 3
expect_eq "$(wc -l <<<"$b")" "$(cat $P/batches)" "chmu_promote events = batches"
expect_eq "$(awk '{ s += $1 } END { print s }' <<<"$b")" "$(cat $P/tried)" "pages of the traced batches"
read -r t1 m1 _ <<<"$(sed -n 1p <<<"$b")"
expect_eq "$t1" 8 "the first batch's pages (no migration time measured yet)"
[ "$m1" -gt 0 ] || fail "the first batch migrated nothing"
# The kernel's estimator over the traced batches: before each, its page
# budget (8 until measured, else 250 ms over the time per page, 1..512);
# after each that migrated, decayed sums of its time and of the lesser of
# its pages taken and migrated (in 1/1024 pages). Exact integer maths.
est=$(awk '{
	cap = pg ? int(int(250000000 * pg / (cns > 1 ? cns : 1)) / 1024) : 8
	if (pg) cap = cap < 1 ? 1 : (cap > 512 ? 512 : cap)
	if ($1 > cap) { print "over " NR " " $1 " " cap; exit }
	if ($2 > 0) {
		cns = cns - int(cns / 4) + $3
		pg = pg - int(pg / 4) + ($1 < $2 ? $1 : $2) * 1024
	}
} END { printf "page_ns %d\n", pg ? int(cns * 1024 / pg) : 0 }' <<<"$b")
! grep -q '^over' <<<"$est" || fail "a batch took more pages than the estimator allowed: $est"
expect_eq "$(cat $P/page_ns)" "$(sed -n 's/^page_ns //p' <<<"$est")" "page_ns from the traced batches"
echo 1 >$P/enable
expect_eq "$(cat $P/expired) $(cat $P/charged) $(cat $P/page_ns) $(cat $P/tried)" "0 0 0 0" \
	"expired, charged, page_ns, tried after enabling again"
echo 0 >$P/enable
echo ok
