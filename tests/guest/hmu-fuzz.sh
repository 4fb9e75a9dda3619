# A bounded fuzz of perf attributes: 3 x 1500 variations of a valid event
# (random config words, flipped bits, random flags, sampling settings,
# CPUs and task-bound opens; fixed seeds, so a failure repeats) get only
# the errors a PMU may give, leave no kernel warning and no owner, and
# the instance still reports a known workload exactly afterwards.
. tests/lib.sh
hmu_setup
chmu_setup
ok=epoch_type=0,access_type=6,hotness_threshold=5,epoch_scale=4,epoch_multiplier=5,hotness_granual=12
for seed in 1 2 3; do
	out=$(chmu-perf --fuzz 1500 --seed $seed "$PMU/$ok/") || { echo "$out"; fail "fuzz seed $seed"; }
	echo "$out"
	grep -q ' unexpected=0$' <<<"$out" || fail "unexpected errno, seed $seed"
	# the mix reaches both sides of event_init
	[ "$(sed -n 's/.* opened=\([0-9]*\).*/\1/p' <<<"$out")" -gt 0 ] || fail "nothing opened, seed $seed"
	[ "$(sed -n 's/.* EINVAL=\([0-9]*\).*/\1/p' <<<"$out")" -gt 0 ] || fail "nothing refused, seed $seed"
	grep -q ' EOPNOTSUPP=[1-9]' <<<"$out" || fail "no EOPNOTSUPP (task-bound opens), seed $seed"
done
expect_eq "$(cat $HMU/owner)" none "owner after the fuzz"
expect_eq "$(cat $HMU/enable)" 0 "disabled after the fuzz"

# Still exact: units 3 and 7, 100 and 300 reads, through perf and sysfs.
out=$(chmu-perf "$PMU/$ok/" -- sh -c "chmu-workload touch --dax $DEV --size 2M --units 3 --count 100 >/dev/null && chmu-workload touch --dax $DEV --size 2M --units 7 --count 300 >/dev/null && sleep 1.2")
# (sorted: on a slow kernel the two workloads may fall in two epochs)
expect_eq "$(aux_entries <<<"$out" | tr ' ' '\n' | sort | paste -sd' ')" "3:100 7:300" "AUX entries after the fuzz"
hmu_cfg threshold=5 epoch_us=500000 fill_threshold=0 unit_shift=12 enable=1
touch_units 9 40
hmu_drained 1
hmu_cfg enable=0
expect_eq "$(trace_entries | tr ' ' '\n' | grep '^9:')" "9:40" "tracepoint entry after the fuzz"
kernel_quiet
echo ok
