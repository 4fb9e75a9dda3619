#!/bin/bash
# block-rows.sh OUT BOOT...: the paired tiering blocks' verdict
# (docs/tiering.md) from the boots of guest-bench.sh tier-blocks.
#
# Per run (bBLOCK.ARM.txt, chmu-workload zipf's key=value lines): the
# window's placement regret and its bounds (units that changed tiers
# within an interval counted slow, or fast), its capacity held
# (working-set pages on node 0 over the nominal share, units / (1 +
# RATIO): averaged over the window's time, capacity, and over its
# accesses, capacity_acc, at which the regret is judged), its slow and
# best shares, its throughput against the boot's all-DRAM runs (the
# mean of start.dram and end.dram, the window's accesses over its
# seconds) and the modelled hardware throughput at CXL latencies 2x and
# 3x DRAM's. OUT/blocks.txt has them as "BLOCK ARM KEY VALUE" lines (an
# arm's "-" becomes "_": chmu-tierstat's contrasts are A-B);
# OUT/contrasts.txt chmu-tierstat paired's JSON per contrast of the first
# arm given (the promoter, by default) against each other one but none;
# OUT/blocks.json results.json's tiering_blocks; OUT/blocks.md the
# section's tables. The decision rule is docs/tiering.md's: better
# placement when the first arm's regret is lower in enough blocks that
# the one-sided sign test gives p <= 0.05 (6 of 6, 7 of 8), leaning at
# p <= 0.15, else no difference shown; nothing is decided when a block's
# capacities differ by more than 10%.
set -euo pipefail
out=${1:?usage: block-rows.sh OUT BOOT...}
shift
cd "$(dirname "$0")/.."
TS=${CHMU_TIERSTAT:-build/bin/chmu-tierstat}
[ -x "$TS" ] || { echo "block-rows.sh: no $TS (make tools)" >&2; exit 1; }
[ $# -gt 0 ] || { echo "block-rows.sh: no boot" >&2; exit 1; }
kv() { sed -n "s/^$1=//p" "$2" | head -n 1; }

# rate FILE: a run's window accesses a second
rate() { awk -F= '$1 == "window_accesses" { a = $2 } $1 == "window_secs" { t = $2 }
	END { if (t > 0) printf "%.1f", a / t; else print 0 }' "$1"; }

mkdir -p "$out"
: >"$out/blocks.txt"
: >"$out/drift.txt"
arms=
for b in "$@"; do
	s=$b/setup.txt
	[ "$(kv design "$s")" = blocks ] || { echo "block-rows.sh: $b is not a tier-blocks boot" >&2; exit 1; }
	ratio=$(kv ratio "$s")
	units=$(kv units "$s")
	arms=$(kv arms "$s")
	share=$(awk -v u="$units" -v r="$ratio" 'BEGIN { print u / (1 + r) }')
	d0=$(rate "$b/start.dram.txt")
	d1=$(rate "$b/end.dram.txt")
	echo "$(basename "$b") $d0 $d1" >>"$out/drift.txt"
	dram=$(awk -v a="$d0" -v b="$d1" 'BEGIN { print (a + b) / 2 }')
	for f in "$b"/b[0-9]*.*.txt; do
		n=$(basename "$f" .txt)
		blk=${n%%.*}
		blk=${blk#b}
		arm=${n#*.}
		arm=${arm//-/_}
		grep -q '^window_regret=' "$f" || { echo "block-rows.sh: $f has no window (the run failed?)" >&2; exit 1; }
		# the modelled speeds at CXL 2x and 3x DRAM's latency, one call
		m=$("$TS" model "$(kv window_slow_share "$f")" 2 3 | sed 's/.*speed=//' | paste -sd' ')
		# the run's keys, from its window_* lines in one pass
		awk -F= -v k="$blk $arm" -v share="$share" -v dram="$dram" -v m="$m" '
			{ v[$1] = $2 }
			END {
				split(m, s, " ")
				r = v["window_secs"] > 0 ? sprintf("%.1f", v["window_accesses"] / v["window_secs"]) + 0 : 0
				print k, "regret", v["window_regret"]
				print k, "regret_lo", v["window_regret_lo"]
				print k, "regret_hi", v["window_regret_hi"]
				printf "%s capacity %.4f\n", k, v["window_capacity"] / share
				printf "%s capacity_acc %.4f\n", k, v["window_capacity_acc"] / share
				print k, "slow_share", v["window_slow_share"]
				print k, "best_share", v["window_best_share"]
				printf "%s x_dram %.4f\n", k, (dram > 0 ? r / dram : 0)
				print k, "model_2x", s[1]
				print k, "model_3x", s[2]
			}' "$f" >>"$out/blocks.txt"
	done
done

# contrasts: the first arm against each other one but none
first=${arms%%,*}
first=${first//-/_}
: >"$out/contrasts.txt"
for a in ${arms//,/ }; do
	a=${a//-/_}
	[ "$a" != "$first" ] && [ "$a" != none ] || continue
	"$TS" -j paired "$first-$a" <"$out/blocks.txt" >>"$out/contrasts.txt"
done

# verdict FIRST OTHER BELOW BLOCKS P: the decision rule on regret (BELOW
# of BLOCKS lower for FIRST, the sign test's P), at equal capacity
verdict() {
	local unequal
	unequal=$(awk -v a="$1" -v o="$2" '
		$3 == "capacity" { c[$1, $2] = $4; blk[$1] = 1 }
		END {
			for (b in blk)
				if ((b, a) in c && (b, o) in c &&
				    (c[b, o] <= 0 || c[b, a] / c[b, o] > 1.1 || c[b, a] / c[b, o] < 1 / 1.1))
					n++
			print n + 0
		}' "$out/blocks.txt")
	if [ "$unequal" -gt 0 ]; then
		echo "not at equal capacity ($unequal of $4 blocks)"
	else
		awk -v k="$3" -v n="$4" -v p="$5" 'BEGIN {
			if (p <= 0.05) v = "better placement"
			else if (k == n) v = "too few blocks to decide"
			else if (p <= 0.15) v = "leaning"
			else v = "no difference shown"
			printf "%s (lower in %d of %d, p = %.3g)\n", v, k, n, p }'
	fi
}

{
	echo "| contrast | key | blocks | median | [min, max] | lower / higher / equal | verdict |"
	echo "|---|---|---:|---:|---|---|---|"
	jq -r '[.contrast, .key, .blocks, .median, "[\(.min), \(.max)]", "\(.below) / \(.above) / \(.equal)", .below, .p_below] | @tsv' \
		"$out/contrasts.txt" | while IFS=$'\t' read -r c k n m mm s below p; do
		v=-
		[ "$k" != regret ] || v=$(verdict "${c%%-*}" "${c#*-}" "$below" "$n" "$p")
		echo "| $c | $k | $n | $m | $mm | $s | $v |"
	done
	echo
	echo "| block | arm | regret [bounds] | capacity held (time / accesses) | slow share | best share | x DRAM (measured) | x DRAM (model, CXL 2x / 3x) |"
	echo "|---:|---|---|---|---:|---:|---:|---|"
	awk '{ v[$1 " " $2, $3] = $4; if (!(($1 " " $2) in seen)) { seen[$1 " " $2] = 1; o[++n] = $1 " " $2 } }
		END { for (i = 1; i <= n; i++) { k = o[i]; split(k, p, " ")
			printf "| %s | %s | %s [%s, %s] | %s / %s | %s | %s | %s | %s / %s |\n", p[1], p[2],
				v[k, "regret"], v[k, "regret_lo"], v[k, "regret_hi"], v[k, "capacity"], v[k, "capacity_acc"],
				v[k, "slow_share"], v[k, "best_share"], v[k, "x_dram"], v[k, "model_2x"], v[k, "model_3x"] } }' \
		"$out/blocks.txt"
	echo
	echo "| boot | all DRAM, first (accesses/s) | all DRAM, last | last / first |"
	echo "|---|---:|---:|---:|"
	awk '{ printf "| %s | %s | %s | %.3f |\n", $1, $2, $3, ($2 > 0 ? $3 / $2 : 0) }' "$out/drift.txt"
} >"$out/blocks.md"

jq -n --slurpfile c "$out/contrasts.txt" \
	--argjson runs "$(awk '{ printf "%s{\"block\":%s,\"arm\":\"%s\",\"key\":\"%s\",\"value\":%s}", n++ ? "," : "[", $1, $2, $3, $4 } END { print n ? "]" : "[]" }' "$out/blocks.txt")" \
	--argjson drift "$(awk '{ printf "%s{\"boot\":\"%s\",\"dram_first\":%s,\"dram_last\":%s}", n++ ? "," : "[", $1, $2, $3 } END { print n ? "]" : "[]" }' "$out/drift.txt")" \
	--arg arms "$arms" \
	'{arms: ($arms | split(",")), runs: $runs, contrasts: $c, drift: $drift}' >"$out/blocks.json"
