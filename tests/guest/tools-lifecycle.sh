# The BPF tools and a bpftrace one-liner stay attached while the driver is
# unbound and bound again, and report what happens on both sides of it;
# while any of them is attached the module cannot be unloaded (they hold
# its tracepoints), and once they exit it can.
. tests/lib.sh
hmu_setup
chmu_setup
epoch() { hmu_cfg threshold=5 epoch_us=500000 fill_threshold=0 unit_shift=12 enable=1; }
epoch
chmutop -b -j -s addr 1 >/tmp/lc.top 2>/tmp/lc.top.err &
pids=$!
chmuheat -j --no-heatmap 1 >/tmp/lc.heat 2>/tmp/lc.heat.err &
pids+=" $!"
chmualert -c 50 -j 1 >/tmp/lc.alert 2>/tmp/lc.alert.err &
pids+=" $!"
bpftrace -e 'tracepoint:chmu:chmu_hotlist_entry { @[args->unit] = sum(args->count); }' >/tmp/lc.bt 2>&1 &
bt=$!
# each tool holds its own links (chmutop two); bpftrace's probe is a perf
# event on the tracepoint
for p in $pids; do tool_ready "$p"; done
bt_on() { bpftool perf show | grep -cE "^pid $bt  fd [0-9]+: prog_id [0-9]+  tracepoint  chmu_hotlist_entry$" || true; }
for _ in $(seq 300); do [ "$(bt_on)" -gt 0 ] && break; sleep 0.1; done
[ "$(bt_on)" -gt 0 ] || fail "bpftrace did not attach: $(cat /tmp/lc.bt)"
touch_units 3 100
hmu_drained 1

out=$(rmmod cxl_hmu 2>&1) && fail "rmmod succeeded with tools attached"
grep -q 'in use' <<<"$out" || fail "rmmod: '$out'"
echo "ok: rmmod refused: $out"

echo hmu_mem0.0 >/sys/bus/cxl/drivers/cxl_hmu/unbind
[ ! -e $HMU ] || fail "$HMU still present after unbind"
sleep 1.5
for p in $pids $bt; do kill -0 "$p" || fail "a tool exited on unbind (pid $p)"; done
echo hmu_mem0.0 >/sys/bus/cxl/drivers/cxl_hmu/bind
epoch
touch_units 7 300
# counted after the tracepoints: every tool has seen the entry
hmu_drained 1
for p in $pids; do kill -INT "$p"; done
stop_bpftrace $bt || true
for p in $pids; do wait "$p" || fail "a tool failed (pid $p): $(cat /tmp/lc.*.err)"; done

expect_eq "$(jq -s -r '[.[] | select(.type == "unit")] | group_by(.dpa) | map(last | "\(.dpa):\(.sum)") | join(" ")' /tmp/lc.top)" \
	"12288:100 28672:300" "chmutop: both sides of the rebind"
expect_eq "$(jq -s '[.[] | select(.type == "hist") | .entries // 0] | add' /tmp/lc.heat)" 2 "chmuheat: entries"
expect_eq "$(jq -r 'select(.type == "alert") | "\(.dpa):\(.value)"' /tmp/lc.alert | tr '\n' ' ')" "12288:100 28672:300 " "chmualert: one alert each side"
expect_eq "$(grep -E '^@\[' /tmp/lc.bt | tr '\n' ' ')" "@[3]: 100 @[7]: 300 " "bpftrace: both sides"

rmmod cxl_hmu || fail "rmmod failed after the tools exited"
modprobe cxl_hmu
kernel_quiet
echo ok
