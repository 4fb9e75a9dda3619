#!/bin/bash
# accuracy-rows.sh accuracy|shift LABEL DIR: the rows of one accuracy or
# moved-hot-set boot (bench/guest-bench.sh wrote DIR), computed on the
# host: DIR/rows.md and DIR/rows.json (schema: docs/bench.md) and, per
# monitor, DIR/epochs-MONITOR.txt, one line per epoch:
#   OFFSET FULL K SHARE RATIO RATIO25 [SHARE RATIO RATIO25]
# against the truth (accuracy) or the old and the new hot set (shift).
# Needs jq and chmu-score on PATH.
#
# Epochs. chmutop's frames are as long as the device's epochs but not in
# phase with them, and an epoch's entries may take several drains (the
# list fills and is drained while the device posts the rest), so a frame
# is placed by the drains it holds (`first_batch_ns`, `last_batch_ns`),
# not by its own end: drains within half an epoch of the same epoch end
# belong to it, counted from the run's first drain. A frame holds one
# full epoch when all its drains belong to one epoch end that no other
# frame has drains of, and that epoch lies wholly within the workload's
# timed accesses (start_time_ns..end_time_ns). A DAMON snapshot's window
# is its aggregation interval before it was asked for, up to when it
# returned; it is placed by that window. With shift, offset 0 is the
# epoch that holds the moment of the shift, 1 the first one after;
# without, epochs are numbered from the run's first drain.
set -euo pipefail
mode=${1:?usage: accuracy-rows.sh accuracy|shift LABEL DIR} label=${2:?} R=${3:?}
die() { echo "accuracy-rows: $R: $*" >&2; exit 1; }
case $mode in accuracy | shift) ;; *) die "mode is accuracy or shift, not '$mode'" ;; esac
for f in chmutop.json truth workload.txt cpu.txt; do
	[ -s "$R/$f" ] || die "no $f"
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# kv FILE KEY: the value of KEY=VALUE in FILE (digits kept as text)
kv() { sed -n "s/^$2=//p" "$1" | head -n 1; }
# JSON integer fields by name, as text: jq 1.6 would round times > 2^53
jfield() { sed -n "s/.*\"$1\":\([0-9]*\).*/\1/p"; }
t0=$(kv "$R/workload.txt" start_time_ns)
t_end=$(kv "$R/workload.txt" end_time_ns)
[ -n "$t0" ] && [ -n "$t_end" ] || die "workload.txt has no start_time_ns/end_time_ns"
t_shift=
if [ "$mode" = shift ]; then
	t_shift=$(kv "$R/workload.txt" shift_time_ns)
	[ -n "$t_shift" ] || die "workload.txt has no shift_time_ns"
fi
acc=$(kv "$R/workload.txt" accesses)
secs=$(awk -v n="$(kv "$R/workload.txt" ns)" 'BEGIN { printf "%.2f", n / 1e9 }')
units=$(grep -vc '^#' "$R/truth")
# the shares a random pick of 64 units would hold, 5 times over: below
# it a steady share is noise, and "back to 90% of it" says nothing
floor=$(awk -v n="$units" 'BEGIN { printf "%.4f", 5 * 64 / n }')
# ms after the run's start, from ns since 1970 as text (exact: the
# millisecond parts are subtracted as integers of at most 13 digits)
ms() { # ms NS...
	awk -v b="$t0" 'function ms(t) {
			if (t == "" || t == 0) return "-"
			hi = substr(t, 1, length(t) - 6) - substr(b, 1, length(b) - 6)
			return hi + (substr(t, length(t) - 5) - substr(b, length(b) - 5)) / 1e6
		}
		BEGIN { for (i = 1; i < ARGC; i++) printf "%s%s", (i > 1 ? " " : ""), ms(ARGV[i]); print "" }' "$@"
}
end_ms=$(ms "$t_end")
shift_ms=$([ -z "$t_shift" ] || ms "$t_shift")
grep '"type":"instance"' "$R/chmutop.json" >"$tmp/inst.json" || die "chmutop wrote no frame"
epoch_ms=$(jq -r '.epoch_us' "$tmp/inst.json" | head -n 1 | awk '{ print $1 / 1000 }')
[ "${epoch_ms%.*}" -gt 0 ] 2>/dev/null || die "chmutop's instance has no epoch length"

