#!/bin/bash
# tier-rows.sh OUT BOOT...: the tiering section of make bench from the runs
# bench/guest-bench.sh tier left in each BOOT directory (one boot per
# fast:slow ratio and tracker; each holds its own all-DRAM run). Writes
# OUT/tier.md (one table row per boot and policy, then the goals),
# OUT/tier.json (one object per run) and OUT/tier-RATIO.svg (throughput
# over time, one line per policy, for each ratio's first boot; the
# pgbench boots' OUT/tier-pgbench-RATIO.svg).
#
# Per run, from chmu-workload's progress lines (every 500 ms; for
# pgbench, guest-bench.sh writes its transactions in the same form):
#   x DRAM (run, steady)  mean loads/s over the whole run, and over its
#                         second half, against the median of the boot's
#                         all-DRAM run
#   CXL share             loads to pages on the CXL node / all, second half
#   promoted, demoted     pages, from /proc/vmstat around the run
#                         (pgpromote_success; pgdemote_kswapd + _direct),
#                         for DAMON its schemes' sz_applied
#   ping-pong             pgpromote_pingpong: pages promoted (by whichever
#                         mechanism) that were migrated back down within
#                         10 s, and its share of the promoted
#   CPU                   the promoter's worker and drain time (watch:
#                         the drains'); kdamond's
#                         utime + stime; NUMA balancing's is not measured
#                         under the balloon (bpftrace cannot start there)
#   kswapd ms             kswapd0's utime + stime over the run (its
#                         kswapd_ticks around it in POLICY.vm0 and .vm1;
#                         runs before they had them: between the first
#                         and last lines of POLICY.samples; ticks of
#                         USER_HZ 100): the demotions that make room on a
#                         full node 0, whichever policy asked for them
#                         ("-" without either)
#   on node 0             the working set's pages on node 0 halfway (the
#                         largest mapping in POLICY.numa_maps), and for
#                         the Zipf workload the best CXL share that many
#                         pages allow (the hottest on node 0): a policy
#                         that took more of node 0 than the share (its
#                         demotions went past the fillers' excess) is
#                         judged by its own count
#   p99 latency           the promoter's batches, drain to migration done, and the
#                         share of its queued pages that expired unmigrated
#   client p99            pgbench: the transactions' p99 latency (its log)
#   own on CXL            the workload's own heap and stack pages (a
#                         pgbench backend's) off node 0 halfway through
#                         (POLICY.numa_maps), and the pinned code's pages
#                         off node 0 at the end (pinned_off_node0): a run
#                         with any is "confounded" (under TCG such pages
#                         cost ~70x, code ~1000x, against a few times on
#                         hardware), and a goal that compares it reads
#                         "unreliable"
set -euo pipefail
out=${1:?usage: tier-rows.sh OUT BOOT...}
shift
[ $# -ge 1 ] || { echo "tier-rows.sh: no boot directory" >&2; exit 1; }
kv() { sed -n "s/^$1=//p" "$2" | head -n 1; }
# nul VALUE [SHOWN]: -1 (unknown) as null in the JSON, or SHOWN ("-" in
# the table); any other value as it is
nul() { [ "$1" = -1 ] && echo "${2:-null}" || echo "$1"; }
# vmd BOOT POLICY COUNTER: the counter's growth over the run
vmd() {
	local a b
	a=$(awk -v k="$3" '$1 == k { print $2 }' "$1/$2.vm0")
	b=$(awk -v k="$3" '$1 == k { print $2 }' "$1/$2.vm1")
	echo $(( ${b:-0} - ${a:-0} ))
}
# intervals FILE: "end_ms loads_per_s cxl_share" per progress interval
intervals() {
	awk '/^progress / {
		for (i = 2; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
		dt = v["ms"] - pms; da = v["accesses"] - pacc
		if (dt >= 100)	# a stall is an interval at 0
			printf "%d %.0f %.4f\n", v["ms"], da * 1000 / dt, v["on_node"] < 0 ? -1 : v["on_node"] / da
		pms = v["ms"]; pacc = v["accesses"]
	}' "$1"
}
label_of() {
	case "$1" in
	none) echo "no promotion" ;;
	watch) echo "CHMU monitoring, no promotion" ;;
	chmu) echo "CHMU promoter" ;;
	numab) echo "NUMA balancing, tiering mode" ;;
	damon-tier) echo "DAMON tiering (migrate_hot + migrate_cold)" ;;
	dram) echo "all DRAM (reference)" ;;
	*) echo "$1" ;;
	esac
}

