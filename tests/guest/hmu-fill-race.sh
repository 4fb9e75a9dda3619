# Fills landing while the driver drains (issue 34, item 3): always-on
# reporting, threshold 100, fill threshold 1 and a 60 s poll; eight units
# read 2000 times each from CPU 1 (the interrupt on CPU 0) while the drain
# work drains, 160 entries a round (fewer than the hotlist holds: no overflow
# whatever the timing). Entries keep arriving while a drain reads the
# ring. Every round must be drained by fill interrupts alone, long before
# the poll: a drain that cleared the fill status after consuming cleared
# the status of a fill that landed meanwhile, and its entries waited for
# the poll (about one round in twenty did: 100 rounds).
. tests/lib.sh
hmu_setup
chmu_setup
irq=$(cat $HMU/irq)
[ "$irq" -gt 0 ] || fail "the instance has no interrupt ($irq)"
echo 0 >/proc/irq/$irq/smp_affinity_list
hmu_cfg mode=always-on threshold=100 fill_threshold=1 poll_ms=60000 enable=1
drained() { attr_cmp $HMU/entries -ge "$1"; }
for round in $(seq 100); do
	taskset -c 1 chmu-workload touch --dax "$DEV" --size 2M --units 0-7 --count 2000 >/dev/null
	want=$((round * 160))
	# 20 s: far under the 60 s poll, far over a drain under TCG
	for _ in $(seq 200); do drained $want && break; sleep 0.1; done
	drained $want || fail "round $round: $(cat $HMU/entries) of $want entries drained; the rest waits for the poll"
done
expect_eq "$(cat $HMU/entries) $(cat $HMU/overflows) $(cat $HMU/lost)" "16000 0 0" \
	"entries, no overflow, nothing lost"
expect_eq "$(grep -o ' chmu_hotlist_batch: .* reason=[0-9]' $TRACE/trace | grep -o 'reason=.*' | sort -u | tr '\n' ' ')" \
	"reason=0 " "every drain was a fill interrupt's"
hmu_cfg enable=0
kernel_quiet
