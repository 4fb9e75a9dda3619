# A region as system RAM on its own NUMA node: numactl --membind places a
# workload's pages there and the pattern reads back.
. tests/lib.sh

out=$(chmu-region create -m mem0 --ram)
echo "$out"
eval "$out"
expect_eq "$MODE" ram "mode"
[ "$NODE" -gt 0 ] || fail "CXL memory landed on node $NODE, expected its own node"
total=$(awk '/MemTotal/ {print $4}' /sys/devices/system/node/node$NODE/meminfo)
expect_eq "$total" $((512 * 1024)) "node $NODE MemTotal (kB)"
expect_eq "$(cat /sys/devices/system/node/node$NODE/cpulist)" "" "node $NODE cpus"

res=$(numactl --membind="$NODE" chmu-workload verify --anon --size 4M)
echo "$res"
expect_eq "$(kv mismatches "$res")" 0 "mismatches"
expect_eq "$(kv pages_node$NODE "$res")" 1024 "pages on node $NODE"
expect_eq "$(grep -c '^pages_node' <<<"$res")" 1 "nodes holding pages"

chmu-region destroy "$REGION"
total=$(awk '/MemTotal/ {print $4}' /sys/devices/system/node/node$NODE/meminfo 2>/dev/null || echo 0)
expect_eq "$total" 0 "node $NODE MemTotal after destroy (kB)"
