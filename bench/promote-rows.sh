#!/bin/bash
# promote-rows.sh OUT BOOT...: the promotion section of make bench from
# the runs bench/guest-bench.sh promote left in each BOOT directory (the
# first holds the dram reference and the none and numab runs). Writes
# OUT/promote.md (table, goals), OUT/promote.json (one object per run)
# and OUT/promote.svg (throughput over time).
#
# Per run, from chmu-workload's progress lines (every 500 ms: accesses so
# far, and those of the interval to pages on the CXL node, -1 when the
# placement could not be read: such an interval is left out of the CXL
# figures). An interval belongs to a half when it lies wholly in it; one
# that holds the move is in neither. Every ratio is against the all-DRAM
# run of the same boot.
#   steady before/after  mean throughput over the last quarter of each half,
#                        as a fraction of the all-DRAM run's median
#   to 90% DRAM          the end of the first of two intervals in a row at
#                        90% of that median or more, from the start; from
#                        the move, the same once the throughput has fallen
#                        below it after the move (-2: it never fell)
#   CXL share            loads to pages on the CXL node / all, per half
#   to CXL <= 10%        as "to 90%", for two intervals in a row with at
#                        most 10% of their loads on the CXL node (-2 from
#                        the move: it never rose above)
#   migrated, in hot set pages on node 0 at the end (nothing demotes), and
#                        the share of them in either half's hot set; beside
#                        it the mechanism's own count (the promoter's
#                        promoted, pgpromote_success, DAMON's sz_applied)
#   CPU                  the mechanism's: the promoter's work item and the
#                        driver's drain (ktime around them: time on a CPU
#                        and any wait, an upper bound); kdamond's time on
#                        a CPU (sched_switch); NUMA balancing's scans
#                        (task_numa_work) and the workload's page faults,
#                        all hint faults (ktime in kprobes, an upper bound).
#                        The probes run in every policy's run.
set -euo pipefail
out=${1:?usage: promote-rows.sh OUT BOOT...}
shift
[ $# -ge 1 ] || { echo "promote-rows.sh: no boot directory" >&2; exit 1; }
base=$1
kv() { sed -n "s/^$1=//p" "$2" | head -n 1; }
for f in "$base/dram.txt" "$base/none.txt"; do
	[ -s "$f" ] || { echo "promote-rows.sh: $f missing" >&2; exit 1; }
done

# intervals FILE: "end_ms start_ms loads loads_per_s cxl_share" per
# progress interval of at least 100 ms (cxl_share -1: not known)
intervals() {
	awk '/^progress / {
		for (i = 2; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
		dt = v["ms"] - pms; da = v["accesses"] - pacc
		if (dt >= 100 && da > 0)
			printf "%d %d %d %.0f %.4f\n", v["ms"], pms, da, da * 1000 / dt,
				v["on_node"] < 0 ? -1 : v["on_node"] / da
		pms = v["ms"]; pacc = v["accesses"]
	}' "$1"
}
# dram_ref BOOT: the median loads/s of the boot's all-DRAM run
dram_ref() {
	local r
	[ -s "$1/dram.txt" ] || { echo "promote-rows.sh: $1/dram.txt missing" >&2; exit 1; }
	r=$(intervals "$1/dram.txt" | awk '{ print $4 }' | sort -g |
		awk '{ v[NR] = $1 } END { print NR ? v[int((NR + 1) / 2)] : 0 }')
	[ "${r%.*}" -gt 0 ] || { echo "promote-rows.sh: no all-DRAM throughput in $1" >&2; exit 1; }
	echo "$r"
}
hot=$(awk '!/^#/ && $5 % 2 == 1' "$base/none.placement" | wc -l)

label_of() { # label_of BOOT POLICY
	case "$2" in
	none) echo "no promotion" ;;
	chmu) echo "CHMU promoter, $(cat "$1/label")" ;;
	numab) echo "NUMA balancing, tiering mode" ;;
	damon) echo "DAMON migrate_hot (paddr)" ;;
	dram)
		if [ "$1" = "$base" ]; then
			echo "all DRAM (reference)"
		else
			echo "all DRAM (reference for the $(cat "$1/label"))"
		fi ;;
	esac
}

