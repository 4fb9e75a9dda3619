#!/bin/bash
# make bench: boot the guest once per device configuration, run
# bench/guest-bench.sh in it, and write build/bench/results.md (table) and
# build/bench/results.json. Every ratio compares figures measured in the
# same guest, one after the other.
set -euo pipefail
cd "$(dirname "$0")/.."
. lab/lib.sh

out=build/bench
mkdir -p "$out"
res=$CHMU_CACHE/bench-results
rm -rf "$res"
mkdir -p "$res"

# label|CHMU_PROPS for each tracker model
models=(
	"exact|"
	"limited (4096 counters)|chmu-counters=4096"
	"exact + modelled LLC (1 MiB)|chmu-llc-size=1M"
)
msg BENCH "memory throughput, DRAM vs CXL"
CHMU_RESULTS=$res/base qemu/run-guest.sh 'bench/guest-bench.sh memory' >/dev/null
i=0
for m in "${models[@]}"; do
	msg BENCH "CHMU cost: ${m%%|*}"
	CHMU_PROPS=${m#*|} CHMU_RESULTS=$res/m$i \
		qemu/run-guest.sh "bench/guest-bench.sh chmu '${m%%|*}'" >/dev/null
	i=$((i + 1))
done

msg BENCH "drain cost per entry and toolkit CPU, per consumer"
CHMU_RESULTS=$res/drain qemu/run-guest.sh 'bench/guest-bench.sh drain' >/dev/null

{
	cat "$res/base/section.md"
	cat <<'MD'

## Cost of the CHMU on guest accesses to CXL memory

Each row is one guest boot with that tracker model: the same stream of
8-byte loads over a device-DAX mapping, first with the instance disabled,
then enabled (epoch mode, 1 s epochs, threshold 1, 4 KiB units, all ranges,
reads and writes). Target: enabled/disabled >= 0.90 for the exact tracker.

| tracker | disabled (accesses/s) | enabled (accesses/s) | enabled / disabled |
|---|---|---|---|
MD
	cat "$res"/m*/row.md
	cat <<'MD'

## Drain cost per hotlist entry, per consumer

One guest boot; the same load under each consumer in turn: a stream over
2 MiB of device DAX with the instance in always-on mode, threshold 4,
4 KiB units, fill threshold 256 (tens of thousands of entries per run).
The driver's own `drain_ns` counter (time spent draining, tracepoints and
AUX output included) divided by its `entries` counter. Ratios are against
"tracepoints disabled". Targets: chmutop <= 2x the bare drain.

| consumer | entries | ns per entry | vs disabled |
|---|---|---|---|
MD
	cat "$res/drain/drain.md"
	cat <<'MD'

## Toolkit CPU per hotlist entry

BPF run time (kernel BPF statistics, all programs, during the run) and the
tool's own user+system time (/proc/PID/stat), per entry drained, in ns.
Target: chmutop at most a third of the equivalent bpftrace one-liner.

| tool | entries | BPF ns/entry | process ns/entry | total ns/entry |
|---|---|---|---|---|
MD
	cat "$res/drain/cpu.md"
} >"$out/results.md"
{
	printf '{"version":1,"memory":'
	cat "$res/base/section.json"
	printf ',"chmu":['
	paste -sd, "$res"/m*/row.json
	printf '],"drain":'
	cat "$res/drain/drain.json"
	printf '}\n'
} >"$out/results.json"
cat "$out/results.md"
