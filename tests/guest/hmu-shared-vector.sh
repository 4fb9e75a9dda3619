# The instance's interrupt message is the memdev's first event log's
# (vector 2): the driver shares the vector with the event interrupts, the
# memdev probes again with cxl_hmu loaded first (a rebind of cxl_pci: the
# old driver requested the vector exclusively, before the event logs, and
# the memdev's probe failed with EBUSY), and fill interrupts on the shared
# vector drain the instance (no poll for a minute).
. tests/lib.sh
# the boot's order first: the memdev probes (its event interrupts
# requested), then cxl_hmu is loaded
modprobe -r cxl_hmu
chmu_fault x-chmu-fault-msgnum=2
chmu_reprobe || fail "mem0 did not come back after a rebind"
modprobe cxl_hmu
pdev=$(basename "$(readlink -f /sys/bus/cxl/devices/mem0/..)")
irq_ok() { # irq_ok: the instance's IRQ is shared with the event logs'
	local irq
	irq=$(cat $HMU/irq)
	[ "$irq" -gt 0 ] || fail "instance polled (irq $irq)"
	[ -e "/proc/irq/$irq/hmu_mem0.0.0" ] && [ -e "/proc/irq/$irq/$pdev" ] ||
		fail "IRQ $irq is not shared: $(ls /proc/irq/$irq)"
}
expect_eq "$(cat $HMU/msgnum)" 2 "message number"
irq_ok
modprobe cxl_hmu
echo "$pdev" >/sys/bus/pci/drivers/cxl_pci/unbind
[ ! -e /sys/bus/cxl/devices/mem0 ] || fail "mem0 still there after unbind"
echo "$pdev" >/sys/bus/pci/drivers/cxl_pci/bind
for _ in $(seq 100); do [ -d $HMU ] && break; sleep 0.1; done
[ -d /sys/bus/cxl/devices/mem0 ] || fail "the memdev did not come back with cxl_hmu loaded"
[ -d $HMU ] || fail "no $HMU after the rebind"
irq_ok
hmu_setup
chmu_setup
irq=$(cat $HMU/irq)
irq_count() { # irq_count: interrupts on $irq, all CPUs
	awk -v i="$irq:" '$1 == i { s = 0; for (k = 2; k <= NF && $k ~ /^[0-9]+$/; k++) s += $k; print s }' /proc/interrupts
}
before=$(irq_count)
hmu_cfg mode=always-on threshold=1 fill_threshold=4 poll_ms=60000 enable=1
# four entries at a time: each time the list holds exactly the fill
# threshold, which raises the interrupt
for u in 0-3 4-7; do
	n=$(($(cat $HMU/entries) + 4))
	touch_units $u 1
	hmu_wait entries $n	# drained by the fill interrupt
done
after=$(irq_count)
[ "$after" -gt "$before" ] || fail "no interrupt on IRQ $irq ($before -> $after)"
hmu_cfg enable=0
expect_eq "$(trace_entries)" "0:1 1:1 2:1 3:1 4:1 5:1 6:1 7:1" "entries"
kernel_quiet
echo ok