: >"$out/tier.md.rows"
echo "[" >"$out/tier.json"
first=1
for b in "$@"; do
	[ -s "$b/dram.txt" ] || { echo "tier-rows.sh: $b/dram.txt missing" >&2; exit 1; }
	ratio=$(kv ratio "$b/setup.txt")
	workload=$(kv workload "$b/setup.txt")
	workload=${workload:-zipf}
	tracker=$(cat "$b/label")
	ref=$(intervals "$b/dram.txt" | awk '{ print $2 }' | sort -g |
		awk '{ v[NR] = $1 } END { print NR ? v[int((NR + 1) / 2)] : 0 }')
	[ "${ref%.*}" -gt 0 ] || { echo "tier-rows.sh: no all-DRAM throughput in $b" >&2; exit 1; }
	for f in "$b"/*.txt; do
		pol=$(basename "$f" .txt)
		case "$pol" in dram | none | watch | chmu | numab | damon-tier) ;; *) continue ;; esac
		intervals "$f" >"$b/$pol.iv"
		[ -s "$b/$pol.iv" ] || { echo "tier-rows.sh: no progress in $f" >&2; exit 1; }
		read -r run steady share < <(awk -v ref="$ref" '{ t[NR] = $1; r[NR] = $2; c[NR] = $3 }
			END {
				half = t[NR] / 2
				for (i = 1; i <= NR; i++) {
					all += r[i]
					if (t[i] > half) { s += r[i]; n++; if (c[i] >= 0) { cs += c[i]; cn++ } }
				}
				printf "%.3f %.3f %.3f\n", all / NR / ref, n ? s / n / ref : 0, cn ? cs / cn : -1
			}' "$b/$pol.iv")
		cost=$b/$pol.cost
		promoted=$(vmd "$b" "$pol" pgpromote_success)
		demoted=$(( $(vmd "$b" "$pol" pgdemote_kswapd) + $(vmd "$b" "$pol" pgdemote_direct) ))
		pingpong=$(vmd "$b" "$pol" pgpromote_pingpong)
		splits=$(vmd "$b" "$pol" thp_split_page)
		own=0
		[ ! -s "$b/$pol.numa_maps" ] || own=$(awk '/ heap | stack / { for (i = 2; i <= NF; i++)
			if ($i ~ /^N[0-9]+=/ && $i !~ /^N0=/) { split($i, kv, "="); s += kv[2] } } END { print s + 0 }' "$b/$pol.numa_maps")
		pinned=$(kv pinned_off_node0 "$cost")
		pinned=${pinned:-0}
		confounded=false
		[ $((own + pinned)) -eq 0 ] || confounded=true
		cpu_ns=$(( $(kv probe_scan_ns "$cost") + $(kv probe_fault_ns "$cost") + $(kv probe_oncpu_ns "$cost") ))
		# kdamond by its clock ticks (USER_HZ 100) where the probes did not run
		t=$(kv kdamond_ticks "$cost")
		[ -z "$t" ] || [ "$(kv probe_oncpu_ns "$cost")" != 0 ] || cpu_ns=$((cpu_ns + t * 10000000))
		lat=-1 throttles=-1 cp99=-1 expired=-1
		[ -z "$(kv client_latency_p99_us "$cost")" ] || cp99=$(kv client_latency_p99_us "$cost")
		case "$pol" in
		watch) cpu_ns=$((cpu_ns + $(kv drain_ns "$cost"))) ;;
		chmu)
			# promoted: pgpromote_success over the run's window, as for
			# the others (the driver's own count goes on while its
			# queue drains after the run)
			cpu_ns=$((cpu_ns + $(kv promote_worker_ns "$cost") + $(kv drain_ns "$cost")))
			lat=$(kv promote_latency_p99_ns "$cost")
			throttles=$(kv promote_throttles "$cost")
			# the queued pages given up for the latency target: the
			# p99 counts only the batches that were migrated
			q=$(kv promote_queued_pages "$cost") x=$(kv promote_expired_pages "$cost")
			[ -z "$x" ] || [ "${q:-0}" -le 0 ] ||
				expired=$(awk -v x="$x" -v q="$q" 'BEGIN { printf "%.4f", x / q }') ;;
		damon-tier)
			# unknown (-1) where a stats command did not return
			# (damon_timeout= or damon_failed= in the costs)
			a=$(kv damon_sz_applied "$cost") c=$(kv damon_cold_sz_applied "$cost")
			promoted=-1
			[ -z "$a" ] || promoted=$((a / 4096))
			if [ -n "$c" ]; then demoted=$((demoted + c / 4096)); else demoted=-1; fi ;;
		esac
		# NUMA balancing's is not measured under the balloon (no probes)
		[ "$pol" != numab ] || [ "$(kv probe_oncpu_ns "$cost")$(kv probe_scan_ns "$cost")" != 00 ] || cpu_ns=-1
		kswapd_ms=-1
		k0=$(awk '$1 == "kswapd_ticks" { print $2 }' "$b/$pol.vm0" 2>/dev/null)
		k1=$(awk '$1 == "kswapd_ticks" { print $2 }' "$b/$pol.vm1" 2>/dev/null)
		if [ -n "$k0" ] && [ -n "$k1" ]; then
			kswapd_ms=$(( (k1 - k0) * 10 ))
		elif [ -s "$b/$pol.samples" ]; then
			kswapd_ms=$(awk 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "kswapd_ticks") c = i; next }
				c { if (!n++) a = $c; z = $c } END { print (c && n > 1) ? (z - a) * 10 : -1 }' "$b/$pol.samples")
		fi
		# the working set on node 0 halfway, and the best share for it
		ws0=-1 best=-1
		if [ -s "$b/$pol.numa_maps" ]; then
			ws0=$(awk '{ t = 0; z = 0
				for (i = 2; i <= NF; i++) if ($i ~ /^N[0-9]+=/) { split($i, kv, "="); t += kv[2]; if (kv[1] == "N0") z = kv[2] }
				if (t > max) { max = t; n0 = z } } END { print max ? n0 + 0 : -1 }' "$b/$pol.numa_maps")
			u=$(kv units "$b/setup.txt") zs=$(kv zipf "$b/setup.txt")
			[ "$workload" != zipf ] || [ "$ws0" -lt 0 ] || [ -z "$u" ] || [ -z "$zs" ] ||
				best=$(awk -v n="$ws0" -v u="$u" -v s="$zs" 'BEGIN {
					for (k = 1; k <= u; k++) { w = k ^ -s; h += w; if (k <= n) hn += w }
					printf "%.3f", 1 - hn / h }')
		fi
		pp_share=-1
		if [ "$promoted" -gt 0 ]; then
			pp_share=$(awk -v a="$pingpong" -v b="$promoted" 'BEGIN { printf "%.4f", a / b }')
		fi
		[ "$first" = 1 ] || echo "," >>"$out/tier.json"
		first=0
		cpu_ms=-1
		[ "$cpu_ns" = -1 ] || cpu_ms=$((cpu_ns / 1000000))
		printf '{"workload":"%s","ratio":%s,"tracker":"%s","policy":"%s","x_dram_run":%s,"x_dram_steady":%s,"cxl_share_steady":%s,"promoted":%s,"demoted":%s,"pingpong":%s,"pingpong_share":%s,"thp_split":%s,"cpu_ms":%s,"kswapd_ms":%s,"ws_node0_pages":%s,"best_cxl_share":%s,"latency_p99_ms":%s,"expired_share":%s,"throttles":%s,"client_p99_ms":%s,"own_pages_off_node0":%s,"pinned_off_node0":%s,"confounded":%s}' \
			"$workload" "$ratio" "$tracker" "$pol" "$run" "$steady" "$share" "$(nul "$promoted")" "$(nul "$demoted")" \
			"$([ "$pol" = dram ] && echo null || echo "$pingpong")" \
			"$([ "$pp_share" = -1 ] && echo null || echo "$pp_share")" "$splits" \
			"$(nul "$cpu_ms")" "$(nul "$kswapd_ms")" "$(nul "$ws0")" "$(nul "$best")" "$([ "$lat" = -1 ] && echo null || awk -v l="$lat" 'BEGIN { printf "%.1f", l / 1e6 }')" \
			"$(nul "$expired")" "$([ "$throttles" = -1 ] && echo null || echo "$throttles")" \
			"$([ "$cp99" = -1 ] && echo null || awk -v l="$cp99" 'BEGIN { printf "%.2f", l / 1e3 }')" \
			"$own" "$pinned" "$confounded" >>"$out/tier.json"
		printf '| %s | 1:%s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n' "$workload" "$ratio" "$tracker" \
			"$(label_of "$pol")" "$run" "$steady" "$([ "$share" = -1.000 ] || [ "$pol" = dram ] && echo - || echo "$share")" \
			"$([ "$ws0" = -1 ] && echo - || { [ "$best" = -1 ] && echo "$ws0" || echo "$ws0 (best $best)"; })" \
			"$(nul "$promoted" -)" "$(nul "$demoted" -)" \
			"$([ "$pol" = dram ] && echo - || echo "$pingpong ($(awk -v s="$pp_share" 'BEGIN { printf "%.1f%%", s < 0 ? 0 : s * 100 }'))")" \
			"$(nul "$cpu_ms" -)" "$(nul "$kswapd_ms" -)" \
			"$([ "$lat" = -1 ] && echo - || awk -v l="$lat" -v x="$expired" 'BEGIN {
				printf "%.0f ms", l / 1e6; if (x >= 0) printf " (%.0f%% expired)", x * 100 }')" \
			"$([ "$cp99" = -1 ] && echo - || awk -v l="$cp99" 'BEGIN { printf "%.1f ms", l / 1e3 }')" \
			"$([ "$confounded" = true ] && echo "**$own + $pinned code**" || echo 0)" >>"$out/tier.md.rows"
	done
done
echo "]" >>"$out/tier.json"
jq . "$out/tier.json" >/dev/null || { echo "tier-rows.sh: bad JSON" >&2; exit 1; }

# Goals (reported, not asserted), from the exact tracker's boots; the
# throughput goals are not judged (goal_tp). A
# throughput goal holds over the whole run and over its second half
# (the move to a steady state counts). "unreliable" instead of met or
# not met: a run it compares is confounded, or the boot's all-DRAM run
# itself varied (its second half more than 10% off its median: the
# guest's speed moved during the boot by as much as a goal's margin).
goal() { # goal WHAT MEASURED TARGET MET [WHY-UNRELIABLE]
	printf '| %s | %s | %s | %s |\n' "$1" "$2" "$3" "$([ -n "${5-}" ] && echo "unreliable ($5)" ||
		{ [ "$4" = 1 ] && echo met || echo "**not met**"; })"
}
# A throughput goal is not judged: one run per policy against a spread
# between runs larger than its margin decides nothing (docs/tiering.md:
# paired blocks). The row says what this run alone would read.
goal_tp() { # goal_tp WHAT MEASURED TARGET MET [WHY-UNRELIABLE]
	local this
	if [ -n "${5-}" ]; then
		this="unreliable: $5"
	elif [ "$4" = 1 ]; then
		this="this run alone: met"
	else
		this="this run alone: not met"
	fi
	printf '| %s | %s | %s | not judged (one run per policy; %s) |\n' "$1" "$2" "$3" "$this"
}
{
	cat "$out/tier.md.rows"
	echo
	echo "| goal | measured | target | |"
	echo "|---|---|---|---|"
	for w in $(jq -r '[.[] | .workload] | unique | .[]' "$out/tier.json"); do
	for r in $(jq -r --arg w "$w" '[.[] | select(.workload == $w and .tracker == "exact tracker") | .ratio] | unique | .[]' "$out/tier.json"); do
		v() { # v POLICY FIELD
			jq -r --arg w "$w" --argjson r "$r" --arg p "$1" --arg f "$2" '.[] | select(.workload == $w and .ratio == $r and .tracker == "exact tracker" and .policy == $p) | .[$f]' "$out/tier.json"
		}
		why() { # why POLICY...: why a goal comparing them is unreliable, or nothing
			if [ "$(jq -r --arg w "$w" --argjson r "$r" --arg p "$*" '[.[] | select(.workload == $w and .ratio == $r and .tracker == "exact tracker" and (.policy as $x | $p | split(" ") | index($x))) | .confounded] | any' "$out/tier.json")" = true ]; then
				echo "a run is confounded"
			elif [ -n "$dref" ] && awk -v d="$dref" 'BEGIN { exit !(d < 0.9 || d > 1.1) }'; then
				echo "the all-DRAM run's second half was ${dref}x its median"
			fi
		}
		# cmp A B FACTOR: run and steady of policy A against B's, and
		# whether A >= FACTOR x B in both (as "MEASURED|MET")
		cmp() {
			awk -v ar="$(v "$1" x_dram_run)" -v br="$(v "$2" x_dram_run)" \
				-v as="$(v "$1" x_dram_steady)" -v bs="$(v "$2" x_dram_steady)" -v k="$3" 'BEGIN {
				if (k != 1 && (br + 0 <= 0 || bs + 0 <= 0)) { print "not measured|0"; exit }
				if (k == 1) m = sprintf("run %s vs %s, steady %s vs %s", ar, br, as, bs)
				else m = sprintf("run %.2fx, steady %.2fx", ar / br, as / bs)
				print m "|" (ar >= k * br && as >= k * bs) }'
		}
		[ -n "$(v chmu x_dram_steady)" ] && [ -n "$(v none x_dram_steady)" ] || continue
		dref=$(v dram x_dram_steady)
		m=$(cmp chmu none 1)
		goal_tp "$w 1:$r: promoter not below no promotion" "${m%|*}" ">= 1.00x" "${m##*|}" "$(why chmu none)"
		if [ "$w" = zipf ] && [ "$r" = 4 ] && [ -n "$(v numab x_dram_steady)" ] && [ -n "$(v damon-tier x_dram_steady)" ]; then
			m=$(cmp chmu numab 1.1)
			goal_tp "$w 1:4: promoter 10% above NUMA balancing" "${m%|*}" ">= 1.10x" "${m##*|}" "$(why chmu numab)"
			m=$(cmp chmu damon-tier 1.1)
			goal_tp "$w 1:4: promoter 10% above DAMON tiering" "${m%|*}" ">= 1.10x" "${m##*|}" "$(why chmu damon-tier)"
		fi
		pp=$(v chmu pingpong_share)
		[ -n "$pp" ] && [ "$pp" != null ] || pp=0
		goal "$w 1:$r: ping-pong of the promoter's promotions" "$(awk -v s="$pp" 'BEGIN { printf "%.1f%%", s * 100 }')" "< 5%" \
			"$(awk -v s="$pp" 'BEGIN { print (s < 0.05) }')"
	done
	done
} >"$out/tier.md"
rm -f "$out/tier.md.rows"

# tier-RATIO.svg: throughput (x DRAM) over time per policy, first boot of
# each ratio (tier-pgbench-RATIO.svg: pgbench's)
done_ratios=
for b in "$@"; do
	ratio=$(kv ratio "$b/setup.txt")
	workload=$(kv workload "$b/setup.txt")
	svg=tier-$ratio.svg
	[ "${workload:-zipf}" = zipf ] || svg=tier-$workload-$ratio.svg
	case " $done_ratios " in *" $svg "*) continue ;; esac
	done_ratios="$done_ratios $svg"
	ref=$(awk '{ print $2 }' "$b/dram.iv" | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }')
	{
		for pol in dram none watch chmu numab damon-tier; do
			[ -s "$b/$pol.iv" ] || continue
			awk -v p="$pol" -v ref="$ref" '{ printf "%s %.3f %.4f\n", p, $1 / 1000, $2 / ref }' "$b/$pol.iv"
		done
	} | awk -v ratio="$ratio" -v what="$([ "${workload:-zipf}" = zipf ] && echo Throughput || echo "pgbench transactions/s")" '
	BEGIN { W = 720; H = 360; L = 60; B = 40; T = 30; Rm = 190
		col["dram"] = "#444444"; col["none"] = "#999999"; col["watch"] = "#ff9896"; col["chmu"] = "#d62728"
		col["numab"] = "#1f77b4"; col["damon-tier"] = "#2ca02c" }
	{ p = $1; n[p]++; x[p, n[p]] = $2; y[p, n[p]] = $3; if ($2 > xmax) xmax = $2; if ($3 > ymax) ymax = $3
	  if (!(p in seen)) { seen[p] = 1; order[++np] = p } }
	END {
		if (ymax < 1.1) ymax = 1.1
		printf "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" font-family=\"sans-serif\" font-size=\"12\">\n", W, H
		printf "<text x=\"%d\" y=\"18\">%s over time, fast:slow 1:%s (x the all-DRAM median)</text>\n", L, what, ratio
		pw = W - L - Rm; ph = H - T - B
		printf "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" stroke=\"#000\"/>\n", L, T, pw, ph
		for (g = 0; g <= ymax; g += 0.25) {
			yy = T + ph - g / ymax * ph
			printf "<line x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/><text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%.2f</text>\n", L, L + pw, yy, yy, L - 4, yy + 4, g
		}
		for (s = 0; s <= xmax; s += 10)
			printf "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%d s</text>\n", L + s / xmax * pw, H - B + 16, s
		for (k = 1; k <= np; k++) {
			p = order[k]; pts = ""
			for (i = 1; i <= n[p]; i++)
				pts = pts sprintf("%.1f,%.1f ", L + x[p, i] / xmax * pw, T + ph - y[p, i] / ymax * ph)
			printf "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"1.5\" points=\"%s\"/>\n", col[p], pts
			printf "<line x1=\"%d\" x2=\"%d\" y1=\"%d\" y2=\"%d\" stroke=\"%s\" stroke-width=\"3\"/><text x=\"%d\" y=\"%d\">%s</text>\n", W - Rm + 10, W - Rm + 30, T + 10 + 18 * k, T + 10 + 18 * k, col[p], W - Rm + 36, T + 14 + 18 * k, p
		}
		print "</svg>"
	}' >"$out/$svg"
done