# CHMU frames: "INTERVAL BATCHES FIRST_BATCH_MS LAST_BATCH_MS"
paste -d' ' <(jfield interval <"$tmp/inst.json") <(jfield batches <"$tmp/inst.json") \
	<(jfield first_batch_ns <"$tmp/inst.json" | while read -r t; do ms "$t"; done) \
	<(jfield last_batch_ns <"$tmp/inst.json" | while read -r t; do ms "$t"; done) >"$tmp/frames"
[ "$(awk 'NF == 4' "$tmp/frames" | wc -l)" = "$(wc -l <"$tmp/inst.json")" ] ||
	die "chmutop's frames lack first_batch_ns/last_batch_ns"
jq -r 'select(.type == "unit" and .interval_sum > 0) | "\(.interval) \(.hpa) \(.interval_sum)"' \
	"$R/chmutop.json" >"$tmp/units"

# chmu_place: "OFFSET FULL NAME" per CHMU frame that holds drains; with
# shift, also "shift AFTER_MS" on fd 3: from the shift to the first drain
# after it, the rest of the shift's epoch (the share of new accesses the
# shift's own epoch holds depends on it). A frame with drains but no
# first_batch_ns (one drained as chmutop's interval flipped) is not full.
chmu_place() {
	awk -v E="$epoch_ms" -v end="$end_ms" -v sh="$shift_ms" '
		function ep(t) { return int((t - ref) / E + (t >= ref ? 0.5 : -0.5)) }
		$2 > 0 && $4 != "-" {
			n++; name[n] = $1; l[n] = $4; f[n] = $3 == "-" ? $4 : $3; odd[n] = $3 == "-"
		}
		END {
			if (!n) exit
			ref = f[1]
			for (i = 1; i <= n; i++) { ef[i] = ep(f[i]); el[i] = ep(l[i]) }
			# the epoch of the first drain after the shift: its end is
			# the first after the shift
			ks = 0
			if (sh != "") {
				for (i = 1; i <= n && l[i] < sh; i++)
					;
				if (i > n) exit
				ks = f[i] >= sh ? ef[i] : ef[i] + 1
				printf "shift %.0f\n", (f[i] >= sh ? f[i] : l[i]) - sh > "/dev/fd/3"
			}
			for (i = 1; i <= n; i++) {
				# its epoch began at or before its first drain less E
				full = !odd[i] && ef[i] == el[i] && (i == 1 || el[i - 1] < ef[i]) &&
					(i == n || ef[i + 1] > el[i]) && f[i] - E >= 0 && l[i] <= end
				if (l[i] - E >= end) continue	# after the run
				print el[i] - ks, full, name[i]
			}
		}' "$tmp/frames" 3>"$tmp/shiftinfo"
}

# damon_place: "OFFSET FULL NAME" per DAMON snapshot, from its window
# "NAME START_MS END_MS"
damon_place() {
	awk -v E="$epoch_ms" -v end="$end_ms" -v sh="$shift_ms" '
		function fl(x) { return x >= 0 ? int(x) : -int(-x) - (int(-x) != -x) }
		{
			if ($3 <= 0 || $2 >= end) next	# outside the run
			full = $2 >= 0 && $3 <= end
			if (sh == "")
				off = NR - 1
			else if ($3 <= sh)
				off = -1 - fl((sh - $3) / E)
			else if ($2 < sh)
				off = 0
			else
				off = 1 + fl(($2 - sh) / E)
			print off, full, $1
		}'
}

# epochs MONITOR TRUTH...: DIR/epochs-MONITOR.txt
epochs() {
	local m=$1 off full name f k line t
	shift
	if [ "$m" = chmu ]; then
		chmu_place
	else
		local kd=${m#damon} a
		a=$(awk -v k="$kd" '$1 == k { print $2 / 1000 }' "$R/damon/attrs")
		while read -r k n req ret; do
			[ "$k" = "$kd" ] || continue
			read -r req ret <<<"$(ms "$req" "$ret")"
			echo "$kd.$n $(awk -v r="$req" -v a="$a" 'BEGIN { print r - a }') $ret"
		done <"$R/damon/times" | damon_place
	fi >"$tmp/placed"
	cp "$tmp/placed" "$tmp/placed-$m"
	: >"$R/epochs-$m.txt"
	while read -r off full name; do
		if [ "$m" = chmu ]; then
			awk -v n="$name" '$1 == n { print $2, $3 }' "$tmp/units" >"$tmp/epoch"
			k=$(wc -l <"$tmp/epoch")
			[ "$k" -gt 0 ] || continue
			[ "$k" -le 64 ] || k=64
		else
			f=$R/damon/$name
			cp "$f" "$tmp/epoch"
			k=64
		fi
		line="$off $full $k"
		for t in "$@"; do
			line+=" $(chmu-score -k "$k" "$t" "$tmp/epoch" |
				awk -F= '$1 == "recall" { r = $2 } $1 == "ratio" { q = $2 } END { print r, q }')"
			line+=" $(chmu-score -k "$((k < 25 ? k : 25))" "$t" "$tmp/epoch" | sed -n 's/^ratio=//p')"
		done
		echo "$line" >>"$R/epochs-$m.txt"
	done <"$tmp/placed"
}

