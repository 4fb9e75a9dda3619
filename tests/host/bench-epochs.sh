# bench/accuracy-rows.sh on a made-up moved-hot-set boot whose answers
# are known: chmutop's frames out of phase with the device's epochs (a
# frame's end comes before the epoch that holds the shift is drained), one
# frame holding two batches and the next none; DAMON snapshots placed by
# their aggregation window; a steady share at noise level (n/a); the
# accuracy rows on the same data; the goals table (bench/goals.sh).
. tests/lib.sh
command -v jq >/dev/null || fail "jq missing (lab/deps.sh installs it)"
export PATH=$PWD/build/bin:$PATH
command -v chmu-score >/dev/null || fail "build/bin/chmu-score missing (make tools)"
R=$(mktemp -d)
trap 'rm -rf "$R"' EXIT

T0=1796400000000000000
at() { echo $((T0 + $1 * 1000000)); }	# at MS: ns since 1970
base=$((0x100000000))
unit() { printf '%#x' $((base + $1 * 4096)); }
# 1000 units; the old hot set is units 0..63 (1000 - i accesses before the
# shift), the new one 100..163 (2000 - i after it), every unit 1 more in
# each half.
for i in $(seq 0 999); do
	b=1 a=1
	[ "$i" -ge 64 ] || b=$((1000 - i))
	[ "$i" -lt 100 ] || [ "$i" -ge 164 ] || a=$((2000 - i))
	echo "$(unit "$i") $((a + b)) $a"
done >"$R/both"
{ echo "# truth"; cut -d' ' -f1,2 "$R/both"; } >"$R/truth"
{ echo "# after"; cut -d' ' -f1,3 "$R/both"; } >"$R/truth.after"
cat >"$R/workload.txt" <<EOF
accesses=1000000
units=1000
ns=10200000000
shift_ns=5300000000
start_time_ns=$(at -590)
end_time_ns=$(at 10200)
shift_time_ns=$(at 5300)
EOF
echo "drain_ns=1000000 bpf_ns=2000000 chmutop_ns=3000000 damon0_ns=4000000 damon1_ns=5000000" >"$R/cpu.txt"

