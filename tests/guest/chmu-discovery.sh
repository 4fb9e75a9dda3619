# The default lab device has one CHMU block with one instance that
# advertises exactly what the model implements.
. tests/lib.sh

out=$(chmu-regs list)
echo "$out"
expect_eq "$(grep -c 'block=' <<<"$out")" 1 "CHMU blocks"
grep -q '^0000:0d:00.0 block=0 bar=2 offset=0x10000 version=1 instances=1 ' <<<"$out" ||
	fail "block 0 not at BAR2+64K with one instance"
caps=$(grep 'hotlist_size=' <<<"$out")
for kv in hotlist_size=1024 msgnum=8 ovf_irq=1 fill_irq=1 epoch_type=0 req_types=0x3f \
	epoch_us=100..10000000 unit_sizes=0xffffff ds_factors=0xffff epoch=1 always_on=1 \
	rand_ds=1 overlap=1 insert_after_clear=1 range_off=0x80 hotlist_off=0x88; do
	grep -qw -- "$kv" <<<"$caps" || fail "capability $kv missing in: $caps"
done
expect_eq "$(status_field counter_width)" 32 "counter width"
expect_eq "$(status_field enabled)" 0 "enabled after reset"
# 512 MiB is two 256 MiB ranges: only their bits stick in the bitmap.
chmu-regs write 0x80 0xffffffffffffffff
expect_eq "$(chmu-regs read 0x80)" 0x3 "range bitmap of a 512 MiB device"