monitors=(chmu)
if [ -e "$R/damon.tgz" ]; then
	rm -rf "$R/damon"
	tar xzf "$R/damon.tgz" -C "$R"
	monitors+=(damon0 damon1)
fi
name() {
	case $1 in
	chmu) echo "CHMU, $label (chmutop)" ;;
	damon0) echo "DAMON paddr, default attributes" ;;
	damon1) echo "DAMON paddr, tuned finer" ;;
	esac
}
sed 's/ /\n/g' "$R/cpu.txt" >"$tmp/cpu"
cpu_of() {
	case $1 in
	chmu) awk -F= '$1 ~ /^(drain|bpf|chmutop)_ns$/ { s += $2 } END { printf "%.0f\n", s }' "$tmp/cpu" ;;
	*) kv "$tmp/cpu" "$1_ns" ;;
	esac
}
# the run's report of a monitor: the last frame's sums; DAMON's
# snapshots whose window overlaps the run (after epochs MONITOR), summed
# by chmu-score
run_report() {
	if [ "$1" = chmu ]; then
		local last
		last=$(jq -s 'map(select(.type == "unit")) | max_by(.interval) | .interval' "$R/chmutop.json")
		jq -r --argjson n "$last" 'select(.type == "unit" and .interval == $n) | "\(.hpa) \(.sum)"' \
			"$R/chmutop.json"
	else
		local name
		while read -r _ _ name; do
			cat "$R/damon/$name"
		done <"$tmp/placed-$1"
	fi
}
# random K: the ratio K units picked at random would get over the run
random_ratio() {
	grep -v '^#' "$R/truth" | awk '{ print $2 }' | sort -rn |
		awk -v k="$1" '{ t += $1; if (NR <= k) top += $1 } END { printf "%.3f\n", k * t / NR / top }'
}
score() { # score FILE K: recall precision captured ideal reported tied ratio
	chmu-score -k "$2" "$R/truth" "$1" |
		awk -F= '{ v[$1] = $2 } END { print v["recall"], v["precision"], v["captured"], v["ideal"], v["reported"], v["tied"], v["ratio"] }'
}

: >"$R/rows.md"
: >"$R/rows.json"
if [ "$mode" = shift ]; then
	awk 'FNR == NR { if (!/^#/) a[$1] = $2; next } !/^#/ { print $1, $2 - a[$1] }' \
		"$R/truth.after" "$R/truth" >"$R/truth.before"
	s=$(chmu_place | awk '$1 >= 0 { print $3; exit }')
	rest=$(awk '$1 == "shift" { printf "%.3f", $2 / 1000 }' "$tmp/shiftinfo")
	[ -n "$s" ] || die "no chmutop frame holds a batch drained after the shift"
