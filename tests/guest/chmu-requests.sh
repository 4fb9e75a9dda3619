# The device counts the 64-byte requests a memory device would see, not
# the accesses TCG hands it. The guest kernel zeroes each page it gives a
# workload with a string store (rep stosb with -cpu max, which reaches the
# device one byte at a time under TCG): that is 64 line writes, not 4,096.
# Always-on mode, threshold 64, writes only: each page the workload faults
# in on the CXL node posts exactly once, with 64 (its zeroed lines); the
# workload's own store, its 65th request, stays below the threshold.
# Counted per access (chmu-granularity=access), each page would post 64
# times.
. tests/lib.sh
hmu_quiesce || fail "an instance is held by perf: the driver would drain under the test"
trap chmu_cleanup EXIT
eval "$(chmu-region create -m mem0 --ram)"

chmu-regs enable -m always-on -t 64 -u 12 -a 2 >/dev/null
out=$(chmu-workload touch --node "$NODE" --no-thp --size 64K --units 0-15 --count 1 --write)
echo "$out"
got=" $(entries) "
echo "entries:$got"
for i in $(seq 0 15); do
	pa=$(kv phys$i "$out")
	[ -n "$pa" ] || fail "no physical address for unit $i"
	unit=$(((pa - HPA) >> 12))
	expect_eq "$(grep -o " $unit:[0-9]* " <<<"$got" | tr -d ' ' | tr '\n' ' ' | sed 's/ $//')" "$unit:64" "posts for page $i (DPA unit $unit)"
done
expect_eq "$(wc -w <<<"$got")" 16 "entries in all"
chmu-regs disable >/dev/null
