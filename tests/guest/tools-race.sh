# Drains race the tools' interval changes: 50 ms epochs of a Zipf workload
# over 1024 units for 8 s (drains of up to 1024 entries, 20 a second)
# while chmutop and chmuheat close an interval every second. Every count
# lands in exactly one interval, whole: chmutop's interval sums of each
# unit add up to its sum, chmuheat's intervals' entries add up to the
# entries it saw, and both tools saw every entry the driver drained.
# (Whether a drain straddles an interval's end is up to timing; what is
# checked holds however they fall.)
. tests/lib.sh
hmu_setup
eval "$(chmu-region create -m mem0 --devdax)"
trap 'kill $top $heat 2>/dev/null || true; hmu_cfg enable=0 2>/dev/null || true; chmu-region destroy all >/dev/null 2>&1 || true' EXIT
top= heat=
hmu_cfg mode=epoch threshold=1 epoch_us=50000 fill_threshold=0 unit_shift=12 enable=1
start_tool top /tmp/race.top chmutop -j -s addr -r 10000 1
start_tool heat /tmp/race.heat chmuheat -j --no-heatmap 1
e0=$(cat $HMU/entries)	# nothing touched yet: no entry drained after this is missed
chmu-workload zipf --dax "$DEV" --size 4M --duration 8 >/dev/null
hmu_cfg enable=0	# its last epoch flushed, drained before this returns
e=$(($(cat $HMU/entries) - e0))
[ "$e" -gt 1000 ] || fail "only $e entries drained"
kill -INT $top $heat
wait $top || fail "chmutop failed: $(cat /tmp/race.top.err)"
wait $heat || fail "chmuheat failed: $(cat /tmp/race.heat.err)"
top= heat=
expect_eq "$(jq -s '[.[] | select(.type == "instance") | .entries] | add' /tmp/race.top)" "$e" "chmutop: entries over its intervals"
expect_eq "$(jq -s '[.[] | select(.type == "hist") | .entries] | add' /tmp/race.heat)" "$e" "chmuheat: entries over its intervals"
expect_eq "$(jq -s '[.[] | select(.type == "summary")][0].entries' /tmp/race.heat)" "$e" "chmuheat: entries seen"
# per unit: the interval sums of all frames, and its sum in the last
expect_eq "$(jq -s -r '[.[] | select(.type == "unit")] | group_by(.dpa) |
	map(select((map(.interval_sum) | add) != (max_by(.interval) | .sum)) | .dpa) | length' /tmp/race.top)" 0 \
	"chmutop: units whose interval sums do not add up to their sum"
expect_eq "$(jq -s '[.[] | select(.type == "unit") | .interval_sum] | add' /tmp/race.top)" \
	"$(jq -s '[.[] | select(.type == "unit")] | group_by(.dpa) | map(max_by(.interval) | .sum) | add' /tmp/race.top)" \
	"chmutop: interval sums against the units' sums"
kernel_quiet
echo ok
