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

# 9p I/O straight to and from memory on the CXL node (direct I/O: dd's
# buffer, bound there, is what the device reads and writes). QEMU reaches
# that memory only through bounce buffers (qemu/run-guest.sh); with too
# small a budget the 9p device stops and this hangs. dd runs once before,
# so its own pages are cached off the node: TCG runs code held in CXL
# memory very slowly.
dd if=/dev/null of=/dev/null status=none
head -c 1M /dev/urandom >/run/smoke-ram.src
f=$CHMU_RESULTS/smoke-ram.bin
numactl --membind="$NODE" dd if=/run/smoke-ram.src of="$f" bs=1M oflag=direct status=none ||
	fail "direct write to $f from node $NODE"
expect_eq "$(numactl --membind="$NODE" dd if="$f" bs=1M iflag=direct status=none | sha256sum)" \
	"$(sha256sum </run/smoke-ram.src)" "1 MiB written and read back directly from node $NODE"
rm -f "$f" /run/smoke-ram.src

chmu-region destroy "$REGION"
total=$(awk '/MemTotal/ {print $4}' /sys/devices/system/node/node$NODE/meminfo 2>/dev/null || echo 0)
expect_eq "$total" 0 "node $NODE MemTotal after destroy (kB)"
