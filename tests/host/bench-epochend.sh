# bench/epochend-rows.sh on a made-up boot: two sizes, the second's units
# counted by two epoch ends (the larger in three steps, over 2^31 ns:
# mawk's %d stops there), epoch ends with
# no hot unit and trace lines of another event left out; a trace with
# fewer enables than sizes refused.
. tests/lib.sh
R=$(mktemp -d)
trap 'rm -rf "$R"' EXIT
printf '4096\n131072\n' >"$R/sizes.txt"
cat >"$R/qemu.log" <<'LOG'
1@1.0:cxl_chmu_enable instance 0 cfg0 0x100010006 cfg1 0x1020000000008 units 2097152
1@1.5:cxl_chmu_epoch_end instance 0 hot 4096 posted 1023 dropped 3073 in 1 steps, took 800000 ns
1@2.5:cxl_chmu_epoch_end instance 0 hot 0 posted 0 dropped 0 in 1 steps, took 1000 ns
1@3.0:cxl_chmu_disable instance 0 dropped 3073 untracked 0 evicted 0 blind 0
1@4.0:cxl_chmu_enable instance 0 cfg0 0x100010006 cfg1 0x1020000000008 units 2097152
1@5.0:cxl_chmu_epoch_end instance 0 hot 100000 posted 1023 dropped 98977 in 2 steps, took 3000000000 ns
1@6.0:cxl_chmu_epoch_end instance 0 hot 31000 posted 64 dropped 30936 in 1 steps, took 3000000 ns
LOG
bench/epochend-rows.sh "$R" || fail "epochend-rows.sh failed"
expect_eq "$(cat "$R/rows.md")" "| 4096 | 1 | 4096 | 1 | 800 | 195.3 | 4096 | 1 | 800 |
| 131072 | 2 | 131000 | 3 | 3003000 | 22923.7 | 100000 | 2 | 1500000 |" "rows"
expect_eq "$(jq -c -s 'map([.touched, .hot, .steps, .ns, .largest_ns_per_step])' "$R/rows.json")" \
	"[[4096,4096,1,800000,800000],[131072,131000,3,3003000000,1500000000]]" "JSON rows"
printf '4096\n131072\n262144\n' >"$R/sizes.txt"
out=$(bench/epochend-rows.sh "$R" 2>&1) && fail "three sizes for two enables accepted"
expect_eq "$out" "epochend-rows: 2 enables traced for 3 sizes
epochend-rows: $R: the trace does not match the sizes" "mismatch refused"
echo ok
