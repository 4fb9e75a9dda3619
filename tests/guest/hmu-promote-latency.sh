# The promoter's latency bound (promote/max_latency_ms): a report is acted
# on while it is fresh. A workload reads 1000 pages of the CXL node 50
# times each (always-on mode, threshold 50, 4 KiB units: one entry per
# page, all in the hotlist of 1024 at once) within well under a second;
# the instance's own rate limit, 1 MiB/s (256 pages a second, a tenth of
# a second saved up), cannot take them within a bound of 100 ms, so
# records older than 50 ms expire
# unmigrated: some expire, and every queued page is either expired or
# tried (the sums exact). The first batch takes at most 8 pages (no
# migration time measured yet; without a bound, up to 64 records). The
# bound is 0 (none, the default) or 4..60000 ms.
. tests/lib.sh
hmu_setup
wl=
trap '[ -z "$wl" ] || kill $wl 2>/dev/null; echo 0 >$TRACE/events/chmu/chmu_promote/enable; chmu_cleanup' EXIT
eval "$(chmu-region create -m mem0 --ram)"
P=$HMU/promote
reasons="failed_gone failed_not_lru failed_isolate failed_no_memory failed_on_target failed_busy
	failed_watermark failed_policy failed_rate_limited"

expect_eq "$(cat $P/max_latency_ms)" 0 "no bound by default"
for v in 1 3 60001 -1 x ""; do expect_errno "Invalid argument" $P/max_latency_ms "$v"; done
for v in 4 60000 0 100; do
	echo $v >$P/max_latency_ms
	expect_eq "$(cat $P/max_latency_ms)" $v "max_latency_ms <- $v"
done
echo 1 >$P/rate_mbps

hmu_cfg mode=always-on threshold=50 unit_shift=12 access=1 fill_threshold=0 poll_ms=100 enable=1
chmu-workload touch --node "$NODE" --movable --no-thp --size 4M --units 0-999 --count 50 \
	--wait --hold >/tmp/latency.out &
wl=$!
wait_for "the workload did not allocate" grep -q '^ready=' /tmp/latency.out
lru_drain
echo >$TRACE/trace
echo 1 >$TRACE/events/chmu/chmu_promote/enable
echo 1 >$P/enable
kill -USR1 $wl
wait_for "the workload did not reach --hold" grep -q '^held=' /tmp/latency.out
# the last drain, then the queue empties (taken or expired); stopping the
# promoter waits for a batch in flight: the counters below are final
hmu_cfg enable=0
wait_for "queue not emptied" attr_cmp $P/pending -eq 0
echo 0 >$P/enable
echo 0 >$TRACE/events/chmu/chmu_promote/enable
kill -USR1 $wl
wait $wl || fail "workload failed"
wl=
for f in queued queued_pages dropped expired expired_pages tried promoted $reasons batches; do
	echo "$f=$(cat $P/$f)"
done
expect_eq "$(cat $P/dropped)" 0 "records dropped (queue full)"
[ "$(cat $P/queued_pages)" -ge 1000 ] || fail "fewer than the 1000 pages queued"
[ "$(cat $P/expired_pages)" -gt 0 ] || fail "nothing expired at 256 pages/s within 50 ms"
[ "$(cat $P/promoted)" -gt 0 ] || fail "nothing promoted"
expect_eq "$(cat $P/expired_pages)" "$(cat $P/expired)" "expired pages (one per record)"
expect_eq "$(($(cat $P/expired_pages) + $(cat $P/tried)))" "$(cat $P/queued_pages)" \
	"queued pages = expired + tried"
failed=0
for f in $reasons; do failed=$((failed + $(cat $P/$f))); done
expect_eq "$(cat $P/tried)" $(($(cat $P/promoted) + failed)) "pages tried = promoted + failed by reason"
tried=$(trace_events chmu_promote tried | sed 's/tried=//')
expect_eq "$(wc -l <<<"$tried")" "$(cat $P/batches)" "chmu_promote events = batches"
[ "$(head -n 1 <<<"$tried")" -le 8 ] || fail "the first batch took $(head -n 1 <<<"$tried") pages, not 8 at most"
expect_eq "$(awk '{ s += $1 } END { print s }' <<<"$tried")" "$(cat $P/tried)" "pages of the traced batches"
echo ok