# metrics FILE POLICY REF: key=value lines for a run
metrics() {
	local f=$1 pol=$2 ref=$3 shift_ms end_ms
	shift_ms=$(($(kv shift_ns "$f") / 1000000))
	end_ms=$(($(kv ns "$f") / 1000000))
	intervals "$f" | awk -v ref="$ref" -v s="$shift_ms" -v e="$end_ms" -v dram=$([ "$pol" = dram ] && echo 1 || echo 0) '
	# reached(KEY, OK, END): the end of the first of two intervals in a row
	# where OK held, once per KEY
	function reached(k, ok, end) {
		if (k in t) return
		if (!ok) { run[k] = 0; return }
		if (!run[k]++) cand[k] = end
		if (run[k] >= 2) t[k] = cand[k]
	}
	{
		end = $1; start = $2; da = $3; thr = $4; cxl = dram ? 0 : $5
		half = end <= s ? 0 : (start >= s ? 1 : -1)
		if (half == 0 && end >= 0.75 * s) { sb += thr; nb++ }
		if (half == 1 && end >= s + 0.75 * (e - s)) { sa += thr; na++ }
		if (half >= 0 && cxl >= 0) { w[half] += da; c[half] += da * cxl }
		reached("t90", thr >= 0.9 * ref, end)
		if (cxl >= 0) reached("c10", cxl <= 0.10, end)
		if (half == 1) {
			if (thr < 0.9 * ref) fell = 1
			if (fell) reached("m90", thr >= 0.9 * ref, end - s)
			if (cxl > 0.10) rose = 1
			if (rose && cxl >= 0) reached("mc10", cxl <= 0.10, end - s)
		}
	}
	function v(k, never) { return (k in t) ? t[k] : never }
	END {
		printf "steady_before=%.3f\nsteady_after=%.3f\n", nb ? sb / nb / ref : 0, na ? sa / na / ref : 0
		printf "t90_ms=%s\nt90_move_ms=%s\n", v("t90", -1), v("m90", fell ? -1 : -2)
		printf "cxl_before=%.3f\ncxl_after=%.3f\n", w[0] ? c[0] / w[0] : 0, w[1] ? c[1] / w[1] : 0
		printf "cxl10_ms=%s\ncxl10_move_ms=%s\n", v("c10", -1), v("mc10", rose ? -1 : -2)
	}'
	echo "shift_ms=$shift_ms"
	echo "end_ms=$end_ms"
}

secs() {
	awk -v v="$1" 'BEGIN { if (v == "") print "n/a"; else if (v == -2) print "no drop";
		else if (v < 0) print "not reached"; else printf "%.1f s", v / 1000 }'
}

