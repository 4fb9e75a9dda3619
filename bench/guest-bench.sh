#!/bin/bash
# Runs in the guest (bench/run.sh):
#   guest-bench.sh memory        DRAM vs CXL throughput
#   guest-bench.sh chmu LABEL    CXL throughput with the CHMU off, then on
#   guest-bench.sh drain         the driver's drain cost per hotlist entry
#                                under each consumer, and the toolkit's CPU
#   guest-bench.sh scale LABEL   drain cost per entry with chmutop attached
#                                as enabled instances and entry rate grow
#                                (LABEL: the boot's hotlist size)
#   guest-bench.sh shift LABEL   how many epochs the tracker model needs to
#                                follow a Zipf hot set that moves halfway
#   guest-bench.sh accuracy LABEL [damon]
#                                top-K recall/precision of chmutop on a Zipf
#                                workload with known truth; with damon, DAMON
#                                watches the same run (paddr, sysfs)
# Settings (bench/run.sh passes the host's BENCH_* on):
#   BENCH_ROUNDS=5        off/on rounds per tracker model (chmu)
#   BENCH_DRAIN_ROUNDS=5  rounds over all consumers (drain)
#   BENCH_DRAIN_PASSES=4, BENCH_SCALE_PASSES=4, BENCH_PASSES=8, BENCH_SIZE=2M
#                         the streams' passes and size
set -euo pipefail
R=${CHMU_RESULTS:?}
PASSES=${BENCH_PASSES:-8}
BYTES=${BENCH_SIZE:-2M}

