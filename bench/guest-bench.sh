#!/bin/bash
# Runs in the guest (bench/run.sh):
#   guest-bench.sh memory        DRAM vs CXL throughput
#   guest-bench.sh chmu LABEL    CXL throughput with the CHMU off, then on
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
esac
chmu-region destroy "$REGION"
