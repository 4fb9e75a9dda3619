# chmu-workload move, as make bench's tiering section places a server's
# shared memory: another process's pages in a range go to the node asked,
# shared ones too, without a memory policy, and it says where they are.
# A process holds 259 private pages on node 0 (touch --hold): move takes
# all 259 to the CXL node, then the first 16 back (the holder's own
# move_pages agrees). A shared anonymous mapping of 32 pages, the first 16
# written by its parent, 8 more by a child only: through the parent's
# page tables move finds 16 pages and 16 absent, through the child's the
# 8 it touched (how the bench needs the server's backend beside its
# postmaster). A process that is gone: one line of error, non-zero exit.
# chmu-workload pin: a file of 10 pages and a byte, and an empty one, are
# locked (VmLck 44 kB, the file's pages unevictable) until SIGUSR1.
# chmu-workload balloon: 96 MiB of node 0 in pipe buffers (12 of 8 MiB):
# node 0's free memory drops by that much, its LRU lists do not grow by
# it (nothing can reclaim, demote or migrate those pages), and SIGUSR1
# gives it back.
# chmu-workload --cgroup: a holder started in one memory cgroup with its
# area of 1024 pages charged to another: the second's anonymous memory is
# exactly the area's 4 MiB, the holder is back in the first, whose
# anonymous memory holds its own pages (stack, heap). A missing DIR: one
# line of error, non-zero exit.
# chmu-workload zipf: its run's own arrays are resident before ready=.
. tests/lib.sh
wl=
trap '[ -z "$wl" ] || kill $wl 2>/dev/null; wait; chmu-region destroy all' EXIT
eval "$(chmu-region create -m mem0 --ram)"
# addr_of PID BYTES: the start of PID's mapping of exactly BYTES bytes
addr_of() {
	python3 -c "
for l in open('/proc/$1/maps'):
    a, e = (int(x, 16) for x in l.split()[0].split('-'))
    if e - a == $2:
        print('%x' % a)
        break"
}

pages=259
chmu-workload touch --node 0 --movable --no-thp --size $((pages * 4))K --units 0,16,258 \
	--count 1 --hold >/tmp/move.out &
wl=$!
wait_for "the holder did not start" grep -q '^held=' /tmp/move.out
expect_eq "$(kv node0 "$(cat /tmp/move.out)") $(kv node2 "$(cat /tmp/move.out)")" "0 0" \
	"the holder's pages on node 0 first"
addr=$(addr_of $wl $((pages * 4096)))
[ -n "$addr" ] || fail "no mapping of $pages pages in the holder"
out=$(chmu-workload move --pid $wl --addr "$addr" --size $((pages * 4))K --node "$NODE") ||
	fail "move to node $NODE failed: $out"
echo "$out"
expect_eq "$(kv pages_node$NODE "$out") $(kv absent "$out") $(kv failed "$out")" "$pages 0 0" \
	"pages on node $NODE, absent, failed"
expect_eq "$(grep -c '^pages_node' <<<"$out")" 1 "nodes holding the range"
out=$(chmu-workload move --pid $wl --addr "$addr" --size 64K --node 0) || fail "move back failed: $out"
expect_eq "$(kv pages_node0 "$out") $(kv failed "$out")" "16 0" "the first 16 pages back on node 0"
kill -USR1 $wl
wait $wl || fail "the holder failed"
wl=
out=$(cat /tmp/move.out)
expect_eq "$(kv after0 "$out") $(kv after1 "$out") $(kv after2 "$out")" "0 $NODE $NODE" \
	"where the holder finds units 0, 16 and 258"

# shared anonymous memory, pages in different processes' page tables
python3 -c "
import mmap, os, signal, sys
m = mmap.mmap(-1, 32 * 4096, flags=mmap.MAP_SHARED | mmap.MAP_ANONYMOUS)
for i in range(16):
    m[i * 4096] = 1
pid = os.fork()
if pid == 0:
    for i in range(16, 24):
        m[i * 4096] = 2
    signal.pause()
