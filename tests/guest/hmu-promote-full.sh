# The promoter's full-target back-off (promote/full_backoff): while node
# 0 is full, only units with higher counts move. Always-on mode,
# threshold 50, 4 KiB units, min_count 50; nothing drains but the
# instance's stop (poll_ms 60000), so each step's two hot pages (read 50
# times each) arrive in one drain and at most one batch. The promoter
# judges node 0 over windows of a second or more, each ended by a batch
# or a drain: every step waits over a second first, so that its drain
# ends the window the step before left open (a slower machine only makes
# the windows longer, which changes none of the values below).
#  1. node 0 under its high watermarks but over its low ones
#     (vm.watermark_scale_factor at its most, 30% of a zone between
#     them, and balloons holding node 0's free memory halfway:
#     allocations go on as before, nothing wakes kswapd or spills to the
#     CXL node, where the device would count it): the batch is
#     refused (2 pages, failed_watermark); its window has only begun.
#  2. still full: the drain ends that window, refusals in it: the count
#     doubles from min_count (full_min_count 100), and the step's two
#     units (count 50) are under it (skipped_full 2, nothing queued).
#  3. watermarks back: a window without refusals or demotions halves it
#     to 50 = min_count, so 0; the two units are promoted.
#  4. node 0 demotes pages (demotion on, memory.reclaim of a cgroup
#     holding 4 MiB there): that window's demotions outnumber half its 2
#     promotions: 100 again, the units skipped.
#  5. full_backoff 0 clears it; refused in a window, it stays 0.
# Knob: 0 by default, 1 or 0 only. vm.stat_refresh first: demotions of
# earlier tests still in per-CPU counters must not land in a window.
. tests/lib.sh
hmu_setup
DE=/sys/kernel/mm/numa/demotion_enabled
de0=$(cat $DE)
CG=/sys/fs/cgroup/chmu-full
hold=
trap 'echo $de0 >$DE; for p in $PAIR_WL $hold; do kill $p 2>/dev/null || true; done
	node0_release || true; wait; rmdir $CG 2>/dev/null || true; chmu_cleanup' EXIT
eval "$(chmu-region create -m mem0 --ram)"
P=$HMU/promote
c() { cat "$P/$1"; }

expect_eq "$(c full_backoff) $(c full_min_count)" "0 0" "full_backoff and full_min_count by default"
for v in 2 -1 x ""; do expect_errno "Invalid argument" $P/full_backoff "$v"; done
echo 0 >$DE
stat_fold
hmu_cfg mode=always-on threshold=50 unit_shift=12 access=1 fill_threshold=0 poll_ms=60000
echo 50 >$P/min_count
echo 1 >$P/full_backoff
echo 1 >$P/enable

# step full|room UNIT UNIT: over a second after the last, promote_pair
# (tests/lib.sh): the two units read 50 times, one drain, its batch done
step() {
	sleep 1.1
	hmu_cfg enable=1
	promote_pair "$@"
}
state() {
	echo "$(c full_min_count) $(c full_raises) $(c skipped_full) $(c promoted) $(c failed_watermark)"
}

step full 3 7
expect_eq "$(state)" "0 0 0 0 2" "1: refused (full_min_count raises skipped_full promoted failed_watermark)"
step full 5 9
expect_eq "$(state)" "100 1 2 0 2" "2: the window with refusals: raised, units under it"
expect_eq "$(c skipped) $(c queued)" "2 2" "2: skipped, queued"
step room 11 13
expect_eq "$(state)" "0 1 2 2 2" "3: a window with room: lowered to min_count, promoted"

# demotion from node 0: proactive reclaim of a cgroup's anonymous pages
echo 1 >$DE
echo +memory >/sys/fs/cgroup/cgroup.subtree_control
mkdir -p $CG
chmu-workload touch --node 0 --movable --no-thp --size 4M --units 0 --cgroup $CG --hold >/tmp/full.hold &
hold=$!
wait_for "the holder did not start" grep -q '^held=' /tmp/full.hold
demoted() {
	stat_fold
	awk '$1 ~ /^pgdemote_/ { s += $2 } END { print s }' /sys/devices/system/node/node0/vmstat
}
d0=$(demoted)
echo 4M >$CG/memory.reclaim 2>/dev/null || true
d1=$(demoted)
echo "node 0 demoted $((d1 - d0)) pages"
[ "$d1" -gt "$((d0 + 1))" ] || fail "memory.reclaim demoted $((d1 - d0)) pages from node 0, not more than 1"
kill -USR1 $hold
wait $hold || true
hold=
echo 0 >$DE
step room 15 17
expect_eq "$(state)" "100 2 4 2 2" "4: a window with demotions: raised, units under it"

echo 0 >$P/full_backoff
expect_eq "$(c full_min_count)" 0 "5: full_backoff 0 clears full_min_count"
step full 19 21
step full 23 25
expect_eq "$(state)" "0 2 4 2 6" "5: refused in a window with full_backoff 0: not raised"
echo 0 >$P/enable
node0_release || fail "a balloon did not exit cleanly"
echo ok