: >"$out/promote.md"
: >"$out/promote.json"
: >"$out/promote.series"
for b in "$@"; do
	ref=$(dram_ref "$b")
	for pol in dram none chmu numab damon; do
		f=$b/$pol.txt
		[ -s "$f" ] || continue
		label=$(label_of "$b" "$pol")
		m=$(metrics "$f" "$pol" "$ref")
		get() { sed -n "s/^$1=//p" <<<"$m"; }
		migrated=- inhot=- reached_b=- reached_a=- cpu_ns=-
		if [ "$pol" != dram ]; then
			read -r migrated inhot reached_b reached_a < <(awk -v hot="$hot" '!/^#/ && $4 == 0 {
					n++; if ($5) h++; if ($5 % 2 == 1) b++; if ($5 >= 2) a++ }
				END { printf "%d %.3f %.3f %.3f\n", n, n ? h / n : 0, hot ? b / hot : 0, hot ? a / hot : 0 }' \
				"$b/$pol.placement")
		fi
		# the mechanism's CPU, and its own count of pages migrated (to
		# check the placement's against); empty where it measured nothing
		num() { local x=; [ ! -f "$2" ] || x=$(kv "$1" "$2"); echo "${x:-0}"; }
		vmstat_of() { [ -f "$2" ] && awk -v k="$1" '$1 == k { v = $2 } END { print v + 0 }' "$2" || echo 0; }
		counted=-
		case "$pol" in
		chmu)
			cpu_ns=$(($(num promote_worker_ns "$b/chmu.cost") + $(num drain_ns "$b/chmu.cost")))
			counted=$(num promote_promoted "$b/chmu.cost") ;;
		damon)
			cpu_ns=$(num probe_oncpu_ns "$b/damon.cost")
			counted=$(($(num damon_sz_applied "$b/damon.cost") / 4096)) ;;
		numab)
			cpu_ns=$(($(num probe_scan_ns "$b/numab.cost") + $(num probe_fault_ns "$b/numab.cost")))
			counted=$(($(vmstat_of pgpromote_success "$b/numab.vm1") - $(vmstat_of pgpromote_success "$b/numab.vm0"))) ;;
		esac
		run_ns=$(kv ns "$f")
		cpu_ms=$([ "$cpu_ns" = - ] && echo - || awk -v v="$cpu_ns" 'BEGIN { printf "%.0f", v / 1e6 }')
		cpu_pct=$([ "$cpu_ns" = - ] && echo - || awk -v v="$cpu_ns" -v r="$run_ns" 'BEGIN { printf "%.2f", 100 * v / r }')
		printf '| %s | %s | %s | %s | %s | %s | %s | %s / %s | %s | %s | %s | %s / %s | %s | %s |\n' \
			"$label" "$(get steady_before)" "$(get steady_after)" \
			"$(secs "$(get t90_ms)")" "$(secs "$(get t90_move_ms)")" \
			"$(secs "$(get cxl10_ms)")" "$(secs "$(get cxl10_move_ms)")" \
			"$(get cxl_before)" "$(get cxl_after)" "$migrated" "$counted" "$inhot" \
			"$reached_b" "$reached_a" "$cpu_ms" "$cpu_pct" >>"$out/promote.md"
		jnum() { [ "$1" = - ] || [ -z "$1" ] && echo null || echo "$1"; }
		printf '{"policy":"%s","label":"%s","steady_before":%s,"steady_after":%s,"t90_ms":%s,"t90_move_ms":%s,"cxl10_ms":%s,"cxl10_move_ms":%s,"cxl_before":%s,"cxl_after":%s,"migrated":%s,"migrated_counted":%s,"in_hot_set":%s,"hot_before_on_dram":%s,"hot_after_on_dram":%s,"cpu_ns":%s,"run_ns":%s,"dram_ref":%s}\n' \
			"$pol" "$label" "$(get steady_before)" "$(get steady_after)" "$(get t90_ms)" \
			"$(get t90_move_ms)" "$(get cxl10_ms)" "$(get cxl10_move_ms)" "$(get cxl_before)" \
			"$(get cxl_after)" "$(jnum "$migrated")" "$(jnum "$counted")" "$(jnum "$inhot")" \
			"$(jnum "$reached_b")" "$(jnum "$reached_a")" "$(jnum "$cpu_ns")" "$(jnum "$run_ns")" \
			"$ref" >>"$out/promote.json"
		intervals "$f" | awk -v l="$label" '{ print l "\t" $1 "\t" $4 }' >>"$out/promote.series"
	done
done

