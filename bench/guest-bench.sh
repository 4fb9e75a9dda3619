#!/bin/bash
# Runs in the guest (bench/run.sh):
#   guest-bench.sh memory        DRAM vs CXL throughput
#   guest-bench.sh chmu LABEL    CXL throughput with the CHMU off, then on
#   guest-bench.sh drain         the driver's drain cost per hotlist entry
#                                under each consumer, and the toolkit's CPU
set -euo pipefail
R=${CHMU_RESULTS:?}
PASSES=${BENCH_PASSES:-8}
BYTES=${BENCH_SIZE:-2M}

rate() { # rate ARGS... : the accesses/s chmu-workload stream reports
	chmu-workload stream --size "$BYTES" --passes "$PASSES" "$@" |
		sed -n 's/^rate=//p'
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", a / b }'; }

eval "$(chmu-region create -m mem0 --devdax)"
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
	off=$(rate --dax "$DEV")
	chmu-regs enable -m epoch -e 1000000 -t 1 -u 12 >/dev/null
	on=$(rate --dax "$DEV")
	chmu-regs disable >/dev/null
	printf '| %s | %s | %s | %s |\n' "$2" "$off" "$on" "$(ratio "$on" "$off")" >"$R/row.md"
	printf '{"tracker":"%s","disabled":%s,"enabled":%s,"ratio":%s}' \
		"$2" "$off" "$on" "$(ratio "$on" "$off")" >"$R/row.json"
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
	bpf_ns() { bpftool prog show -j | jq '[.[] | .run_time_ns // 0] | add // 0'; }
	cpu_ns() { # user+system time of process $1, in ns
		awk -v hz="$(getconf CLK_TCK)" '{ printf "%.0f", ($14 + $15) * 1e9 / hz }' "/proc/$1/stat"
	}
	load() { chmu-workload stream --dax "$DEV" --size 2M --passes "${BENCH_DRAIN_PASSES:-6}" >/dev/null; }
	# measure LABEL [consumer command...]: one run of the load under it
	measure() {
		local label=$1 pid="" b0 b1 c=0
		shift
		if [ "${1-}" = perf ]; then
			shift
			chmu-perf "$@" -- sleep 600 >/dev/null &
			pid=$!
			for _ in $(seq 100); do [ "$(cat $I/owner)" = perf ] && break; sleep 0.1; done
		else
			echo 1 >$I/enable
			if [ $# -gt 0 ]; then
				"$@" >/dev/null 2>&1 &
				pid=$!
				sleep "${BENCH_ATTACH_WAIT:-5}"
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
			kill -INT "$pid" 2>/dev/null || true
			wait "$pid" 2>/dev/null || true
		fi
		[ "$(cat $I/owner)" = sysfs ] && echo 0 >$I/enable
		echo "$label|$e|$d|$((b1 - b0))|$c" >>"$R/drain.txt"
	}
	: >"$R/drain.txt"
	measure "tracepoints disabled"
	echo 1 >$T/events/chmu/enable
	echo 0 >$T/tracing_on
	measure "tracepoints enabled, no consumer"
	echo 0 >$T/events/chmu/enable
	echo 1 >$T/tracing_on
	measure "chmutop" chmutop -b 1
	measure "chmuheat" chmuheat --no-heatmap 1
	measure "bpftrace one-liner" bpftrace -e 'tracepoint:chmu:chmu_hotlist_entry { @[args->dpa] = sum(args->count); }'
	measure "perf AUX" perf "cxl_hmu_mem0.0.0/epoch_type=1,access_type=6,hotness_threshold=4,hotness_granual=12/"
	base=$(awk -F'|' 'NR == 1 { printf "%.1f", $3 / $2 }' "$R/drain.txt")
	awk -F'|' -v base="$base" '{
		pe = $3 / $2
		printf "| %s | %d | %.1f | %.2f |\n", $1, $2, pe, pe / base
	}' "$R/drain.txt" >"$R/drain.md"
	awk -F'|' '$1 == "chmutop" || $1 == "bpftrace one-liner" {
		printf "| %s | %d | %.1f | %.1f | %.1f |\n", $1, $2, $4 / $2, $5 / $2, ($4 + $5) / $2
	}' "$R/drain.txt" >"$R/cpu.md"
	awk -F'|' 'BEGIN { printf "[" } { printf "%s{\"consumer\":\"%s\",\"entries\":%d,\"drain_ns\":%d,\"bpf_ns\":%d,\"user_ns\":%d}", (NR > 1 ? "," : ""), $1, $2, $3, $4, $5 } END { printf "]" }' \
		"$R/drain.txt" >"$R/drain.json"
	;;
esac
chmu-region destroy "$REGION"
