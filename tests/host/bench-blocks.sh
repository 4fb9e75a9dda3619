# bench/block-rows.sh on made-up paired blocks: two boots of three blocks,
# four arms; per run the regret and its bounds, capacity held (over the
# nominal share, by time and by accesses),
# throughput against the boot's all-DRAM runs and the modelled one; per
# contrast of the promoter the paired median, [min, max] and signs, and
# the decision rule of docs/tiering.md (the one-sided sign test: 6 of 6
# lower is better placement, 5 of 6 leaning, 3 of 3 too few to decide; a
# block's capacities more than 10% apart: not decided).
. tests/lib.sh
command -v jq >/dev/null || fail "jq missing (lab/deps.sh installs it)"
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
export CHMU_TIERSTAT=$PWD/build/bin/chmu-tierstat

# run FILE ACCESSES SECS SLOW BEST CAPACITY: a run's window lines
# (the bounds 0.001 either side, the capacity over the accesses 1% under)
run() {
	local r
	r=$(awk -v s="$4" -v b="$5" 'BEGIN { printf "%.4f", s - b }')
	printf '%s\n' "window_from=50" "window_accesses=$2" "window_secs=$3" "window_slow_share=$4" \
		"window_capacity=$6" "window_capacity_acc=$(awk -v c="$6" 'BEGIN { print c * 0.99 }')" \
		"window_best_share=$5" "window_regret=$r" \
		"window_regret_lo=$(awk -v r="$r" 'BEGIN { printf "%.4f", r - 0.001 }')" \
		"window_regret_hi=$(awk -v r="$r" 'BEGIN { printf "%.4f", r + 0.001 }')" >"$1"
}
for boot in 0 1; do
	b=$d/k$boot
	mkdir -p "$b"
	printf '%s\n' workload=zipf ratio=4 size=50331648 units=12288 design=blocks first_block=$((boot * 3)) \
		blocks=3 arms=chmu,none,numab,damon-tier >"$b/setup.txt"
	run "$b/start.dram.txt" 1000000 1 0 0 12288
	run "$b/end.dram.txt" 900000 1 0 0 12288
	for k in 0 1 2; do
		blk=$((boot * 3 + k))
		# the promoter: regret 0.01 + blk/1000, capacity 2458 (1.0002 x the share of 2457.6)
		run "$b/b$blk.chmu.txt" 500000 1 "$(awk -v k=$blk 'BEGIN { printf "%.4f", 0.21 + k / 1000 }')" 0.2 2458
		run "$b/b$blk.none.txt" 400000 1 1 1 0
		# NUMA balancing: higher regret but in block 4; capacity 2400
		run "$b/b$blk.numab.txt" 450000 1 "$([ $blk = 4 ] && echo 0.205 || echo 0.25)" 0.2 2400
		# DAMON: higher regret, at twice the capacity in block 5
		run "$b/b$blk.damon-tier.txt" 300000 1 0.3 0.2 "$([ $blk = 5 ] && echo 4916 || echo 2458)"
	done
done
bench/block-rows.sh "$d/out" "$d/k0" "$d/k1" || fail "block-rows.sh failed"
M=$d/out/blocks.md
cat "$M"
expect_eq "$(grep -c . "$d/out/blocks.txt")" $((6 * 4 * 10)) "10 keys per run, 24 runs"
expect_eq "$(awk '$1 == 4 && $2 == "chmu" { printf "%s=%s ", $3, $4 }' "$d/out/blocks.txt")" \
	"regret=0.0140 regret_lo=0.0130 regret_hi=0.0150 capacity=1.0002 capacity_acc=0.9902 slow_share=0.2140 best_share=0.2 x_dram=0.5263 model_2x=0.8237 model_3x=0.7003 " \
	"block 4's promoter run"
grep -Fq '| 4 | chmu | 0.0140 [0.0130, 0.0150] | 1.0002 / 0.9902 | 0.2140 | 0.2 | 0.5263 | 0.8237 / 0.7003 |' "$M" ||
	fail "block 4's promoter row"
grep -Fq '| chmu-numab | regret | 6 | -0.0375 | [-0.04, 0.009] | 5 / 1 / 0 | leaning (lower in 5 of 6, p = 0.109) |' "$M" ||
	fail "chmu-numab: leaning at 5 of 6"
grep -Fq '| chmu-damon_tier | regret | 6 | -0.0875 | [-0.09, -0.085] | 6 / 0 / 0 | not at equal capacity (1 of 6 blocks) |' "$M" ||
	fail "chmu-damon_tier: block 5's capacity twice the promoter's"
grep -Fq '| chmu-numab | capacity | 6 | 0.0236 | [0.0236, 0.0236] | 0 / 6 / 0 | - |' "$M" ||
	fail "chmu-numab: capacity contrast"
grep -Fq '| k0 | 1000000.0 | 900000.0 | 0.900 |' "$M" || fail "drift check"
expect_eq "$(jq -c '[.arms, (.runs | length), (.contrasts | map(.contrast + ":" + .key) | unique | length), (.drift | length)]' "$d/out/blocks.json")" \
	'[["chmu","none","numab","damon-tier"],240,20,2]' "blocks.json"

# Fewer than 6 blocks decide nothing.
bench/block-rows.sh "$d/one" "$d/k0" || fail "block-rows.sh on one boot failed"
grep -Fq '| chmu-numab | regret | 3 | -0.039 | [-0.04, -0.038] | 3 / 0 / 0 | too few blocks to decide (lower in 3 of 3, p = 0.125) |' "$d/one/blocks.md" ||
	{ cat "$d/one/blocks.md"; fail "3 blocks decide nothing"; }
# A boot of another design is refused.
mkdir -p "$d/old" && echo ratio=4 >"$d/old/setup.txt"
rc=0; out=$(bench/block-rows.sh "$d/x" "$d/old" 2>&1) || rc=$?
expect_eq "$rc:$out" "1:block-rows.sh: $d/old is not a tier-blocks boot" "a boot of another design"
echo ok
