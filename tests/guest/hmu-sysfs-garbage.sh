# Garbage written to any control (every write reaching the driver: an
# empty write never does) of an instance is refused with EINVAL
# and changes nothing: every attribute reads back as before, disabled or
# enabled (where a valid configuration value is EBUSY), and the instance then
# reports a known workload exactly.
. tests/lib.sh
hmu_setup
chmu_setup
ctl=(threshold unit_shift mode epoch_us access ds_shift rand_ds range_first range_count fill_threshold poll_ms enable)
long=$(printf 'A%.0s' $(seq 3000))
garbage=(" " "x" "-" "-1" "1x" "0x" "0xg" "--1" "1 2" "1.5" "+-3" "1e3" "$long"
	"18446744073709551616" "99999999999999999999999999" $'\x01\x02\x03' "epoch always-on")
snapshot() { # every readable attribute of the instance, one line each
	local f
	for f in $HMU/*; do
		[ -f "$f" ] && [ -r "$f" ] && [ "$(basename "$f")" != uevent ] && echo "$(basename "$f")=$(cat "$f")"
	done
}
hmu_cfg threshold=5 epoch_us=500000 fill_threshold=0 unit_shift=12
before=$(snapshot)
n=0
for a in "${ctl[@]}"; do
	for g in "${garbage[@]}"; do
		out=$( (printf '%s' "$g" >"$HMU/$a") 2>&1) && fail "$a accepted '${g:0:20}'"
		grep -q "Invalid argument" <<<"$out" || fail "$a <- '${g:0:20}': '$out', expected EINVAL"
		n=$((n + 1))
	done
done
expect_eq "$(snapshot)" "$before" "all attributes after $n garbage writes"
# Enabled: garbage is still EINVAL, a valid value EBUSY, nothing changes.
hmu_cfg enable=1
before=$(snapshot | grep -v -E '^(batches|entries|drain_ns|lost|overflows)=')
for g in "x" "$long" "-1"; do
	expect_errno "Invalid argument" $HMU/threshold "$g"
	expect_errno "Invalid argument" $HMU/enable "$g"
done
expect_errno "Device or resource busy" $HMU/threshold 9
expect_eq "$(snapshot | grep -v -E '^(batches|entries|drain_ns|lost|overflows)=')" "$before" "all attributes while enabled"
touch_units 9 40
hmu_drained 1
hmu_cfg enable=0
expect_eq "$(trace_entries)" "9:40" "entries after the garbage"
kernel_quiet
echo ok
