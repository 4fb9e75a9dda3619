#!/bin/bash
# make bench: boot the guest, run bench/guest-bench.sh in it, and leave the
# results in build/bench/results.md (table) and build/bench/results.json.
set -euo pipefail
cd "$(dirname "$0")/.."
. lab/lib.sh

out=build/bench
mkdir -p "$out"
res=$CHMU_CACHE/bench-results
rm -rf "$res"
msg BENCH "booting the guest (results: $out/results.md)"
CHMU_RESULTS=$res qemu/run-guest.sh bench/guest-bench.sh
cp "$res/results.md" "$res/results.json" "$out/"
cat "$out/results.md"
