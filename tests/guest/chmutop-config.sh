# chmutop learns an instance's configuration from the chmu:chmu_config
# tracepoint, not by reading sysfs every frame (issue 35, defect 11): a
# frame opens the driver's drain counters (drain_ns, batches, entries) and
# promote/enable per instance, 4 files, and nothing else under the
# instance (a frame whose counters moved reads them again until two reads
# agree; no drain runs here); a reconfiguration while chmutop runs
# (disable, new threshold and epoch, enable) shows in its frames all the
# same, as does a disable, also with neither tracefs nor debugfs mounted.
. tests/lib.sh
hmu_setup
eval "$(chmu-region create -m mem0 --devdax)"
trap 'kill $pid 2>/dev/null || true; hmu_cfg enable=0 2>/dev/null || true; chmu-region destroy all >/dev/null 2>&1 || true' EXIT
pid=
hmu_cfg mode=epoch threshold=5 epoch_us=1000000 fill_threshold=0 unit_shift=12 enable=1

# sysfs_opens FRAMES: files under the instance chmutop opened in a run of
# FRAMES frames of 1 s
sysfs_opens() {
	strace -f -qq -e trace=openat -o /tmp/st.out chmutop -b 1 "$1" >/dev/null 2>/tmp/st.err ||
		{ cat /tmp/st.err; fail "chmutop -b 1 $1 under strace failed"; }
	grep -c '"/sys/bus/cxl/devices/hmu_mem0.0/hmu_mem0.0.0/' /tmp/st.out || true
}
one=$(sysfs_opens 1)
five=$(sysfs_opens 5)
echo "files opened: $one in 1 frame, $five in 5"
expect_eq "$(((five - one) / 4)):$(((five - one) % 4))" "4:0" "files under the instance opened per frame"
grep '"/sys/bus/cxl/devices/hmu_mem0.0/hmu_mem0.0.0/' /tmp/st.out |
	sed -n 's|.*hmu_mem0.0.0/\([^"]*\)".*|\1|p' | sort | uniq -c

# Reconfigured under a running chmutop: the next frames say so. Each step
# waits for the frame that shows it (no timing).
start_tool pid /tmp/cfg.out chmutop -j 1
inst_field() { # inst_field JQ: the last complete frame's instance record, through JQ
	last_frame /tmp/cfg.out | jq -r "select(.type == \"instance\") | $1"
}
shows() { [ "$(inst_field "$1")" = "$2" ]; }
wait_for "no frame with threshold 5" shows '"\(.threshold) \(.epoch_us) \(.mode)"' "5 1000000 epoch"
hmu_cfg enable=0 threshold=9 epoch_us=2000000 enable=1
wait_for "the new threshold and epoch not in a frame: $(inst_field '"\(.threshold) \(.epoch_us)"')" \
	shows '"\(.threshold) \(.epoch_us) \(.mode)"' "9 2000000 epoch"
hmu_cfg enable=0 mode=always-on threshold=40 enable=1
wait_for "always-on not in a frame: $(inst_field .mode)" \
	shows '"\(.threshold) \(.mode)"' "40 always-on"
kill -INT $pid
wait $pid || fail "chmutop -j ended with $?"
pid=

# The text header: a disabled instance says off, its owner none.
start_tool pid /tmp/cfg.txt chmutop -b 1
hmu_cfg enable=0
off() { grep -q '^mem0.0.0 off always-on thr 40 .* owner none$' /tmp/cfg.txt; }
wait_for "no frame says the instance is off: $(grep '^mem0.0.0 ' /tmp/cfg.txt | tail -n 1)" off
kill -INT $pid
wait $pid || fail "chmutop -b ended with $?"
pid=

# Neither tracefs nor debugfs mounted (issue 47, defect 1): the
# configuration's program attaches as tp_btf or raw_tp, as the batch's
# do, and a reconfiguration still shows.
retrace() {
	mountpoint -q /sys/kernel/debug || mount -t debugfs debugfs /sys/kernel/debug
	mountpoint -q $TRACE || mount -t tracefs tracefs $TRACE
}
trap 'kill $pid 2>/dev/null || true; retrace; hmu_cfg enable=0 2>/dev/null || true; chmu-region destroy all >/dev/null 2>&1 || true' EXIT
umount $TRACE
umount /sys/kernel/debug/tracing 2>/dev/null || true
umount /sys/kernel/debug
[ ! -e $TRACE/events ] && [ ! -e /sys/kernel/debug/tracing ] || fail "tracefs or debugfs still mounted"
hmu_cfg mode=epoch threshold=7 epoch_us=1000000 fill_threshold=0 unit_shift=12 enable=1
start_tool pid /tmp/cfg.txt chmutop -b 1
hmu_cfg enable=0
hmu_cfg threshold=9 enable=1
thr9() { grep -q '^mem0.0.0 on epoch 1s thr 9 ' /tmp/cfg.txt; }
wait_for "without tracefs, no frame shows threshold 9: $(grep '^mem0.0.0 ' /tmp/cfg.txt | tail -n 1)" thr9
kill -INT $pid
wait $pid || fail "chmutop -b without tracefs ended with $?"
pid=
retrace
echo "ok: chmutop without tracefs and debugfs"
echo ok
