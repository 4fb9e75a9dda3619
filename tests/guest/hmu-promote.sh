# The promoter (promote/ in the instance's sysfs directory) on a region
# that is system RAM on its own node. Always-on mode with threshold 50
# posts a unit exactly when it has been read 50 times, whatever the
# epochs: units read 50 times are posted, queued and migrated to node 0
# (move_pages says where they are), units read 25 times never are. Every
# page the promoter looked at is counted as promoted or under its reason,
# chmu:chmu_promote reports the batches (and each batch's latency from the
# drain), memory a policy binds to the CXL node stays there (MPOL_BIND of
# the mapping, or of the process as numactl --membind sets it; chmutop
# counts the refusals among the pages failed), and
# min_count, node and queue_size refuse what they must.
. tests/lib.sh
hmu_setup
wl=
# a workload still holding memory would keep the region from going
wl2=
trap 'for p in $wl $wl2; do kill $p 2>/dev/null; done; wait; chmu_cleanup' EXIT
eval "$(chmu-region create -m mem0 --ram)"
P=$HMU/promote

expect_eq "$(cat $P/enable) $(cat $P/node) $(cat $P/min_count) $(cat $P/rate_mbps) $(cat $P/queue_size)" \
	"0 -1 0 0 4096" "promote defaults (enable node min_count rate_mbps queue_size)"

# Reads only (access=1): the kernel zeroing the pages is not counted.
hmu_cfg mode=always-on threshold=50 unit_shift=12 access=1 fill_threshold=0 poll_ms=100 enable=1
echo 1 >$P/enable
# the chmu_promote one-liner of docs/bpftrace.md, as the page has it
prog=$(grep "^bpftrace -e '.*chmu_promote" docs/bpftrace.md | sed "s/^bpftrace -e '\\(.*\\)'$/\\1/")
[ -n "$prog" ] || fail "no chmu_promote one-liner in docs/bpftrace.md"
bpftrace -e "$prog" >/tmp/promote.bt 2>&1 &
bt=$!
bpftrace_attached $bt 1
# chmutop's header and NDJSON carry the promoter's figures
l0=$(bpf_links)
chmutop -b -j 1 >/tmp/promote.top 2>/tmp/promote.top.err &
top=$!
attached "$l0" $top
# units 3 and 7 read 50 times, 5 and 9 25 times, in base pages
# --movable: allocated on the CXL node, then free to move (no policy)
chmu-workload touch --node "$NODE" --movable --no-thp --size 1M --units 3,7,5,9,3,7 --count 25 \
	--hold >/tmp/promote.out &
wl=$!
wait_for "the workload did not reach --hold" grep -q '^held=' /tmp/promote.out
out=$(cat /tmp/promote.out)
for i in 0 1 2 3; do	# printed before the accesses: nothing can be hot yet
	expect_eq "$(kv node$i "$out")" "$NODE" "unit index $i on the CXL node before"
done
wait_for "2 pages not promoted" attr_cmp $P/promoted -ge 2
# The migration's copy reads the old pages, which the CHMU counts: drain
# what that posted, let the worker take it, then stop the promoter (which
# waits for a batch in flight), so that every counter below is final.
hmu_cfg enable=0
wait_for "queue not emptied" attr_cmp $P/pending -eq 0
echo 0 >$P/enable
stop_bpftrace $bt || true
kill -INT $top
wait $top || fail "chmutop: $(cat /tmp/promote.top.err)"
expect_eq "$(jq -s '[.[] | select(.type == "instance") | .promote_pages] | add' /tmp/promote.top)" 2 \
	"chmutop: pages promoted over its intervals"
expect_eq "$(jq -cs '[.[] | select(.type == "instance") | .promote_node] | unique' /tmp/promote.top)" \
	"[-1]" "chmutop: promote_node"
cat /tmp/promote.bt
expect_eq "$(grep '^@migrated' /tmp/promote.bt)" "@migrated[$NODE, 0]: 2" "docs/bpftrace.md chmu_promote one-liner"
kill -USR1 $wl
wait $wl || fail "workload failed"
wl=
out=$(cat /tmp/promote.out)
echo "$out"
expect_eq "$(kv after0 "$out") $(kv after1 "$out")" "0 0" "units read 50 times now on node 0"
expect_eq "$(kv after2 "$out") $(kv after3 "$out")" "$NODE $NODE" "units read 25 times still on node $NODE"

c() { cat "$P/$1"; }
reasons=$PROMOTE_REASONS
for f in queued queued_pages skipped dropped expired tried promoted $reasons batches worker_ns wait_ns \
	charged throttle_pps throttles; do
	echo "$f=$(c $f)"
done
expect_eq "$(c promoted)" 2 "pages promoted"
expect_eq "$(c skipped) $(c dropped) $(c expired)" "0 0 0" "entries skipped, records dropped, expired (no latency target)"
failed=$(promote_failed)
expect_eq "$(c tried)" $(($(c promoted) + failed)) "pages tried = promoted + failed by reason"
expect_eq "$(c tried)" "$(c queued_pages)" "every queued page tried"
# Later posts of the two units are their old pages, freed by the migration
expect_eq "$(c failed_not_lru)" "$failed" "failures are freed old pages"
expect_eq "$(c charged)" 2 "pages charged to the rate cap (the freed old pages are not)"

