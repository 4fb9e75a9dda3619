#!/bin/bash
# Runs in the guest (bench/run.sh). Each figure is measured in this one run,
# side by side, and reported with how it was obtained.
set -euo pipefail
R=${CHMU_RESULTS:?}
PASSES=${BENCH_PASSES:-8}
BYTES=${BENCH_SIZE:-2M}

rate() { # rate ARGS... : the accesses/s chmu-workload stream reports
	chmu-workload stream --size "$BYTES" --passes "$PASSES" "$@" |
		sed -n 's/^rate=//p'
}

eval "$(chmu-region create -m mem0 --devdax)"
dram_r=$(rate --anon)
dram_w=$(rate --anon --write)
cxl_r=$(rate --dax "$DEV")
cxl_w=$(rate --dax "$DEV" --write)
chmu-region destroy "$REGION"

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.4f", a / b }'; }

cat >"$R/results.md" <<MD
# CHMU lab benchmarks

Guest: $(nproc) vCPUs under TCG, kernel $(uname -r). Each rate is
\`chmu-workload stream\`: $PASSES sequential passes of aligned 8-byte
accesses over $BYTES, timed with CLOCK_MONOTONIC, all measured in this run.

## Guest memory throughput (accesses/s)

| memory | read | write |
|---|---|---|
| DRAM (node 0, anonymous) | $dram_r | $dram_w |
| CXL (device DAX, $DEV) | $cxl_r | $cxl_w |
| CXL / DRAM ratio | $(ratio "$cxl_r" "$dram_r") | $(ratio "$cxl_w" "$dram_w") |

Under TCG every access to CXL memory is an MMIO access that reaches the
emulated device, so the CXL rate is the device model's rate.
MD
cat >"$R/results.json" <<JSON
{"version":1,"passes":$PASSES,"size":"$BYTES","kernel":"$(uname -r)",
 "dram_read":$dram_r,"dram_write":$dram_w,"cxl_read":$cxl_r,"cxl_write":$cxl_w,
 "cxl_dram_read_ratio":$(ratio "$cxl_r" "$dram_r"),"cxl_dram_write_ratio":$(ratio "$cxl_w" "$dram_w")}
JSON
