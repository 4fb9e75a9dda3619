# The promoter leaves a full fast tier alone, as NUMA balancing does: a
# page is promoted only while node 0 keeps its high watermark plus the
# pages taken free. Node 0 is held under its high watermarks and over
# its low ones (node0_full, tests/lib.sh: allocations go on, nothing
# wakes kswapd or falls back to the CXL node, where the device would
# count it, and nothing can be demoted to make room). Always-on mode,
# threshold 50, 4 KiB units; nothing drains but the instance's stop
# (poll_ms 60000), so the workload's two hot pages (read 50 times each)
# arrive in one drain: both are tried and refused (failed_watermark 2,
# nothing promoted, every page tried counted) and stay on the CXL node.
# With the watermarks back, the next two hot pages are promoted and none
# is refused.
. tests/lib.sh
hmu_setup
trap '[ -z "$PAIR_WL" ] || kill $PAIR_WL 2>/dev/null || true; node0_release || true; wait; chmu_cleanup' EXIT
eval "$(chmu-region create -m mem0 --ram)"
P=$HMU/promote
c() { cat "$P/$1"; }

# run full|room UNIT UNIT: promote_pair (tests/lib.sh) with the promoter
# enabled anew (its counters reset): the two units read 50 times with
# node 0 full or with room, one drain, its batch done
run() {
	hmu_cfg mode=always-on threshold=50 unit_shift=12 access=1 fill_threshold=0 poll_ms=60000 \
		enable=1
	echo 1 >$P/enable
	promote_pair "$@"
	for f in tried promoted $PROMOTE_REASONS; do echo "$f=$(c $f)"; done
	echo 0 >$P/enable
}

run full 3 7
expect_eq "$(c tried) $(c promoted) $(c failed_watermark) $(promote_failed)" "2 0 2 2" \
	"node 0 full: pages tried, promoted, refused for the watermark, failed"
expect_eq "$(kv after0 "$PAIR_OUT") $(kv after1 "$PAIR_OUT")" "$NODE $NODE" "the hot pages still on the CXL node"

run room 11 13
expect_eq "$(c tried) $(c promoted) $(c failed_watermark) $(promote_failed)" "2 2 0 0" \
	"node 0 with room: pages tried, promoted, refused for the watermark, failed"
expect_eq "$(kv after0 "$PAIR_OUT") $(kv after1 "$PAIR_OUT")" "0 0" "the hot pages on node 0"
node0_release || fail "a balloon did not exit cleanly"
echo ok
