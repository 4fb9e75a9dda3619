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
wl=
trap '[ -z "$wl" ] || kill $wl 2>/dev/null || true; node0_release || true; wait; chmu_cleanup' EXIT
eval "$(chmu-region create -m mem0 --ram)"
P=$HMU/promote
c() { cat "$P/$1"; }

# run full|room UNIT UNIT: the two units read 50 times in new pages of the
# CXL node with node 0 full or with room, one drain (the instance's
# stop), its batch done; the workload's report in OUT
run() {
	local e0
	hmu_cfg mode=always-on threshold=50 unit_shift=12 access=1 fill_threshold=0 poll_ms=60000 \
		enable=1
	echo 1 >$P/enable
	rm -f /tmp/wm.out
	chmu-workload touch --node "$NODE" --movable --no-thp --size 1M --units "$2,$3" --count 50 \
		--wait --hold >/tmp/wm.out &
	wl=$!
	wait_for "the workload did not allocate" grep -q '^ready=' /tmp/wm.out
	lru_drain
	if [ "$1" = full ]; then node0_full; else node0_room; fi
	awk '/^Node/ { z = $0 } /^ +(free|low|high) / && z ~ /^Node 0,/ { print z ": " $1 " " $2 }' \
		/proc/zoneinfo | paste -d' ' - - -
	e0=$(cat $HMU/entries)
	kill -USR1 $wl
	wait_for "the workload did not reach --hold" grep -q '^held=' /tmp/wm.out
	hmu_cfg enable=0
	expect_eq "$(($(cat $HMU/entries) - e0))" 2 "units $2 and $3: entries in the drain"
	wait_for "queue not emptied" attr_cmp $P/pending -eq 0
	wait_for "batch not done" sh -c "[ \$(cat $P/tried) -eq \$(cat $P/queued_pages) ]"
	kill -USR1 $wl
	wait $wl || fail "workload failed"
	wl=
	OUT=$(cat /tmp/wm.out)
	for f in tried promoted $PROMOTE_REASONS; do echo "$f=$(c $f)"; done
	echo 0 >$P/enable
}

run full 3 7
expect_eq "$(c tried) $(c promoted) $(c failed_watermark) $(promote_failed)" "2 0 2 2" \
	"node 0 full: pages tried, promoted, refused for the watermark, failed"
expect_eq "$(kv after0 "$OUT") $(kv after1 "$OUT")" "$NODE $NODE" "the hot pages still on the CXL node"

run room 11 13
expect_eq "$(c tried) $(c promoted) $(c failed_watermark) $(promote_failed)" "2 2 0 0" \
	"node 0 with room: pages tried, promoted, refused for the watermark, failed"
expect_eq "$(kv after0 "$OUT") $(kv after1 "$OUT")" "0 0" "the hot pages on node 0"
node0_release || fail "a balloon did not exit cleanly"
echo ok
