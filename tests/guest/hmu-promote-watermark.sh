# The promoter leaves a full fast tier alone, as NUMA balancing does: a
# page is promoted only while node 0 keeps its high watermark plus the
# pages taken free. vm.min_free_kbytes is raised so that node 0's free
# memory lies between its min and high watermarks (allocations still
# succeed, falling back to the CXL node; nothing here can be demoted or
# swapped to make room): nothing is promoted, the workload's two hot
# pages (always-on mode, threshold 50) are among the pages refused under
# failed_watermark and stay on the CXL node, and every page tried is
# counted. With the watermarks back, two more hot pages are promoted.
. tests/lib.sh
hmu_setup
MF=/proc/sys/vm/min_free_kbytes
mf0=$(cat $MF)
wl=
trap 'echo $mf0 >$MF; [ -z "$wl" ] || kill $wl 2>/dev/null; chmu_cleanup' EXIT
eval "$(chmu-region create -m mem0 --ram)"
P=$HMU/promote
c() { cat "$P/$1"; }
reasons=$PROMOTE_REASONS

hmu_cfg mode=always-on threshold=50 unit_shift=12 access=1 fill_threshold=0 poll_ms=100 enable=1
echo 1 >$P/enable
chmu-workload touch --node "$NODE" --movable --no-thp --size 1M --units 3,7 --count 50 \
	--wait --hold >/tmp/wm.out &
wl=$!
wait_for "the workload did not allocate" grep -q '^ready=' /tmp/wm.out
# node 0: min 150 MiB under what is free now, so that free lies between
# min and high (min plus twice a quarter of min at least)
free=$(awk '/MemFree:/ { print $4 }' /sys/devices/system/node/node0/meminfo)
echo $((free - 150 * 1024)) >$MF
awk '/^Node/ { z = $0 } /^ +(free|min|high) / && z ~ /^Node 0,/ { print z ": " $1 " " $2 }' \
	/proc/zoneinfo | paste -d' ' - - -
lru_drain
kill -USR1 $wl
wait_for "the workload did not reach --hold" grep -q '^held=' /tmp/wm.out
wait_for "2 pages not tried" attr_cmp $P/tried -ge 2
hmu_cfg enable=0
wait_for "queue not emptied" attr_cmp $P/pending -eq 0
echo 0 >$P/enable
echo $mf0 >$MF
kill -USR1 $wl
wait $wl || fail "workload failed"
wl=
out=$(cat /tmp/wm.out)
for f in tried promoted $reasons; do echo "$f=$(c $f)"; done
failed=$(promote_failed)
expect_eq "$(c promoted)" 0 "pages promoted while node 0 is under its high watermark"
[ "$(c failed_watermark)" -ge 2 ] || fail "$(c failed_watermark) pages refused for the watermark: fewer than the workload's 2"
expect_eq "$(c tried)" "$failed" "pages tried = failed by reason"
expect_eq "$(kv after0 "$out") $(kv after1 "$out")" "$NODE $NODE" "the hot pages still on the CXL node"

# The watermarks back: promoted
hmu_cfg enable=1
echo 1 >$P/enable
chmu-workload touch --node "$NODE" --movable --no-thp --size 1M --units 11,13 --count 50 \
	--hold >/tmp/wm.out &
wl=$!
wait_for "the workload did not reach --hold" grep -q '^held=' /tmp/wm.out
wait_for "2 pages not promoted" attr_cmp $P/promoted -ge 2
expect_eq "$(c failed_watermark)" 0 "pages refused for the watermark with room"
kill -USR1 $wl
wait $wl || fail "workload failed"
wl=
echo ok