ev=$(trace_events chmu_promote from_nid to_nid)
[ -n "$ev" ] || fail "no chmu_promote event"
expect_eq "$(sort -u <<<"$ev")" "from_nid=$NODE to_nid=0" "chmu_promote nodes"
sum=$(trace_events chmu_promote migrated | awk -F= '{ s += $2 } END { print s + 0 }')
expect_eq "$sum" 2 "pages migrated in chmu_promote events"
expect_eq "$(grep -c ' chmu_promote: ' $TRACE/trace)" "$(c batches)" "one chmu_promote per batch"
# latency_ns: from the drain that queued the batch's oldest record to the
# batch done, so never less than the batch's own time
expect_eq "$(trace_events chmu_promote ns latency_ns | paste -d' ' - - |
	awk -F'[= ]' '$2 <= 0 || $4 < $2' | wc -l)" 0 "chmu_promote: 0 < ns <= latency_ns"
expect_eq "$(c throttle_pps) $(c throttles)" "0 0" "no ping-pong back-off (nothing demoted)"

# A policy that binds the memory to the CXL node is honoured: the
# mapping's own (chmu-workload --node without --movable: mbind), exactly
# its two pages; then the process's (numactl --membind: set_mempolicy,
# the mapping has none), whose every page (its stack and heap too) is
# bound there: nothing of it is promoted.
# chmutop counts the refusals among the failures (every reason)
echo 1 >$P/enable
hmu_cfg enable=1
l0=$(bpf_links)
chmutop -b -j 1 >/tmp/promote.top 2>/tmp/promote.top.err &
top=$!
attached "$l0" $top
chmu-workload touch --node "$NODE" --no-thp --size 1M --units 15,17 --count 50 --hold \
	>/tmp/promote.bind &
wl=$!
wait_for "the workload did not reach --hold" grep -q '^held=' /tmp/promote.bind
hmu_cfg enable=0
wait_for "queue not emptied" attr_cmp $P/pending -eq 0
echo 0 >$P/enable
kill -INT $top
wait $top || fail "chmutop: $(cat /tmp/promote.top.err)"
expect_eq "$(jq -s '[.[] | select(.type == "instance") | .promote_failed] | add' /tmp/promote.top)" \
	"$(promote_failed)" "chmutop: pages failed over its intervals (refused by policy)"
kill -USR1 $wl
wait $wl || fail "workload failed"
wl=
out=$(cat /tmp/promote.bind)
expect_eq "$(kv after0 "$out") $(kv after1 "$out")" "$NODE $NODE" "MPOL_BIND mapping: pages stay on node $NODE"
expect_eq "$(c failed_policy) $(c promoted) $(c tried)" "2 0 2" "MPOL_BIND mapping: pages refused by policy, promoted, tried"

echo 1 >$P/enable
hmu_cfg enable=1
numactl --membind="$NODE" chmu-workload touch --anon --no-thp --size 1M --units 19 --count 50 \
	--hold >/tmp/promote.membind &
wl2=$!
wait_for "the workload did not reach --hold" grep -q '^held=' /tmp/promote.membind
hmu_cfg enable=0
wait_for "queue not emptied" attr_cmp $P/pending -eq 0
echo 0 >$P/enable
kill -USR1 $wl2
wait $wl2 || fail "numactl workload failed"
wl2=
expect_eq "$(kv after0 "$(cat /tmp/promote.membind)")" "$NODE" "numactl --membind: the page stays on node $NODE"
[ "$(c failed_policy)" -ge 1 ] || fail "numactl --membind: no page refused by policy"
expect_eq "$(c promoted)" 0 "numactl --membind: pages promoted"
expect_eq "$(c tried)" "$(promote_failed)" "numactl --membind: pages tried = failed by reason"

# min_count: every posted count is 50 (always-on), so 51 queues nothing.
echo >$TRACE/trace
echo 51 >$P/min_count
echo 1 >$P/enable
hmu_cfg enable=1
chmu-workload touch --node "$NODE" --no-thp --size 1M --units 11,13 --count 50 >/dev/null
hmu_cfg enable=0
expect_eq "$(cat $HMU/entries)" 2 "entries posted"
expect_eq "$(c skipped) $(c queued)" "2 0" "entries under min_count: skipped, queued"
echo 0 >$P/enable

# Refusals
! echo 64 2>/dev/null >$P/node || fail "node 64 accepted"
! echo 5 2>/dev/null >$P/node || fail "node 5 (no memory) accepted"
! echo x 2>/dev/null >$P/min_count || fail "min_count x accepted"
! echo 0 2>/dev/null >$P/queue_size || fail "queue_size 0 accepted"
echo 1 >$P/enable
! echo 16 2>/dev/null >$P/queue_size || fail "queue_size changed while enabled"
echo 0 >$P/enable
echo 16 >$P/queue_size
expect_eq "$(cat $P/queue_size)" 16 "queue_size while disabled"
! echo 2 2>/dev/null >$P/enable || fail "enable 2 accepted"
echo 0 >$P/node
expect_eq "$(cat $P/node)" 0 "node set"
echo -1 >$P/node
echo ok
