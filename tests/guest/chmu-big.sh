# guest-env: CXL_MEM_SIZE=32G
# An exact tracker keeps a counter per unit: over a 32 GiB device, 256 B
# units (128 M counters) are refused with a guest error, 512 B units
# (64 M, the limit) are accepted.
. tests/lib.sh

expect_eq "$(chmu-regs read 0x80)" 0x0 "range bitmap after reset"
chmu-regs write 0x80 0xffffffffffffffff
expect_eq "$(chmu-regs read 0x80)" 0xffffffffffffffff "range bitmap of a 32 GiB device (128 ranges)"
expect_eq "$(chmu-regs read 0x88)" 0x0 "second range word before writing"
chmu-regs write 0x88 0xffffffffffffffff
expect_eq "$(chmu-regs read 0x88)" 0xffffffffffffffff "second range word"

rc=0
chmu-regs enable -m always-on -t 1 -u 8 --timeout-ms 300 || rc=$?
expect_eq "$rc" 1 "enable with 256 B units"
guest_errors | tail -n 1 | grep -qF 'unit size 2^8 too small for the exact tracker over 34359738368 bytes' ||
	fail "no guest error for the oversized exact tracker"
expect_eq "$(status_field enabled)" 0 "enabled"
chmu-regs enable -m always-on -t 1 -u 9 >/dev/null
expect_eq "$(status_field enabled)" 1 "enabled with 512 B units"
chmu-regs disable >/dev/null