# Epochs end at N.4 s, each drained twice (1 and 5 ms later: the list
# filled); frames end at N.35 s, so frame N holds the drains of the epoch
# that ended at N-1.4, except: frame 3 ends at 3.403, between the two
# drains of epoch 3 (it holds epoch 2 and half of 3, frame 4 the rest),
# frame 9 ends at 9.45 (epochs 8 and 9) and frame 10 holds none; frame 7
# lost its first_batch_ns (a drain as chmutop's interval flipped). The
# shift (5.3 s) is in the epoch drained at 5.401, in frame 6; the frame
# whose window holds the shift (frame 5) holds only old accesses. The
# workload runs from -0.59 s to 10.2 s: the epoch drained at 0.401 and
# 0.430 began 10 ms before it (not full, though its last drain less one
# epoch is after the start).
inst() { # inst N END_MS BATCHES FIRST_MS LAST_MS
	printf '{"version":1,"type":"instance","interval":%s,"time_ns":%s,"first_batch_ns":%s,"last_batch_ns":%s,"instance":"mem0.0.0","mode":"epoch","threshold":1,"unit":4096,"epoch_us":1000000,"ds_shift":0,"batches":%s,"entries":64}\n' \
		"$1" "$(at "$2")" "$([ "$4" = 0 ] && echo 0 || at "$4")" "$([ "$5" = 0 ] && echo 0 || at "$5")" "$3"
}
units() { # units N FROM TO [FROM TO...]: unit rows of frame N
	local n=$1 r=0 i
	shift
	while [ $# -gt 0 ]; do
		for i in $(seq "$1" "$2"); do
			r=$((r + 1))
			printf '{"version":1,"type":"unit","interval":%s,"rank":%s,"instance":"mem0.0.0","dpa":%s,"hpa":%s,"interval_sum":%s,"sum":%s}\n' \
				"$n" "$r" $((i * 4096)) $((base + i * 4096)) $((5000 - i)) $((5000 - i))
		done
		shift 2
	done
}
{
	inst 0 350 0 0 0
	inst 1 1350 2 401 430
	inst 2 2350 2 1401 1405
	inst 3 3403 3 2401 3401
	inst 4 4350 1 3405 3405
	inst 5 5350 2 4401 4405
	for n in 1 2 3 4 5; do units "$n" 0 63; done
	inst 6 6350 2 5401 5405
	units 6 0 31 100 131
	inst 7 7350 2 0 6405
	units 7 100 159 500 503	# 60 of the new 64
	inst 8 8350 2 7401 7405
	units 8 100 163
	inst 9 9450 4 8401 9405
	units 9 100 163
	inst 10 10350 0 0 9405
	inst 11 11350 2 10401 10405
	units 11 100 163
	inst 12 12350 0 0 10405
} >"$R/chmutop.json"

# DAMON: kdamond 0 (100 ms aggregation) sees one region over everything
# (noise); kdamond 1 (20 ms) sees the hot set of the moment.
mkdir "$R/damon"
printf '0 100000\n1 20000\n' >"$R/damon/attrs"
snap() { # snap N ASKED_MS RETURNED_MS FROM TO
	echo "$(unit 0) $(unit 1000) 5" >"$R/damon/0.$1"
	local i
	for i in $(seq "$4" "$5"); do
		echo "$(unit "$i") $(unit $((i + 1))) $((50 - i % 10))"
	done >"$R/damon/1.$1"
	echo "0 $1 $(at "$2") $(at "$3")" >>"$R/damon/times"
	echo "1 $1 $(at "$2") $(at "$3")" >>"$R/damon/times"
}
snap 0 -50 30 0 63	# its window [-0.15, 0.03] is inside the run
snap 1 2200 2250 0 63	# -1 - floor((5.3 - 2.25) / 1) = -4
snap 2 4200 4250 0 63	# -2
snap 3 4800 4850 0 63	# -1
snap 4 5250 5320 0 63	# the window [5.15, 5.32] holds the shift: 0
snap 5 6100 6150 100 163	# 1 + floor((6.08 - 5.3) / 1) = 1
snap 6 7200 7250 100 163	# 2
# after the run: neither an epoch nor part of the run's report
snap 7 10300 10350 200 263
sed -i 's/ [0-9]*$/ 1000/' "$R/damon/1.7"
tar czf "$R/damon.tgz" -C "$R" damon
rm -r "$R/damon"

bench/accuracy-rows.sh shift "exact" "$R" || fail "accuracy-rows.sh shift failed"
expect_eq "$(awk '{ print $1 ":" $2 ":" $3 }' "$R/epochs-chmu.txt" | paste -sd' ')" \
	"-5:0:64 -4:1:64 -2:0:64 -2:0:64 -1:1:64 0:1:64 1:0:64 2:1:64 4:0:64 5:0:64" \
	"CHMU epochs: offset, full, K (placed by their drains)"
expect_eq "$(awk '$1 == 0 { print $4, $7 } $1 == 1 { print $7 }' "$R/epochs-chmu.txt" | paste -sd' ')" \
	"0.500 0.500 0.938" "shares of the old and new sets at the shift, of the new one after"
expect_eq "$(awk '{ print $1 ":" $2 }' "$R/epochs-damon1.txt" | paste -sd' ')" \
	"-6:1 -4:1 -2:1 -1:1 0:1 1:1 2:1" "DAMON snapshots placed by their windows"
row() { jq -r --arg m "$1" "select(.monitor == \$m) | $2" "$R/rows.json"; }
expect_eq "$(row "CHMU, exact (chmutop)" '"\(.share_before) \(.epochs_to_90) \(.epochs_to_90_abs) \(.share_first_epoch) \(.share_best) \(.ratio_epoch_before) \(.shift_frame) \(.shift_s) \(.shift_epoch_rest_s) \(.noise_floor)"')" \
	"1 2 2 null 1 1 6 5.89 0.101 0.32" "CHMU shift row (frame 7, epoch 1, is not full: back in epoch 2)"
# after the shift, the one full epoch (2) has all 64 new units; epoch 1
# (60 of 64 plus 4 cold ones: 0.939) is not full
expect_eq "$(row "CHMU, exact (chmutop)" .ratio_epoch_after)" 1 "CHMU ratio after"
expect_eq "$(row "DAMON paddr, default attributes" '"\(.epochs_to_90) \(.epochs_to_90_abs) \(.share_before)"')" \
	"null -1 0.062" "a steady share at noise level: epochs back n/a"
expect_eq "$(row "DAMON paddr, tuned finer" '"\(.epochs_to_90) \(.share_first_epoch) \(.cpu_ns)"')" \
	"1 1 5000000" "DAMON tuned: back in the first epoch after"
expect_eq "$(row "CHMU, exact (chmutop)" .cpu_ns)" 6000000 "CHMU CPU: drain + BPF + chmutop"
# over the run, DAMON tuned names the old hot set (5 snapshots) over the
# new one (2): 0 of the 64 hottest, 62048 of their 119584 accesses
expect_eq "$(row "DAMON paddr, tuned finer" '"\(.recall64) \(.ratio64)"')" "0 0.519" "DAMON's run report, its snapshots in the run only"
grep -q '| DAMON paddr, default attributes | 0.062 | n/a (noise) | not within the run |' "$R/rows.md" ||
	fail "the noise-level row in rows.md: $(cat "$R/rows.md")"
jq -e . "$R/rows.json" >/dev/null || fail "rows.json: not JSON"
# keys ARRAY: the keys docs/bench.md lists for an array of results.json
keys() {
	grep "^| \`$1\` |" docs/bench.md | grep -o '`[a-z0-9_]*`' | tr -d '`' | grep -vx "$1" | sort -u | paste -sd' '
}
expect_eq "$(jq -r 'keys[]' "$R/rows.json" | sort -u | paste -sd' ')" "$(keys shift)" "shift keys as documented"

# The same boot as an accuracy run, against the whole run's truth.
bench/accuracy-rows.sh accuracy "exact" "$R" || fail "accuracy-rows.sh accuracy failed"
expect_eq "$(wc -l <"$R/rows.json")" 3 "three accuracy rows"
expect_eq "$(jq -r 'keys[]' "$R/rows.json" | sort -u | paste -sd' ')" "$(keys accuracy)" "accuracy keys as documented"
expect_eq "$(row "CHMU, exact (chmutop)" '"\(.epochs) \(.precision16) \(.recall16)"')" \
	"4 1 1" "four full epochs and precision@16 over the run"
# K units at random: K x 183440 / 1000 accesses against the K hottest's
# (47225 for 25, 119648 for 64)
expect_eq "$(row "CHMU, exact (chmutop)" '"\(.random25) \(.random64)"')" "0.097 0.098" "a random pick's ratio at 25 and 64"

# The goals: against a DAMON below twice a random pick, not assessable.
goals() { # goals DAMON_RATIO25
	local m
	for m in "CHMU, exact (chmutop)|1" "DAMON paddr, default attributes|$1" \
		"CHMU, Count-Min 4 x 32768 x 14 bit, top-25 (M5) (chmutop)|0.96"; do
		printf '{"monitor":"%s","ratio25_epoch_mean":%s,"random25":0.014}\n' "${m%|*}" "${m#*|}"
	done >"$R/goals.json"
	bench/goals.sh "$R/goals.json" | awk -F' [|] ' '{ print $NF }' | tr -d ' |' | paste -sd,
}
expect_eq "$(goals 0.3)" "yes,yes,yes" "goals met against a DAMON above noise"
expect_eq "$(goals 0.8)" "yes,no,no" "goals not met (1.25x and 1.2x)"
expect_eq "$(goals 0.02)" "yes,notassessable,notassessable" "goals against a DAMON below twice a random pick"
rm "$R/chmutop.json"
rc=0
out=$(bench/accuracy-rows.sh shift exact "$R" 2>&1) || rc=$?
expect_eq "$rc:$out" "1:accuracy-rows: $R: no chmutop.json" "a missing piece"
echo ok
