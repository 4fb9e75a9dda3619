# Settling: a page that moved into CXL memory by migration is not
# promoted on the count of that migration's own copy (kernel 0012/0013,
# docs/driver.md "Settling"). The instance counts reads and writes
# (access=6), always-on, threshold 50, 4 KiB units: the
# demotion of a page to the CXL node writes its new frame line by line,
# 64 requests, which post the unit once (the other 14 stay in its
# counter). A workload holds an area on node 0, charged to a cgroup of
# its own; proactive reclaim of the cgroup with demotion enabled demotes
# it (anonymous memory without swap can only be demoted). Every entry
# the demotion posted names a page that arrived after the count behind
# it began: all left settling, none promoted back, none charged to the
# rate cap.
#  1. 1 MiB in base pages: 256 entries, 256 pages settling.
#  2. One THP, demoted whole: 512 entries, one for each of its frames,
#     each reaching the whole folio (a folio counts whole, again for each
#     range that reaches it): 512 x 512 pages settling.
. tests/lib.sh
hmu_setup
wl=
cleanup() {
	for f in queued_pages skipped tried promoted $PROMOTE_REASONS charged; do
		echo "$f=$(cat $P/$f 2>/dev/null)"
	done
	[ -z "$wl" ] || kill $wl 2>/dev/null
	wait 2>/dev/null
	demotion_off
	chmu_cleanup
}
trap cleanup EXIT
eval "$(chmu-region create -m mem0 --ram)"
P=$HMU/promote
c() { cat "$P/$1"; }

hmu_cfg mode=always-on threshold=50 unit_shift=12 access=6 fill_threshold=0 poll_ms=100
anon() { awk -v k="$1" -v n="N$2" '$1 == k { for (i = 2; i <= NF; i++) if ($i ~ "^" n "=") { sub(/^N[0-9]+=/, "", $i); print $i } }' $CG/memory.numa_stat; }
demotion_on chmu-settle

# settle NAME SIZE TRIED WORKLOAD-FLAGS...: the area of SIZE bytes on
# node 0, demoted; the promoter's counters once it has tried TRIED pages
# (a record leaves the queue before its batch is counted: pending 0 is
# not the worker done)
settle() {
	local name=$1 size=$2 tried=$3
	shift 3
	hmu_cfg enable=1
	echo 1 >$P/enable
	# One read of one unit: on node 0, which the device does not see
	chmu-workload touch --node 0 --movable "$@" --cgroup $CG --size "$size" --units 0 --count 1 \
		--hold >/tmp/settle.$name &
	wl=$!
	wait_for "$name: the workload did not reach --hold" grep -q '^held=' /tmp/settle.$name
	expect_eq "$(anon anon 0)" "$size" "$name: the area on node 0 before"
	# Pages on the active list are only aged by a pass: reclaim until
	# the whole area is on the CXL node
	demoted() {
		echo "$size" >$CG/memory.reclaim 2>/dev/null || true
		[ "$(anon anon 0)" = 0 ]
	}
	wait_for "$name: the area was not demoted (memory.reclaim)" demoted
	expect_eq "$(anon anon "$NODE")" "$size" "$name: the area on node $NODE after"
	# The stop drains what the demotions posted; the worker takes it
	hmu_cfg enable=0
	wait_for "$name: the worker did not try $tried pages" attr_cmp $P/tried -ge "$tried"
	for f in queued_pages skipped tried promoted $PROMOTE_REASONS charged; do
		echo "$name: $f=$(c $f)"
	done
	expect_eq "$(c tried) $(c pending)" "$tried 0" "$name: pages tried, records pending"
	expect_eq "$(c tried)" "$(($(c promoted) + $(promote_failed)))" \
		"$name: pages tried = promoted + failed by reason"
	kill -USR1 $wl
	wait $wl || fail "$name: workload failed"
	wl=
	echo 0 >$P/enable
}

# 1. Base pages
settle base 1048576 256 --no-thp
expect_eq "$(c queued_pages) $(c failed_settling)" "256 256" "base: entries, pages left settling"
expect_eq "$(c promoted) $(c charged)" "0 0" "base: pages promoted back, pages charged"

# 2. One THP, demoted whole
split0=$(vmstat_get thp_split_page) mig0=$(vmstat_get thp_migration_success)
settle thp 2097152 $((512 * 512))
expect_eq "$(($(vmstat_get thp_split_page) - split0)) $(($(vmstat_get thp_migration_success) - mig0))" "0 1" \
	"thp: splits, THP migrations (its demotion)"
expect_eq "$(c queued_pages) $(c failed_settling)" "512 $((512 * 512))" \
	"thp: entries, pages left settling (the folio, once per entry)"
expect_eq "$(c promoted) $(c charged)" "0 0" "thp: pages promoted back, pages charged"
echo ok