print('child=%d' % pid, flush=True)
signal.signal(signal.SIGTERM, lambda *a: (os.kill(pid, signal.SIGKILL), sys.exit(0)))
signal.pause()
" >/tmp/move3.out &
wl=$!
wait_for "the shared holder did not start" grep -q '^child=' /tmp/move3.out
child=$(kv child "$(cat /tmp/move3.out)")
addr=$(addr_of $wl $((32 * 4096)))
[ -n "$addr" ] || fail "no shared mapping of 32 pages"
wait_for "the child did not write its pages" \
	sh -c "grep -A4 '^$(addr_of $child $((32 * 4096)))-' /proc/$child/smaps | grep -q '^Rss: *32 kB'"
out=$(chmu-workload move --pid $wl --addr "$addr" --size 128K --node "$NODE") || fail "parent's view: $out"
expect_eq "$(kv pages_node$NODE "$out") $(kv absent "$out") $(kv failed "$out")" "16 16 0" \
	"the parent's view: its 16 pages moved, 16 absent"
out=$(chmu-workload move --pid $child --addr "$addr" --size 128K --node "$NODE") || fail "child's view: $out"
expect_eq "$(kv pages_node$NODE "$out") $(kv absent "$out") $(kv failed "$out")" "8 24 0" \
	"the child's view: its 8 pages moved"
kill $wl
wait $wl || true
wl=

# pin
head -c $((10 * 4096 + 1)) /dev/urandom >/tmp/pin.a
: >/tmp/pin.b
# mlocked pages reach the unevictable list through the CPUs' mlock
# batches: drain them, fold the count, then read
unev() { lru_drain; stat_fold; awk '/^Unevictable:/ { print $2 }' /proc/meminfo; }
unev0=$(unev)
chmu-workload pin /tmp/pin.a /tmp/pin.b >/tmp/pin.out &
wl=$!
wait_for "pin did not hold" grep -q '^held=' /tmp/pin.out
expect_eq "$(kv pinned_kb "$(cat /tmp/pin.out)") $(awk '/^VmLck:/ { print $2 }' /proc/$wl/status)" "41 44" \
	"pinned_kb and the pages locked"
unev=$(unev)
[ $((unev - unev0)) -ge 44 ] || fail "the pinned pages are not unevictable ($unev0 -> $unev kB)"
kill -USR1 $wl
wait $wl || fail "pin did not exit cleanly"
wl=
out=$(chmu-workload pin /tmp/pin.missing 2>&1) && fail "a missing file pinned"
expect_eq "$out" "chmu-workload: /tmp/pin.missing: No such file or directory" "pin: a missing file"

# balloon
n0() { awk -v k="$1:" '$3 == k { print $4 }' /sys/devices/system/node/node0/meminfo; }
lru0() { echo $(( $(n0 'Active') + $(n0 'Inactive') + $(n0 'Unevictable') )); }
# free pages wait on the per-CPU lists too (up to tens of MiB here),
# which MemFree leaves out and an allocation takes first: node 0's free
# memory is both
pcp0() { awk '/^Node/ { on = ($2 == "0,") } on && /^ +count:/ { c += $2 } END { print c * 4 }' /proc/zoneinfo; }
free_pcp0() { echo $(( $(n0 MemFree) + $(pcp0) )); }
sync
echo 3 >/proc/sys/vm/drop_caches
free0=$(free_pcp0) lru_0=$(lru0)
chmu-workload balloon --node 0 --size 96M >/tmp/balloon.out &
wl=$!
wait_for "the balloon did not fill" grep -q '^held=' /tmp/balloon.out
expect_eq "$(kv balloon_kb "$(cat /tmp/balloon.out)") $(kv pipes "$(cat /tmp/balloon.out)")" "98304 12" \
	"balloon_kb and pipes"
free1=$(free_pcp0) lru_1=$(lru0)
echo "node 0: free and on per-CPU lists $free0 -> $free1 kB, LRU $lru_0 -> $lru_1 kB"
[ $((free0 - free1)) -ge 98304 ] || fail "node 0's free memory fell by $((free0 - free1)) kB, not 96 MiB"
[ $((lru_1 - lru_0)) -lt 16384 ] || fail "the balloon's pages are on the LRU lists (+$((lru_1 - lru_0)) kB)"
kill -USR1 $wl
wait $wl || fail "the balloon did not exit cleanly"
wl=
free2=$(free_pcp0)
echo "node 0: free and on per-CPU lists $free2 kB after the balloon went"
[ $((free2 - free1)) -ge 90000 ] || fail "the balloon's memory did not come back ($free1 -> $free2 kB)"
out=$(chmu-workload balloon --size 4K 2>&1) && fail "balloon without --node accepted"

