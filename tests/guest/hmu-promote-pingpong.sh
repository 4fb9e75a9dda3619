# Ping-pong: pages the promoter moved to node 0 that demotion sends back
# within ten seconds are counted (pgpromote_pingpong on node 0 and in
# /proc/vmstat), and the promoter backs off. Two pages of a workload in
# its own cgroup are read 50 times (always-on mode, threshold 50: one
# entry each) and promoted; proactive reclaim of the cgroup
# (memory.reclaim) with demotion enabled sends them back to the CXL node:
# two ping-pong pages. The next batch, a window of a second or more later,
# sees two of its pages come back against at most two promoted since: the
# promoter caps its rate (throttle_pps, at least 256 pages/s) and counts
# the back-off.
. tests/lib.sh
hmu_setup
wl=
cleanup() {
	[ -z "$wl" ] || kill $wl 2>/dev/null
	wait 2>/dev/null
	demotion_off
	chmu_cleanup
}
trap cleanup EXIT
eval "$(chmu-region create -m mem0 --ram)"
P=$HMU/promote
c() { cat "$P/$1"; }
demotion_on chmu-pp

hmu_cfg mode=always-on threshold=50 unit_shift=12 access=1 fill_threshold=0 poll_ms=100 enable=1
echo 1 >$P/enable
pp0=$(vmstat_get pgpromote_pingpong)
[ -n "$pp0" ] || fail "no pgpromote_pingpong in /proc/vmstat"
# the workload joins the cgroup before it allocates
(echo $BASHPID >$CG/cgroup.procs && exec chmu-workload touch --node "$NODE" --movable --no-thp \
	--size 1M --units 3,7 --count 50 --hold) >/tmp/pp.out &
wl=$!
wait_for "the workload did not reach --hold" grep -q '^held=' /tmp/pp.out
wait_for "2 pages not promoted" attr_cmp $P/promoted -ge 2
# node 0 now holds the two pages: reclaim the cgroup's memory; anonymous
# memory without swap can only be demoted (the rest stays: the error is
# expected). Pages just migrated may still be on the active list, which
# one reclaim pass only ages: reclaim again until both are demoted (the
# workload holds them without reading, so nothing promotes them again).
demoted() {
	echo 1M >$CG/memory.reclaim 2>/dev/null || true
	[ "$(($(vmstat_get pgpromote_pingpong) - pp0))" -ge 2 ]
}
wait_for "the promoted pages were not demoted: pgpromote_pingpong +$(($(vmstat_get pgpromote_pingpong) - pp0))" demoted
expect_eq "$(($(vmstat_get pgpromote_pingpong) - pp0))" 2 "pages counted as ping-pong"
expect_eq "$(cat /sys/devices/system/node/node0/vmstat | awk '$1 == "pgpromote_pingpong" { print $2 }')" \
	"$(vmstat_get pgpromote_pingpong)" "node 0's pgpromote_pingpong (the only top-tier node)"
kill -USR1 $wl
wait $wl || fail "workload failed"
wl=
out=$(cat /tmp/pp.out)
expect_eq "$(kv after0 "$out") $(kv after1 "$out")" "$NODE $NODE" "the promoted pages demoted again"

# A window of a second later, two more hot pages: the promoter backs off
sleep 1.1
(echo $BASHPID >$CG/cgroup.procs && exec chmu-workload touch --node "$NODE" --movable --no-thp \
	--size 1M --units 11,13 --count 50) >/dev/null
wait_for "no back-off" attr_cmp $P/throttles -ge 1
hmu_cfg enable=0
wait_for "queue not emptied" attr_cmp $P/pending -eq 0
echo "throttle_pps=$(c throttle_pps) throttles=$(c throttles) promoted=$(c promoted)"
[ "$(c throttle_pps)" -ge 256 ] || fail "throttle_pps $(c throttle_pps): under the floor of 256 pages/s"
echo 0 >$P/enable
echo ok