rate() { # rate ARGS... : the accesses/s chmu-workload stream reports
	chmu-workload stream --size "$BYTES" --passes "$PASSES" "$@" |
		sed -n 's/^rate=//p'
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", a / b }'; }
# median: the median of the numbers on stdin, one per line
median() {
	sort -g | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
ROUNDS=${BENCH_ROUNDS:-5}
# bpf_ns: the run time of all BPF programs (kernel.bpf_stats_enabled)
bpf_ns() { bpftool prog show -j | jq '[.[] | .run_time_ns // 0] | add // 0'; }
# cpu_ns PID: the user+system time of a process, in ns
cpu_ns() {
	awk -v hz="$(getconf CLK_TCK)" '{ printf "%.0f", ($14 + $15) * 1e9 / hz }' "/proc/$1/stat"
}
# attachments: BPF links plus perf-event attachments (bpftrace's
# tracepoints); a consumer is attached once the count grows
attachments() {
	echo $(($(bpftool link show -j | jq length) + $(bpftool perf show -j | jq length)))
}
# wait_attached WHAT COUNT: wait until attachments() exceeds COUNT (BPF
# loads slowly under TCG, bpftrace's most of all), then for the
# consumer's remaining attachments and first interval
wait_attached() {
	for _ in $(seq 300); do [ "$(attachments)" -gt "$2" ] && break; sleep 0.5; done
	[ "$(attachments)" -gt "$2" ] || { echo "bench: $1 did not attach" >&2; exit 1; }
	sleep 2
}

if [ "$1" = accuracy ] || [ "$1" = shift ]; then
	eval "$(chmu-region create -m mem0 --ram)"
else
	eval "$(chmu-region create -m mem0 --devdax)"
fi
# per_epoch KEY TRUTH...: for each of chmutop's intervals with entries
# ($R/chmutop.json; a 1 s interval = a 1 s epoch), "INTERVAL K" and then
# chmu-score's KEY against each TRUTH, where K is how many units the
# monitor posted that interval (at most 64), ranked by the interval's sum
per_epoch() {
	local key=$1 n k t line
	shift
	jq -r 'select(.type == "unit" and .interval_sum > 0) | "\(.interval) \(.hpa) \(.interval_sum)"' \
		"$R/chmutop.json" >"$R/per-epoch.txt"
	for n in $(cut -d' ' -f1 "$R/per-epoch.txt" | sort -n | uniq); do
		awk -v n="$n" '$1 == n { print $2, $3 }' "$R/per-epoch.txt" >/run/epoch.txt
		k=$(wc -l </run/epoch.txt)
		[ "$k" -le 64 ] || k=64
		line="$n $k"
		for t; do
			line+=" $(chmu-score -k "$k" "$t" /run/epoch.txt | sed -n "s/^$key=//p")"
		done
		echo "$line"
	done
}
case "$1" in
memory)
	dram_r=$(rate --anon)
	dram_w=$(rate --anon --write)
	cxl_r=$(rate --dax "$DEV")
	cxl_w=$(rate --dax "$DEV" --write)
	cat >"$R/section.md" <<MD
# CHMU lab benchmarks

Guest: $(nproc) vCPUs under TCG, kernel $(uname -r). Each rate is
\`chmu-workload stream\`: $PASSES sequential passes of aligned 8-byte
accesses over $BYTES, timed with CLOCK_MONOTONIC inside the guest.

## Guest memory throughput (accesses/s)

| memory | read | write |
|---|---|---|
| DRAM (node 0, anonymous) | $dram_r | $dram_w |
| CXL (device DAX, $DEV), CHMU disabled | $cxl_r | $cxl_w |
| CXL / DRAM | $(ratio "$cxl_r" "$dram_r") | $(ratio "$cxl_w" "$dram_w") |

Under TCG every access to CXL memory is an MMIO access that reaches the
emulated device, so the CXL rate is the device model's rate.
MD
	printf '{"dram_read":%s,"dram_write":%s,"cxl_read":%s,"cxl_write":%s}' \
		"$dram_r" "$dram_w" "$cxl_r" "$cxl_w" >"$R/section.json"
	;;
chmu)
	# Rounds of disabled-then-enabled streams, alternating, so that a
	# change in TCG's pace during the boot lands on both sides; the
	# median of the rounds' ratios, and their range.
	: >"$R/rounds.txt"
	for ((r = 0; r < ROUNDS; r++)); do
		off=$(rate --dax "$DEV")
		chmu-regs enable -m epoch -e 1000000 -t 1 -u 12 >/dev/null
		on=$(rate --dax "$DEV")
		chmu-regs disable >/dev/null
		echo "$off $on $(ratio "$on" "$off")" >>"$R/rounds.txt"
	done
	read -r off on med lo hi <<<"$(printf '%s %s %s %s %s' \
		"$(cut -d' ' -f1 "$R/rounds.txt" | median)" \
		"$(cut -d' ' -f2 "$R/rounds.txt" | median)" \
		"$(cut -d' ' -f3 "$R/rounds.txt" | median)" \
		"$(cut -d' ' -f3 "$R/rounds.txt" | sort -g | head -n 1)" \
		"$(cut -d' ' -f3 "$R/rounds.txt" | sort -g | tail -n 1)")"
	# Epoch end under load: 100 ms epochs, threshold 1, each round
	# touching 16384 units (64 MiB) once, then draining the list; QEMU's
	# cxl_chmu_epoch_end trace (bench/run.sh) times each epoch end.
	chmu-regs enable -m epoch -e 100000 -t 1 -u 12 >/dev/null
	for ((r = 0; r < ROUNDS * 2; r++)); do
		chmu-workload touch --dax "$DEV" --size 64M --units 0-16383 >/dev/null
		sleep 0.3
		chmu-regs drain >/dev/null
	done
	chmu-regs disable >/dev/null
	printf '| %s | %.0f | %.0f | %s | %s-%s |' "$2" "$off" "$on" "$med" "$lo" "$hi" >"$R/row.md"
	printf '{"tracker":"%s","rounds":%d,"disabled":%.0f,"enabled":%.0f,"ratio":%s,"ratio_min":%s,"ratio_max":%s}' \
		"$2" "$ROUNDS" "$off" "$on" "$med" "$lo" "$hi" >"$R/row.json"
	;;
drain)
	modprobe cxl_hmu
	I=/sys/bus/cxl/devices/hmu_mem0.0/hmu_mem0.0.0
	T=/sys/kernel/tracing
	sysctl -q kernel.bpf_stats_enabled=1
	echo always-on >$I/mode
	echo 4 >$I/threshold
	echo 12 >$I/unit_shift
	echo 256 >$I/fill_threshold
	load() { chmu-workload stream --dax "$DEV" --size 2M --passes "${BENCH_DRAIN_PASSES:-4}" >/dev/null; }
	# measure LABEL [consumer command...]: one run of the load under it,
	# appended to drain.txt as LABEL|entries|drain_ns|bpf_ns|process_ns
	measure() {
		local label=$1 pid="" b0 b1 c=0 a0
		shift
		if [ "${1-}" = perf ]; then
			shift
			chmu-perf "$@" -- sleep 600 >/dev/null &
			pid=$!
			for _ in $(seq 100); do [ "$(cat $I/owner)" = perf ] && break; sleep 0.1; done
			[ "$(cat $I/owner)" = perf ] || { echo "bench: chmu-perf did not take the instance" >&2; exit 1; }
		else
			echo 1 >$I/enable
			if [ $# -gt 0 ]; then
				a0=$(attachments)
				"$@" >/dev/null 2>&1 &
				pid=$!
				wait_attached "$label" "$a0"
			fi
		fi
		local c0=0 c1=0
		[ -n "$pid" ] && c0=$(cpu_ns "$pid")
		b0=$(bpf_ns)
		load
		sleep 1.5	# the tools' next interval: their user-space share
		b1=$(bpf_ns)
		[ -n "$pid" ] && c1=$(cpu_ns "$pid")
		c=$((c1 - c0))
		local e d
		e=$(cat $I/entries)
		d=$(cat $I/drain_ns)
		if [ -n "$pid" ]; then
			kill -INT "$pid" 2>/dev/null || true	# chmu-perf ends its sleep
			for _ in $(seq 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
			kill -KILL "$pid" 2>/dev/null || true
			wait "$pid" 2>/dev/null || true
		fi
		[ "$(cat $I/owner)" = sysfs ] && echo 0 >$I/enable
		echo "$label|$e|$d|$((b1 - b0))|$c" >>"$R/drain.txt"
	}
	# Rounds: every consumer once per round, in the same order, so a
	# change of pace during the boot spreads over all of them; per
	# consumer the median of its rounds.
	: >"$R/drain.txt"
	for ((r = 0; r < ${BENCH_DRAIN_ROUNDS:-5}; r++)); do
		measure "tracepoints disabled"
		echo 1 >$T/events/chmu/enable
		echo 0 >$T/tracing_on
		measure "tracepoints enabled, no consumer"
		echo 0 >$T/events/chmu/enable
		echo 1 >$T/tracing_on
		measure "chmutop" chmutop -b 1
		measure "chmuheat" chmuheat --no-heatmap 1
		measure "chmualert" chmualert -c 1000000 --ringbuf-size 4M 1
		measure "chmu-exporter" chmu-exporter -l 127.0.0.1:9851
		measure "bpftrace one-liner" bpftrace -e 'tracepoint:chmu:chmu_hotlist_entry { @[args->dpa] = sum(args->count); }'
		measure "bpftrace, chmutop's equivalent" bpftrace bench/chmutop-equivalent.bt
		measure "perf AUX" perf "cxl_hmu_mem0.0.0/epoch_type=1,access_type=6,hotness_threshold=4,hotness_granual=12/"
	done
	# per consumer, in first-seen order: median entries, median ns per
	# entry (drain, BPF, process) and the range of the drain's
	awk -F'|' '
	function med(a, n,   i, j, t) {
		for (i = 2; i <= n; i++)
			for (j = i; j > 1 && a[j - 1] > a[j]; j--) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
		return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
	}
	!($1 in n) { order[++nc] = $1 }
	{ k = ++n[$1]; E[$1, k] = $2; D[$1, k] = $3 / $2; B[$1, k] = $4 / $2; P[$1, k] = $5 / $2 }
	END {
		for (c = 1; c <= nc; c++) {
			l = order[c]; m = n[l]
			lo = hi = D[l, 1]
			for (k = 1; k <= m; k++) {
				e[k] = E[l, k]; d[k] = D[l, k]; b[k] = B[l, k]; p[k] = P[l, k]
				if (d[k] < lo) lo = d[k]
				if (d[k] > hi) hi = d[k]
			}
			printf "%s|%d|%.1f|%.1f|%.1f|%.1f|%.1f|%d\n", l, med(e, m), med(d, m), lo, hi, med(b, m), med(p, m), m
		}
	}' "$R/drain.txt" >"$R/drain.med"
	base=$(awk -F'|' 'NR == 1 { print $3 }' "$R/drain.med")
	awk -F'|' -v base="$base" '{
		printf "| %s | %d | %.1f | %.0f-%.0f | %.2f |\n", $1, $2, $3, $4, $5, $3 / base
	}' "$R/drain.med" >"$R/drain.md"
	awk -F'|' '$1 ~ /^(chmutop|chmuheat|chmualert|chmu-exporter|bpftrace)/ {
		printf "| %s | %d | %.1f | %.1f | %.1f |\n", $1, $2, $6, $7, $6 + $7
	}' "$R/drain.med" >"$R/cpu.md"
	awk -F'|' 'BEGIN { printf "[" } { printf "%s{\"consumer\":\"%s\",\"rounds\":%d,\"entries\":%d,\"drain_ns_per_entry\":%s,\"drain_ns_per_entry_min\":%s,\"drain_ns_per_entry_max\":%s,\"bpf_ns_per_entry\":%s,\"process_ns_per_entry\":%s}", (NR > 1 ? "," : ""), $1, $8, $2, $3, $4, $5, $6, $7 } END { printf "]" }' \
		"$R/drain.med" >"$R/drain.json"
	;;
scale)
	modprobe cxl_hmu
	B=/sys/bus/cxl/devices/hmu_mem0.0
	ninst=$(cat $B/num_instances)
	size=$(cat $B/hmu_mem0.0.0/hotlist_size)
	# run N THRESHOLD: N instances enabled (always-on, 4 KiB units, fill at
	# a quarter of the list), chmutop on all of them, one load; prints
	# "N|THRESHOLD|entries|drain_ns|seconds" summed over the instances
	run() {
		local n=$1 thr=$2 i top t0 t1 e=0 d=0 a0
		for ((i = 0; i < n; i++)); do
			I=$B/hmu_mem0.0.$i
			echo always-on >$I/mode
			echo "$thr" >$I/threshold
			echo 12 >$I/unit_shift
			echo $((size / 4)) >$I/fill_threshold
			echo 1 >$I/enable
		done
		a0=$(attachments)
		chmutop -b 1 >/dev/null 2>&1 &
		top=$!
		wait_attached chmutop "$a0"
		t0=$(date +%s.%N)
		chmu-workload stream --dax "$DEV" --size 2M --passes "${BENCH_SCALE_PASSES:-4}" >/dev/null
		sleep 1.5
		t1=$(date +%s.%N)
		for ((i = 0; i < n; i++)); do
			I=$B/hmu_mem0.0.$i
			e=$((e + $(cat $I/entries)))
			d=$((d + $(cat $I/drain_ns)))
		done
		kill -INT $top
		wait $top || true
		for ((i = 0; i < n; i++)); do echo 0 >$B/hmu_mem0.0.$i/enable; done
		echo "$n|$thr|$e|$d|$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')"
	}
	: >"$R/scale.txt"
	for n in 1 2 4; do
		[ "$n" -le "$ninst" ] && echo "$2|$(run "$n" 4)" >>"$R/scale.txt"
	done
	for thr in 64 16; do
		echo "$2|$(run 1 "$thr")" >>"$R/scale.txt"
	done
	awk -F'|' '{ printf "| %s | %d | %d | %d | %.0f | %.1f |\n", $1, $2, $3, $4, $4 / $6, $5 / $4 }' \
		"$R/scale.txt" >"$R/scale.md"
	awk -F'|' '{ printf "%s{\"hotlist_size\":%s,\"instances\":%d,\"threshold\":%d,\"entries\":%d,\"drain_ns\":%d,\"seconds\":%s}", (NR > 1 ? "," : ""), $1, $2, $3, $4, $5, $6 }' \
		"$R/scale.txt" >"$R/scale.json"
	;;
shift)
	# The Zipf run's hot set moves halfway (chmu-workload --shift). Per
	# epoch (chmutop's 1 s interval, by its interval sum): the share of
	# the hot set's K hottest units among the monitor's K (K = up to 64:
	# as many as it posted), against the old hot set (truth minus
	# truth.after) before the shift and the new one from it. A model is
	# back when its share of the new set reaches 90% of its mean share of
	# the old one over the full epochs before the shift.
	label=$2
	modprobe cxl_hmu
	I=/sys/bus/cxl/devices/hmu_mem0.0/hmu_mem0.0.0
	ACC_SIZE=${ACC_SIZE:-16M} ACC_N=${ACC_N:-16M} ACC_ZIPF=${ACC_ZIPF:-1.0}
	chmu-workload zipf --node "$NODE" --size "$ACC_SIZE" --accesses "$ACC_N" \
		--zipf "$ACC_ZIPF" --shift --truth "$R/truth" --wait >"$R/workload.txt" &
	wl=$!
	for _ in $(seq 300); do grep -q '^ready=' "$R/workload.txt" && break; sleep 0.1; done
	chmutop -b -j -s sum -r 4096 --max-units 16384 --enable -M epoch -e 1000000 \
		-t 1 -u 4K 1 >/run/chmutop.json 2>"$R/chmutop.err" &
	top=$!
	for _ in $(seq 300); do [ "$(cat $I/enable)" = 1 ] && break; sleep 0.1; done
	# chmutop enables the instance once attached and prints frame n
	# (from 0) about n + 1 s later: frame n covers [t_top + n s, + 1 s)
	t_top=$(date +%s%N)
	sleep 2.5
	t_start=$(date +%s%N)
	kill -USR1 $wl
	wait $wl
	sleep 2.5
	kill -INT $top
	wait $top || { cat "$R/chmutop.err" >&2; exit 1; }
	mv /run/chmutop.json "$R/chmutop.json"
	shift_ns=$(sed -n 's/^shift_ns=//p' "$R/workload.txt")
	s=$(( (t_start + ${shift_ns:?no shift_ns from chmu-workload} - t_top) / 1000000000 ))
	awk 'FNR == NR { if (!/^#/) a[$1] = $2; next } !/^#/ { print $1, $2 - a[$1] }' \
		"$R/truth.after" "$R/truth" >"$R/truth.before"
	# follow.txt: epoch (0 = the shift's) K share-of-old share-of-new
	per_epoch recall "$R/truth.before" "$R/truth.after" |
		awk -v s="$s" '{ $1 -= s; print }' >"$R/follow.txt"
	# the mean share of the old set over the epochs before the shift's,
	# the run's first (partial) epoch left out when there are others
	read -r before after first best <<<"$(awk '
		$1 < 0 { old[++no] = $3 }
		{ e[NR] = $1; v[NR] = $4 }
		$1 == 1 { f = $4 }
		$1 >= 0 && $4 > b { b = $4 }
		END {
			for (i = (no > 1 ? 2 : 1); i <= no; i++) { sb += old[i]; nb++ }
			m = nb ? sb / nb : 0
			for (i = 1; i <= NR; i++)
				if (e[i] >= 0 && v[i] >= 0.9 * m && x == "") x = e[i]
			printf "%.3f %s %.3f %.3f\n", m, (x == "" ? -1 : x), f, b
		}' "$R/follow.txt")"
	printf '| %s | %s | %s | %s | %s |\n' "$label" "$before" \
		"$([ "$after" -ge 0 ] && echo "$after" || echo "not within the run")" "$first" "$best" >"$R/shift.md"
	printf '{"monitor":"%s","share_before":%s,"epochs_to_90":%s,"share_first_epoch":%s,"share_best":%s,"shift_epoch":%s,"t_top_ns":%s,"t_start_ns":%s,"shift_ns":%s}\n' \
		"$label" "$before" "$after" "$first" "$best" "$s" "$t_top" "$t_start" "$shift_ns" >"$R/shift.json"
	;;
accuracy)
	label=$2 damon=${3-}
	modprobe cxl_hmu
	I=/sys/bus/cxl/devices/hmu_mem0.0/hmu_mem0.0.0
	D=/sys/kernel/mm/damon/admin/kdamonds
	C=$D/0/contexts/0
	sysctl -q kernel.bpf_stats_enabled=1
	ACC_SIZE=${ACC_SIZE:-16M} ACC_N=${ACC_N:-16M} ACC_ZIPF=${ACC_ZIPF:-1.0}
	ACC_THR=${ACC_THR:-1}
	# DAMON: physical-address monitoring of the region through sysfs, a
	# 'stat' scheme matching every region so tried_regions can be read,
	# one snapshot a second, summed. kdamond 0: default attributes (5 ms
	# samples, 100 ms aggregation, 10..1000 regions); kdamond 1: tuned
	# finer (1 ms samples, 20 ms aggregation, 1000..10000 regions).
	damon_on() {
		local k c m
		echo 2 >$D/nr_kdamonds
		for k in 0 1; do
			echo 1 >$D/$k/contexts/nr_contexts
			c=$D/$k/contexts/0
			echo paddr >$c/operations
			set -- 5000 100000 10 1000
			[ $k = 0 ] || set -- 1000 20000 1000 10000
			echo "$1" >$c/monitoring_attrs/intervals/sample_us
			echo "$2" >$c/monitoring_attrs/intervals/aggr_us
			echo 1000000 >$c/monitoring_attrs/intervals/update_us
			echo "$3" >$c/monitoring_attrs/nr_regions/min
			echo "$4" >$c/monitoring_attrs/nr_regions/max
			echo 1 >$c/targets/nr_targets
			echo 1 >$c/targets/0/regions/nr_regions
			echo "$HPA" >$c/targets/0/regions/0/start
			echo $((HPA + SIZE)) >$c/targets/0/regions/0/end
			echo 1 >$c/schemes/nr_schemes
			echo stat >$c/schemes/0/action
			for m in sz nr_accesses age; do	# match every region
				echo 4294967295 >$c/schemes/0/access_pattern/$m/max
			done
			echo on >$D/$k/state
		done
	}
	damon_snapshot() { # damon_snapshot K: "start end nr_accesses" per region
		local t=$D/$1/contexts/0/schemes/0/tried_regions
		echo update_schemes_tried_regions >$D/$1/state
		{ grep -r . $t --include=start --include=end --include=nr_accesses || true; } |
			awk -F: '{ n = split($1, p, "/"); r = p[n - 1]; v[r, p[n]] = $2; seen[r] = 1 }
				END { for (r in seen) print v[r, "start"], v[r, "end"], v[r, "nr_accesses"] }'
	}
	# The workload allocates (the kernel's zeroing writes every unit) and
	# waits; the monitors start; then its counted accesses run.
	chmu-workload zipf --node "$NODE" --size "$ACC_SIZE" --accesses "$ACC_N" \
		--zipf "$ACC_ZIPF" --truth "$R/truth" --wait >"$R/workload.txt" &
	wl=$!
	for _ in $(seq 300); do grep -q '^ready=' "$R/workload.txt" && break; sleep 0.1; done
	[ -z "$damon" ] || damon_on
	# chmutop writes to the guest's tmpfs: writing to the results share
	# (virtio-9p, slow under TCG) would be most of its process time.
	chmutop -b -j -s sum -r 512 --max-units 16384 --enable -M epoch -e 1000000 \
		-t "$ACC_THR" -u 4K 1 >/run/chmutop.json 2>"$R/chmutop.err" &
	top=$!
	for _ in $(seq 100); do [ "$(cat $I/enable)" = 1 ] && break; sleep 0.1; done
	sleep 2.5	# attached; the epoch of the allocation is over
	d0=$(cat $I/drain_ns) b0=$(bpf_ns) c0=$(cpu_ns $top)
	[ -z "$damon" ] || { k0=$(cpu_ns "$(cat $D/0/pid)"); f0=$(cpu_ns "$(cat $D/1/pid)"); }
	kill -USR1 $wl
	: >"$R/damon0.txt"
	: >"$R/damon1.txt"
	while kill -0 $wl 2>/dev/null; do
		sleep 1
		[ -z "$damon" ] || { damon_snapshot 0 >>"$R/damon0.txt"; damon_snapshot 1 >>"$R/damon1.txt"; }
	done
	wait $wl
	[ -z "$damon" ] || { k1=$(cpu_ns "$(cat $D/0/pid)"); f1=$(cpu_ns "$(cat $D/1/pid)"); }
	sleep 2.5	# the last epoch is posted and drained, the next frame read
	d1=$(cat $I/drain_ns) b1=$(bpf_ns) c1=$(cpu_ns $top)
	kill -INT $top
	wait $top || { cat "$R/chmutop.err" >&2; exit 1; }
	mv /run/chmutop.json "$R/chmutop.json"
	[ -z "$damon" ] || { echo off >$D/0/state; echo off >$D/1/state; }
	last=$(jq -s 'map(select(.type == "unit")) | max_by(.interval) | .interval' "$R/chmutop.json")
	jq -r --argjson n "$last" 'select(.type == "unit" and .interval == $n) | "\(.hpa) \(.sum)"' \
		"$R/chmutop.json" >"$R/chmu.txt"
	acc=$(sed -n 's/^accesses=//p' "$R/workload.txt")
	secs=$(awk '/^ns=/ { sub("ns=", ""); printf "%.2f", $0 / 1e9 }' "$R/workload.txt")
	score() { # score FILE K: recall precision captured ideal reported tied
		chmu-score -k "$2" "$R/truth" "$1" |
			awk -F= '{ v[$1] = $2 } END { print v["recall"], v["precision"], v["captured"], v["ideal"], v["reported"], v["tied"], v["ratio"] }'
	}
	# epoch_ratio: M5's access-count ratio per epoch (chmutop's interval of
	# 1 s = one epoch): the true accesses of the units the monitor posted
	# most of that epoch (its K = up to 64 hottest by the interval's sum)
	# over those of the K truly hottest; "mean min" over the epochs in
	# which it posted anything. The workload is stationary, so the run's
	# truth is each epoch's, scaled.
	epoch_ratio() {
		per_epoch ratio "$R/truth" |
			awk '{ s += $3; if (NR == 1 || $3 < m) m = $3 } END { if (NR) printf "%.3f %.3f\n", s / NR, m }'
	}
	row() { # row NAME FILE CPU_NS [EPOCH_MEAN EPOCH_MIN]
		local k16 k64 k256 p64 c64 i64 n64 t64 r64
		read -r k16 _ <<<"$(score "$2" 16)"
		read -r k64 p64 c64 i64 n64 t64 r64 <<<"$(score "$2" 64)"
		[ -n "$r64" ] || { echo "bench: chmu-score failed on $2" >&2; exit 1; }
		read -r k256 _ <<<"$(score "$2" 256)"
		printf '| %s | %s | %s | %s | %s | %s | %s of %s | %s | %s | %.0f | %.1f%% |\n' \
			"$1" "$k16" "$k64" "$k256" "$p64" "$t64" "$c64" "$i64" "$r64" \
			"$([ -n "${4-}" ] && echo "$4 (min $5)" || echo -)" \
			"$(awk -v c="$3" 'BEGIN { print c / 1e6 }')" \
			"$(awk -v c="$3" -v s="$secs" 'BEGIN { print c / (s * 1e9) * 100 }')"
		printf '{"monitor":"%s","recall16":%s,"recall64":%s,"recall256":%s,"precision64":%s,"captured64":%s,"ideal64":%s,"ratio64":%s,%s"cpu_ns":%s,"seconds":%s,"accesses":%s}\n' \
			"$1" "$k16" "$k64" "$k256" "$p64" "$c64" "$i64" "$r64" \
			"$([ -n "${4-}" ] && printf '"ratio_epoch_mean":%s,"ratio_epoch_min":%s,' "$4" "$5")" \
			"$3" "$secs" "$acc" >>"$R/rows.json"
	}
	: >"$R/rows.json"
	echo "drain_ns=$((d1 - d0)) bpf_ns=$((b1 - b0)) chmutop_ns=$((c1 - c0))" >"$R/cpu.txt"
	read -r em emin <<<"$(epoch_ratio)"
	[ -n "$em" ] || { echo "bench: no epoch of chmutop's had an entry" >&2; exit 1; }
	row "CHMU, $label (chmutop)" "$R/chmu.txt" $((d1 - d0 + b1 - b0 + c1 - c0)) "$em" "$emin" >"$R/rows.md"
	if [ -n "$damon" ]; then
		row "DAMON paddr, default attributes" "$R/damon0.txt" $((k1 - k0)) >>"$R/rows.md"
		row "DAMON paddr, tuned finer" "$R/damon1.txt" $((f1 - f0)) >>"$R/rows.md"
	fi
	;;
esac
chmu-region destroy "$REGION"