# --cgroup
CG=/sys/fs/cgroup
echo +memory >$CG/cgroup.subtree_control
mkdir -p $CG/chmu-wl-area $CG/chmu-wl-home
(echo $BASHPID >$CG/chmu-wl-home/cgroup.procs &&
	exec chmu-workload touch --node 0 --no-thp --size 4M --units 0 --count 1 --hold \
		--cgroup $CG/chmu-wl-area) >/tmp/cg.out &
wl=$!
wait_for "the holder did not start" grep -q '^held=' /tmp/cg.out
anon() { awk '$1 == "anon" { print $2 }' $CG/$1/memory.stat; }
# memory.stat sums the per-CPU counters only once enough changed since the
# last flush, or at the kernel's periodic flush (every 2 s): the holder's
# few own pages can stay unsummed until then. Wait for both (100 tries 0.1 s
# apart: past several periodic flushes).
charged() { [ "$(anon chmu-wl-area)" = 4194304 ] && [ "$(anon chmu-wl-home)" -gt 0 ]; }
for _ in $(seq 100); do charged && break; sleep 0.1; done
expect_eq "$(anon chmu-wl-area) $(cat /proc/$wl/cgroup)" "4194304 0::/chmu-wl-home" \
	"the area's bytes charged to chmu-wl-area, the holder's cgroup"
[ "$(anon chmu-wl-home)" -gt 0 ] || fail "nothing of the holder's own is charged to chmu-wl-home"
kill -USR1 $wl
wait $wl || fail "the holder did not exit cleanly"
wl=
rmdir $CG/chmu-wl-area $CG/chmu-wl-home
out=$(chmu-workload touch --node 0 --size 4K --units 0 --cgroup /sys/fs/cgroup/chmu-missing 2>&1) &&
	fail "a missing cgroup accepted"
expect_eq "$out" "chmu-workload: cgroup /sys/fs/cgroup/chmu-missing: No such file or directory" \
	"--cgroup: a missing directory"

# zipf: the run's own arrays (a count per unit, this interval's counts,
# the pages and their nodes for --progress: 84 heap pages for the bench's
# 12288 units) are in memory before ready=, not faulted in by the run's
# first writes (in the bench node 0 is full by then: they landed on the
# CXL node). calloc() clears, and so faults in, what it takes from the
# heap's slack, not what it takes from a fresh extension: at this size
# some of the arrays are fresh. The heap's resident pages at ready= and
# once the first progress line is out (every count page written by then:
# ~10,000 accesses per page) are equal.
rm -f /tmp/zipf.out
chmu-workload zipf --node "$NODE" --movable --no-thp --size 48M --duration 600 \
	--progress 100 --wait >/tmp/zipf.out &
wl=$!
wait_for "zipf did not get ready" grep -q '^ready=' /tmp/zipf.out
heap() { sed -n 's/.* heap anon=\([0-9]*\) .*/\1/p' /proc/$wl/numa_maps; }
h0=$(heap)
kill -USR1 $wl
wait_for "zipf printed no progress" grep -q '^progress ' /tmp/zipf.out
h1=$(heap)
kill $wl
wait $wl 2>/dev/null || true
wl=
echo "zipf heap: $h0 pages at ready, $h1 after the first progress line"
[ "${h0:-0}" -ge 84 ] || fail "the heap holds $h0 pages at ready, not the run's 84 at least"
expect_eq "$h1" "$h0" "the heap's pages after the run started"

out=$(chmu-workload move --pid 999999 --addr 1000 --size 4K --node 0 2>&1) && fail "a missing PID accepted"
expect_eq "$(wc -l <<<"$out")" 1 "one line of error"
grep -q 'move_pages of PID 999999' <<<"$out" || fail "error names the PID: $out"
echo ok
