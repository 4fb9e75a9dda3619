# The memdev's endpoint goes and comes back under a draining instance:
# cxl_mem unbound and bound again 20 times while the instance (which
# follows cxl_pci, not cxl_mem) drains and translates 4 entries each 1 ms
# epoch, polled every ms, with the entry tracepoint on. The translation
# looked the endpoint up under cxl_region_rwsem while delete_endpoint()
# cleared and put it with no lock: a use-after-free of the port (KASAN on
# the debug kernel). Kprobes busy-wait 1 to 8 ms between the look-up and the
# port's use, so that the free lands in that window.
. tests/lib.sh
chmu_fault x-chmu-overflow-burst=4
hmu_setup
M=/sys/bus/cxl/drivers/cxl_mem
[ -e $M/mem0 ] || fail "mem0 is not bound to cxl_mem"
# (5000 rounds of the loop at most: what the verifier takes; four probes)
p='kprobe:cxl_num_decoders_committed { $t = nsecs + 2000000; $i = 0; while ($i < 5000 && nsecs < $t) { $i++; } }'
bpftrace -e "$p $p $p $p" >/tmp/endpoint-bt.out 2>&1 &
bt=$!
trap 'kill $bt 2>/dev/null; echo 0 >$HMU/enable' EXIT
kprobes() { [ "$(bpftool perf show | grep -cE "^pid $bt  fd [0-9]+: prog_id [0-9]+  kprobe " || true)" -ge 4 ]; }
bt_up() { kill -0 $bt || fail "bpftrace: $(cat /tmp/endpoint-bt.out)"; kprobes; }
wait_for "bpftrace did not attach" bt_up
rebind() { { echo mem0 >$M/bind; } 2>/dev/null; [ -e $M/mem0 ]; }
hmu_cfg mode=epoch epoch_us=1000 threshold=1 fill_threshold=0 poll_ms=1 enable=1
for round in $(seq 20); do
	n=$(cat $HMU/entries)
	wait_for "round $round: nothing drained" attr_cmp $HMU/entries -gt "$n"
	echo mem0 >$M/unbind
	# EBUSY while the memdev's detach work is pending: again
	wait_for "round $round: mem0 did not bind again" rebind
done
echo "ok: 20 rounds of cxl_mem unbind and bind under the drain"
stop_bpftrace $bt >/dev/null
n=$(cat $HMU/entries)
wait_for "nothing drained after the rounds" attr_cmp $HMU/entries -gt "$n"
hmu_cfg enable=0
trap - EXIT
kernel_quiet
echo ok
