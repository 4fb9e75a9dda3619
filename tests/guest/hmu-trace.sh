# The driver drains the hotlist into the chmu tracepoints: a workload that
# touches known units a known number of times yields exactly those entries
# with unit, DPA, HPA, node and count, for a device-DAX and for a
# system-RAM region, by polling and by interrupt.
. tests/lib.sh
hmu_setup

# Device DAX, epoch mode, polled (fill threshold 0).
eval "$(chmu-region create -m mem0 --devdax)"
hmu_cfg threshold=5 epoch_us=2000000 fill_threshold=0 unit_shift=12 access=6 mode=epoch
expect_eq "$(cat $HMU/irq | grep -c '^[0-9]')" 1 "instance has an interrupt"
hmu_cfg enable=1
touch_units 3,7,7,7 100	# 100 and 300 by one process: one epoch, one batch
touch_units 9 4
hmu_drained 2
hmu_cfg enable=0
hpa=$((HPA))
expect_eq "$(trace_events chmu_hotlist_entry unit dpa hpa nid count | tr '\n' ';')" \
	"unit=7 dpa=0x7000 hpa=$(printf '%#x' $((hpa + 0x7000))) nid=-1 count=300;unit=3 dpa=0x3000 hpa=$(printf '%#x' $((hpa + 0x3000))) nid=-1 count=100;" \
	"device-DAX entries"
expect_eq "$(trace_events chmu_hotlist_batch seq nr size cw unit_shift mode reason overflow | head -n 1)" \
	"seq=1 nr=2 size=1024 cw=32 unit_shift=12 mode=0 reason=2 overflow=0" "first batch (polled)"
expect_eq "$(trace_events chmu_config enabled mode threshold unit_shift epoch_us access | tr '\n' ';')" \
	"enabled=1 mode=0 threshold=5 unit_shift=12 epoch_us=2000000 access=6;enabled=0 mode=0 threshold=5 unit_shift=12 epoch_us=2000000 access=6;" \
	"config events"
expect_eq "$(cat $HMU/entries)" 2 "entries counter"

# Always-on, drained by the fill-threshold interrupt.
echo >$TRACE/trace
irqs() { awk -v n="hmu_mem0.0.0" '$NF == n { s = 0; for (i = 2; i < NF - 2; i++) s += $i; print s }' /proc/interrupts; }
before=$(irqs)
hmu_cfg mode=always-on threshold=50 fill_threshold=1 enable=1
touch_units 5 100
hmu_drained 2
expect_eq "$(trace_events chmu_hotlist_entry unit count | tr '\n' ';')" "unit=5 count=50;unit=5 count=50;" "always-on entries"
expect_eq "$(trace_events chmu_hotlist_batch reason | sort -u | head -n 1)" "reason=0" "drained by the fill interrupt"
[ "$(irqs)" -gt "${before:-0}" ] || fail "no interrupt counted in /proc/interrupts"
hmu_cfg enable=0

# With an interrupt but below the fill threshold, the timer drains.
echo >$TRACE/trace
hmu_cfg mode=epoch threshold=1 epoch_us=1000000 fill_threshold=512 poll_ms=100 enable=1
touch_units 11 3
hmu_drained 1
expect_eq "$(trace_events chmu_hotlist_entry unit count)" "unit=11 count=3" "entry below the fill threshold"
expect_eq "$(trace_events chmu_hotlist_batch nr reason | grep -v '^nr=0 ' | head -n 1)" "nr=1 reason=2" "drained by the timer"
hmu_cfg enable=0
chmu-region destroy "$REGION"

# System RAM on its own node: reads only, so the kernel's page zeroing
# (stores) is not counted; each unit is where pagemap says it is.
echo >$TRACE/trace
eval "$(chmu-region create -m mem0 --ram)"
hmu_cfg mode=epoch threshold=1 epoch_us=2000000 fill_threshold=0 access=1 enable=1
out=$(numactl --membind="$NODE" chmu-workload touch --anon --size 1M --units 10,20 --count 40)
echo "$out"
sleep 2.5
hmu_cfg enable=0
for i in 0 1; do
	pa=$(kv phys$i "$out")
	dpa=$(printf '%#x' $(((pa - HPA) & ~0xfff)))
	line=$(trace_events chmu_hotlist_entry dpa hpa nid count | grep "^dpa=$dpa ")
	expect_eq "$line" "dpa=$dpa hpa=$(printf '%#x' $((pa & ~0xfff))) nid=$NODE count=40" "system-RAM unit $i"
done
chmu-region destroy "$REGION"
