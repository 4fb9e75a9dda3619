# guest-env: CHMU_PROPS=chmu-llc-size=64K
# A modelled 64 KiB last-level cache in front of the counters: repeated
# accesses to a cached line never reach the device.
. tests/lib.sh
chmu_setup

chmu-regs enable -m epoch -e 2000000 -t 1 -u 12 >/dev/null
touch_units 3 100
# stream first stores to word 0 of each 4 KiB page (one miss per unit),
# then reads all 2 MiB: 8 loads per line, the first one misses. Lines at
# a 4 KiB stride share a set, so line 0 of a unit is evicted in between.
chmu-workload stream --dax "$DEV" --size 2M --passes 1 >/dev/null
sleep 2.5
out=$(entries)
echo "$out"
expect_eq "$(tr ' ' '\n' <<<"$out" | grep -c ':')" 512 "units seen"
expect_eq "$(tr ' ' '\n' <<<"$out" | grep -c ':65$')" 512 "units with 64 line misses + 1"
chmu-regs disable >/dev/null
