# The lab topology: one type-3 memdev with 512 MiB of volatile memory, a
# root decoder (fixed memory window) that can map RAM, and the CXL window
# in the guest's physical address map.
. tests/lib.sh

out=$(cxl list -m mem0)
echo "$out"
expect_eq "$(grep -o '"memdev":"[^"]*"' <<<"$out")" '"memdev":"mem0"' "memdev"
expect_eq "$(grep -o '"ram_size":[0-9]*' <<<"$out")" '"ram_size":536870912' "mem0 ram_size"
expect_eq "$(cxl list -M | grep -o '"memdev"' | wc -l)" 1 "number of memdevs"

rd=$(cxl list -D -d root)
echo "$rd"
grep -q '"volatile_capable":true' <<<"$rd" || fail "root decoder is not volatile capable"
grep -q 'CXL Window 0' /proc/iomem || fail "no CXL window in /proc/iomem"
