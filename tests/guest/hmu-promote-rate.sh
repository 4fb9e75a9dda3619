# guest-env: CXL_DEVICES=2
# One promotion rate budget for the target node, whatever the number of
# promoters: kernel.numa_balancing_promote_rate_limit_MBps (the budget
# NUMA balancing's tiering mode uses) bounds what two instances, one per
# device, promote to node 0 together. A region interleaved across the
# two devices at 4 KiB puts every other page on each; a workload reads
# 2048 pages (8 MiB) 50 times each (always-on mode, threshold 50, 4 KiB
# units: one entry per page), 1024 on each device, far more than 1 MiB/s
# allows over the seconds the queues take; the instances' own rate_mbps
# is 0 (no cap of their own). In a window of a second the node admits
# less than 256 pages (1 MiB), so the pages promoted are at most 256 per
# started second of the run, measured; every queued page is promoted or
# counted as rate limited, every page looked at is accounted for, and the
# candidates count as pgpromote_candidate.
. tests/lib.sh
hmu_setup
HMU0=$HMU
HMU1=/sys/bus/cxl/devices/hmu_mem1.0/hmu_mem1.0.0
[ -d $HMU1 ] || fail "no $HMU1 with two devices"
RL=/proc/sys/kernel/numa_balancing_promote_rate_limit_MBps
rl0=$(cat $RL)
wl=
trap 'echo $rl0 >$RL; [ -z "$wl" ] || kill $wl 2>/dev/null; chmu_cleanup' EXIT
eval "$(chmu-region create -m mem0,mem1 -g 4096 --ram)"
reasons=$PROMOTE_REASONS
sum() { local h n=0; for h in $HMU0 $HMU1; do n=$((n + $(cat $h/promote/$1))); done; echo $n; }
vm() { stat_fold; vmstat_get "$1"; }

echo 1 >$RL
for h in $HMU0 $HMU1; do
	HMU=$h hmu_cfg mode=always-on threshold=50 unit_shift=12 access=1 fill_threshold=0 \
		poll_ms=100 enable=1
	expect_eq "$(cat $h/promote/rate_mbps)" 0 "$(basename $h): no rate cap of its own"
done
cand0=$(vm pgpromote_candidate)
# the migrations of the run, for its log: any besides the promoter's (a
# compaction's, say) move workload pages and post their copies' reads
vmig() { grep -E '^(compact|pgmigrate|numa_hint)' /proc/vmstat; }
vmig >/tmp/rate.vm0
# The workload allocates first (--wait); its pages leave the CPUs' LRU
# batches before the reads (a folio in one is not isolated: not_lru)
chmu-workload touch --node "$NODE" --movable --no-thp --size 8M --units 0-2047 --count 50 \
	--wait --hold >/tmp/rate.out &
wl=$!
wait_for "the workload did not allocate" grep -q '^ready=' /tmp/rate.out
lru_drain
for h in $HMU0 $HMU1; do echo 1 >$h/promote/enable; done
t0=$(date +%s%N)
kill -USR1 $wl
wait_for "the workload did not reach --hold" grep -q '^held=' /tmp/rate.out
for h in $HMU0 $HMU1; do HMU=$h hmu_cfg enable=0; done
for h in $HMU0 $HMU1; do wait_for "$(basename $h): queue not emptied" attr_cmp $h/promote/pending -eq 0; done
for h in $HMU0 $HMU1; do echo 0 >$h/promote/enable; done
t1=$(date +%s%N)
kill -USR1 $wl
wait $wl || fail "workload failed"
wl=
for h in $HMU0 $HMU1; do
	for f in queued_pages tried promoted $reasons; do echo "$(basename $h) $f=$(cat $h/promote/$f)"; done
done
vmig | awk 'NR == FNR { a[$1] = $2; next } $2 != a[$1] { print "vmstat " $1 " +" $2 - a[$1] }' \
	/tmp/rate.vm0 -
secs=$(((t1 - t0 + 999999999) / 1000000000))
promoted=$(sum promoted)
echo "promoted $promoted pages in $secs s (started seconds)"
# each instance: its 1024 pages, and the posts of the migrations' copy reads
for h in $HMU0 $HMU1; do
	[ "$(cat $h/promote/queued_pages)" -ge 1024 ] || fail "$(basename $h): fewer than its 1024 pages queued"
done
[ "$promoted" -le $((256 * (secs + 1))) ] ||
	fail "$promoted pages promoted in $secs s: more than 256 pages (1 MiB) a second"
[ "$promoted" -gt 0 ] || fail "nothing promoted"
failed=0
for f in $reasons; do failed=$((failed + $(sum $f))); done
expect_eq "$(sum tried)" $((promoted + failed)) "pages tried = promoted + failed by reason"
# Every queued page was tried: promoted, or refused for the budget (the
# tries beyond are the migrations' copy reads of freed frames)
expect_eq "$((promoted + $(sum failed_rate_limited)))" 2048 "queued pages promoted or rate limited"
[ $(($(vm pgpromote_candidate) - cand0)) -ge 2048 ] || fail "candidates not counted in pgpromote_candidate"
echo ok