# The plot: throughput over time per run, the move marked.
shift_ms=$(($(kv shift_ns "$base/none.txt") / 1000000))
awk -F'\t' -v shift="$shift_ms" '
	{ if (!($1 in idx)) { idx[$1] = n; name[n++] = $1 }
	  k = idx[$1]; x[k, cnt[k]] = $2 / 1000; y[k, cnt[k]++] = $3 / 1e6
	  if ($2 / 1000 > xm) xm = $2 / 1000; if ($3 / 1e6 > ym) ym = $3 / 1e6 }
	END {
		W = 880; H = 420; L = 60; R = 350; T = 20; B = 40
		pw = W - L - R; ph = H - T - B; ym *= 1.05
		split("#444444 #d62728 #1f77b4 #2ca02c #9467bd #ff7f0e #8c564b", col, " ")
		printf "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" font-family=\"sans-serif\" font-size=\"12\">\n", W, H
		printf "<rect width=\"%d\" height=\"%d\" fill=\"white\"/>\n", W, H
		printf "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"black\"/>\n", L, T + ph, L + pw, T + ph
		printf "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"black\"/>\n", L, T, L, T + ph
		for (i = 0; i <= 4; i++) {
			yy = T + ph - i * ph / 4
			printf "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%.1f</text>\n", L - 5, yy + 4, ym * i / 4
			xx = L + i * pw / 4
			printf "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%.0f</text>\n", xx, T + ph + 15, xm * i / 4
		}
		printf "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">seconds from the start</text>\n", L + pw / 2, H - 5
		printf "<text x=\"15\" y=\"%d\" transform=\"rotate(-90 15 %d)\" text-anchor=\"middle\">M accesses/s</text>\n", T + ph / 2, T + ph / 2
		sx = L + shift / 1000 / xm * pw
		printf "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"gray\" stroke-dasharray=\"4 3\"/>\n", sx, T, sx, T + ph
		printf "<text x=\"%.1f\" y=\"%d\" fill=\"gray\">hot set moves</text>\n", sx + 4, T + 12
		for (k = 0; k < n; k++) {
			printf "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"1.5\" points=\"", col[k % 7 + 1]
			for (i = 0; i < cnt[k]; i++)
				printf "%.1f,%.1f ", L + x[k, i] / xm * pw, T + ph - y[k, i] / ym * ph
			printf "\"/>\n"
			printf "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"%s\" stroke-width=\"3\"/>\n", L + pw + 10, T + 10 + 18 * k, L + pw + 30, T + 10 + 18 * k, col[k % 7 + 1]
			printf "<text x=\"%d\" y=\"%d\">%s</text>\n", L + pw + 35, T + 14 + 18 * k, name[k]
		}
		print "</svg>"
	}' "$out/promote.series" >"$out/promote.svg"

# The goals, against the exact tracker's promoter (first boot's chmu run)
jget() { grep "\"policy\":\"$1\"" "$out/promote.json" | head -n 1 | sed -n "s/.*\"$2\":\\([^,}]*\\).*/\\1/p" | grep -v '^null$' || true; }
c90=$(jget chmu t90_ms) n90=$(jget numab t90_ms) d90=$(jget damon t90_ms)
c10=$(jget chmu cxl10_ms) n10=$(jget numab cxl10_ms) d10=$(jget damon cxl10_ms)
faster() { # faster MINE THEIRS...: "met"/"not met" for at least twice as fast as each
	[ -n "$1" ] && [ -n "$2" ] && [ -n "$3" ] || { echo "n/a (a run is missing)"; return; }
	awk -v m="$1" -v a="$2" -v b="$3" 'BEGIN {
		if (m < 0) { print "not met (never reached)"; exit }
		ok = (a < 0 || m * 2 <= a) && (b < 0 || m * 2 <= b)
		print (ok ? "met" : "not met") }'
}
{
	echo
	echo '| goal | measured | met |'
	echo '|---|---|---|'
	echo "| CHMU promoter reaches 90% of all-DRAM at least 2x as fast as NUMA balancing and DAMON | $(secs "$c90") vs $(secs "$n90"), $(secs "$d90") | $(faster "$c90" "$n90" "$d90") |"
	echo "| (hardware-independent) CXL share down to 10% at least 2x as fast | $(secs "$c10") vs $(secs "$n10"), $(secs "$d10") | $(faster "$c10" "$n10" "$d10") |"
	ih=$(jget chmu in_hot_set)
	echo "| at least 95% of the promoter's migrations in the true hot set | ${ih:-n/a} | $([ -n "$ih" ] && awk -v v="$ih" 'BEGIN { print (v >= 0.95 ? "met" : "not met") }' || echo n/a) |"
	cc=$(jget chmu cpu_ns) dc=$(jget damon cpu_ns)
	if [ -n "$cc" ] && [ -n "$dc" ]; then
		echo "| promoter CPU at most a tenth of DAMON's | $(awk -v a="$cc" -v b="$dc" 'BEGIN { printf "%.0f ms vs %.0f ms", a / 1e6, b / 1e6 }') | $(awk -v a="$cc" -v b="$dc" 'BEGIN { print ((b > 0 && a * 10 <= b) ? "met" : "not met") }') |"
	else
		echo "| promoter CPU at most a tenth of DAMON's | n/a | n/a (a run is missing) |"
	fi
} >"$out/promote-goals.md"
