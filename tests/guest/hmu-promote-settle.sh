# Settling: a page that moved into CXL memory by migration is not
# promoted on the count of that migration's own copy (kernel 0012/0013,
# docs/driver.md "Settling"). The instance counts
# reads and writes (access=6), always-on, threshold 50, 4 KiB units: the
# demotion of a page to the CXL node writes its new frame line by line,
# 64 requests, which post the unit once (the other 14 stay in its
# counter). A workload holds 1 MiB on node 0 in base pages, charged to a
# cgroup of its own; proactive reclaim of the cgroup with demotion
# enabled demotes the 256 pages (anonymous memory without swap can only
# be demoted). Every entry their demotion posted names a page that
# arrived after the count behind it began: 256 pages failed_settling,
# none promoted back, none charged to the rate cap.
. tests/lib.sh
hmu_setup
CG=/sys/fs/cgroup/chmu-settle
DEM=/sys/kernel/mm/numa/demotion_enabled
dem0=$([ "$(cat $DEM)" = true ] && echo 1 || echo 0)
wl=
cleanup() {
	echo "$dem0" >$DEM
	[ -z "$wl" ] || kill $wl 2>/dev/null
	wait 2>/dev/null
	rmdir $CG 2>/dev/null
	chmu_cleanup
}
trap cleanup EXIT
eval "$(chmu-region create -m mem0 --ram)"
P=$HMU/promote
c() { cat "$P/$1"; }
echo +memory >/sys/fs/cgroup/cgroup.subtree_control
mkdir -p $CG

hmu_cfg mode=always-on threshold=50 unit_shift=12 access=6 fill_threshold=0 poll_ms=100 enable=1
echo 1 >$P/enable
# One read of one unit: on node 0, which the device does not see
chmu-workload touch --node 0 --movable --no-thp --cgroup $CG --size 1M --units 0 --count 1 \
	--hold >/tmp/settle.out &
wl=$!
wait_for "the workload did not reach --hold" grep -q '^held=' /tmp/settle.out
anon() { awk -v n="N$1" '$1 == "anon" { for (i = 2; i <= NF; i++) if ($i ~ "^" n "=") { sub(/^N[0-9]+=/, "", $i); print $i } }' $CG/memory.numa_stat; }
expect_eq "$(anon 0)" 1048576 "the area on node 0 before"
echo 1 >$DEM
# Pages on the active list are only aged by a pass: reclaim until the
# whole area is on the CXL node
demoted() {
	echo 1M >$CG/memory.reclaim 2>/dev/null || true
	[ "$(anon 0)" = 0 ]
}
wait_for "the area was not demoted (memory.reclaim)" demoted
expect_eq "$(anon "$NODE")" 1048576 "the area on node $NODE after"
# The stop drains what the demotions posted; the worker takes it. A
# record leaves the queue before its batch is counted: wait for the
# count (every record here is one base page)
hmu_cfg enable=0
done_all() { [ $(($(c tried) + $(c expired_pages))) = "$(c queued_pages)" ]; }
wait_for "the worker did not try every queued page" done_all
for f in queued_pages skipped tried promoted $PROMOTE_REASONS charged; do echo "$f=$(c $f)"; done
expect_eq "$(c failed_settling)" 256 "pages just demoted, left settling"
expect_eq "$(c promoted) $(c charged)" "0 0" "pages promoted back, pages charged"
expect_eq "$(c tried)" "$(($(c promoted) + $(promote_failed)))" "pages tried = promoted + failed by reason"
kill -USR1 $wl
wait $wl || fail "workload failed"
wl=
echo 0 >$P/enable
echo ok