fi
rnd25=$(random_ratio 25) rnd64=$(random_ratio 64)
for m in "${monitors[@]}"; do
	if [ "$mode" = accuracy ]; then
		epochs "$m" "$R/truth"
	else
		epochs "$m" "$R/truth.before" "$R/truth.after"
	fi
	run_report "$m" >"$R/$m.txt"
	cpu=$(cpu_of "$m")
	[ -n "$cpu" ] || die "cpu.txt has no CPU time for $m"
	if [ "$mode" = accuracy ]; then
		read -r k16 p16 _ <<<"$(score "$R/$m.txt" 16)"
		read -r k64 p64 c64 i64 _ t64 r64 <<<"$(score "$R/$m.txt" 64)"
		read -r k256 p256 _ <<<"$(score "$R/$m.txt" 256)"
		[ -n "$r64" ] && [ -n "$k256" ] || die "chmu-score failed on $m"
		# per full epoch: the mean and worst ratio at K <= 64, the
		# mean at K <= 25
		read -r em emin e25 n <<<"$(awk '$2 == 1 { s += $5; t += $6; if (!n++ || $5 < m) m = $5 }
			END { if (n) printf "%.3f %.3f %.3f %d\n", s / n, m, t / n, n }' "$R/epochs-$m.txt")"
		[ -n "$em" ] || die "$m has no full epoch with an entry"
		printf '| %s | %s | %s | %s | %s | %s | %s | %s of %s | %s | %s (min %s) | %s | %.0f | %.1f%% |\n' \
			"$(name "$m")" "$k16" "$k64" "$k256" "$p16" "$p64" "$t64" "$c64" "$i64" "$r64" "$em" \
			"$emin" "$e25" "$(awk -v c="$cpu" 'BEGIN { print c / 1e6 }')" \
			"$(awk -v c="$cpu" -v s="$secs" 'BEGIN { print c / (s * 1e9) * 100 }')" >>"$R/rows.md"
		printf '{"monitor":"%s","recall16":%s,"recall64":%s,"recall256":%s,"precision16":%s,"precision64":%s,"precision256":%s,"tied64":%s,"captured64":%s,"ideal64":%s,"ratio64":%s,"ratio_epoch_mean":%s,"ratio_epoch_min":%s,"ratio25_epoch_mean":%s,"random25":%s,"random64":%s,"epochs":%s,"cpu_ns":%s,"seconds":%s,"accesses":%s}\n' \
			"$(name "$m")" "$k16" "$k64" "$k256" "$p16" "$p64" "$p256" "$t64" "$c64" "$i64" "$r64" \
			"$em" "$emin" "$e25" "$rnd25" "$rnd64" "$n" "$cpu" "$secs" "$acc" >>"$R/rows.json"
		continue
	fi
	# before: full epochs before the shift's (share and ratio against the
	# old set); after: full epochs after it (ratio against the new set);
	# back: the first epoch from the shift's whose share of the new set
	# is 90% of the steady share before (n/a below the noise floor);
	# abs: the first whose share of the new set is 0.9
	read -r before rb ra first best back abs <<<"$(awk -v floor="$floor" '
		$2 == 1 && $1 < 0 { sb += $4; rbs += $5; nb++ }
		$2 == 1 && $1 > 0 { ras += $8; na++; if (best == "" || $7 > best) best = $7 }
		$2 == 1 && $1 == 1 { first = $7 }
		{ off[NR] = $1; sh[NR] = $7; full[NR] = $2 }
		END {
			m = nb ? sb / nb : ""
			for (i = 1; i <= NR; i++) {
				if (off[i] < 0 || !full[i]) continue
				if (m != "" && m >= floor && back == "" && sh[i] >= 0.9 * m) back = off[i]
				if (abs == "" && sh[i] >= 0.9) abs = off[i]
			}
			if (m == "" || m < floor) back = "null"
			else if (back == "") back = -1
			if (abs == "") abs = -1
			f3 = "%.3f"
			printf "%s %s %s %s %s %s %s\n", (m == "" ? "null" : sprintf(f3, m)),
				(nb ? sprintf(f3, rbs / nb) : "null"), (na ? sprintf(f3, ras / na) : "null"),
				(first == "" ? "null" : sprintf(f3, first)), (best == "" ? "null" : sprintf(f3, best)),
				back, abs
		}' "$R/epochs-$m.txt")"
	read -r k64 _ _ _ _ _ r64 <<<"$(score "$R/$m.txt" 64)"
	[ -n "$r64" ] || die "chmu-score failed on $m"
	md() { case $1 in null) echo "n/a" ;; -1) echo "not within the run" ;; *) echo "$1" ;; esac; }
	printf '| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %.0f |\n' "$(name "$m")" "$(md "$before")" \
		"$([ "$back" = null ] && echo "n/a (noise)" || md "$back")" "$(md "$abs")" "$(md "$first")" \
		"$(md "$best")" "$(md "$rb")" "$(md "$ra")" "$k64" "$r64" \
		"$(awk -v c="$cpu" 'BEGIN { print c / 1e6 }')" >>"$R/rows.md"
	printf '{"monitor":"%s","share_before":%s,"epochs_to_90":%s,"epochs_to_90_abs":%s,"share_first_epoch":%s,"share_best":%s,"ratio_epoch_before":%s,"ratio_epoch_after":%s,"recall64":%s,"ratio64":%s,"cpu_ns":%s,"noise_floor":%s,"shift_frame":%s,"shift_s":%s,"shift_epoch_rest_s":%s,"seconds":%s}\n' \
		"$(name "$m")" "$before" "$back" "$abs" "$first" "$best" "$rb" "$ra" "$k64" "$r64" "$cpu" \
		"$floor" "$s" "$(awk -v t="$shift_ms" 'BEGIN { printf "%.3f", t / 1000 }')" "$rest" "$secs" >>"$R/rows.json"
done
