# The promoter and transparent huge pages: a hot THP on the CXL node
# moves whole or not at all. With room on node 0 it is promoted as one
# folio (512 pages, one THP migration, no split). When node 0 cannot give
# an order-9 page (fail_page_alloc makes every allocation of order 9 or
# more fail, as a fragmented node would), the THP stays where it is,
# whole, counted as no memory on the target: migrate_pages() would split
# it and move 512 base pages, and thp_split_page would rise. Always-on
# mode, threshold 50, 2 MiB units: one entry per unit read 50 times.
. tests/lib.sh
hmu_setup
wl=
FA=/sys/kernel/debug/fail_page_alloc
fa_off() { [ ! -d $FA ] || echo 0 >$FA/probability; }
trap 'fa_off; [ -z "$wl" ] || kill $wl 2>/dev/null; chmu_cleanup' EXIT
[ -d $FA ] || fail "no $FA (CONFIG_FAIL_PAGE_ALLOC, CONFIG_FAULT_INJECTION_DEBUG_FS)"
eval "$(chmu-region create -m mem0 --ram)"
P=$HMU/promote
c() { cat "$P/$1"; }

# run_thp NAME: a 2 MiB area, one THP on the CXL node, read 50 times
# once the caller's setup (between ready= and SIGUSR1) is done
run_thp() {
	chmu-workload touch --node "$NODE" --movable --size 2M --unit-size 2M --units 0 \
		--count 50 --wait --hold >/tmp/thp.$1 &
	wl=$!
	wait_for "the workload did not allocate" grep -q '^ready=' /tmp/thp.$1
	expect_eq "$(awk '/^AnonHugePages:/ { print $2 }' /proc/$wl/smaps_rollup)" 2048 \
		"$1: the area is one THP (kB)"
	expect_eq "$(kv node0 "$(cat /tmp/thp.$1)")" "$NODE" "$1: the THP on the CXL node before"
}

hmu_cfg mode=always-on threshold=50 unit_shift=21 access=1 fill_threshold=0 poll_ms=100 enable=1

# 1. Room on node 0: promoted whole.
echo 1 >$P/enable
split0=$(vmstat_get thp_split_page) mig0=$(vmstat_get thp_migration_success)
run_thp room
kill -USR1 $wl
wait_for "the workload did not reach --hold" grep -q '^held=' /tmp/thp.room
wait_for "the THP not promoted" attr_cmp $P/promoted -ge 512
hmu_cfg enable=0
wait_for "queue not emptied" attr_cmp $P/pending -eq 0
echo 0 >$P/enable
kill -USR1 $wl
wait $wl || fail "workload failed"
wl=
expect_eq "$(kv after0 "$(cat /tmp/thp.room)")" 0 "room: the unit now on node 0"
expect_eq "$(c promoted)" 512 "room: pages promoted"
expect_eq "$(($(vmstat_get thp_migration_success) - mig0))" 1 "room: THP migrations"
expect_eq "$(($(vmstat_get thp_split_page) - split0))" 0 "room: THPs split"

# 2. No order-9 page on node 0: the THP stays, whole.
echo >$TRACE/trace
hmu_cfg enable=1
echo 1 >$P/enable
split0=$(vmstat_get thp_split_page) mig0=$(vmstat_get thp_migration_success)
run_thp full
echo 9 >$FA/min-order
echo N >$FA/ignore-gfp-highmem
echo N >$FA/ignore-gfp-wait
echo 0 >$FA/verbose
echo 1 >$FA/interval
echo -1 >$FA/times
echo 100 >$FA/probability
kill -USR1 $wl
wait_for "the workload did not reach --hold" grep -q '^held=' /tmp/thp.full
wait_for "the THP not tried" attr_cmp $P/tried -ge 512
hmu_cfg enable=0
wait_for "queue not emptied" attr_cmp $P/pending -eq 0
echo 0 >$P/enable
fa_off
expect_eq "$(awk '/^AnonHugePages:/ { print $2 }' /proc/$wl/smaps_rollup)" 2048 \
	"full: the area is still one THP (kB)"
kill -USR1 $wl
wait $wl || fail "workload failed"
wl=
out=$(cat /tmp/thp.full)
for f in tried promoted failed_no_memory failed_not_lru failed_busy; do echo "$f=$(c $f)"; done
expect_eq "$(kv after0 "$out")" "$NODE" "full: the unit still on the CXL node"
expect_eq "$(c promoted)" 0 "full: pages promoted"
expect_eq "$(c failed_no_memory)" 512 "full: pages with no memory on the target (the THP, whole)"
expect_eq "$(($(vmstat_get thp_split_page) - split0))" 0 "full: THPs split"
expect_eq "$(($(vmstat_get thp_migration_success) - mig0))" 0 "full: THP migrations"
echo ok
