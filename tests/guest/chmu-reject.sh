# Every invalid register write is rejected with a guest-error log line and
# leaves the register as it was; nothing aborts QEMU.
. tests/lib.sh

# A known, disabled starting point (valid writes: no guest errors).
chmu-regs write 0x40 0x100000006
chmu-regs write 0x48 0x7d0200000000000c
chmu-regs write 0x50 0
n0=$(guest_errors | wc -l)
reject() { # reject OFFSET VALUE MESSAGE [WIDTH]
	local before after
	before=$(chmu-regs read "$1")
	chmu-regs write "$1" "$2" ${4-}
	after=$(chmu-regs read "$1")
	expect_eq "$after" "$before" "register $1 after writing $2"
	guest_errors | tail -n 1 | grep -qF -- "$3" || fail "no guest error '$3' (last: $(guest_errors | tail -n 1))"
}
reject 0x40 0x100000007 "CFG0 request type 7 is reserved"
reject 0x40 0x100000806 "CFG0 reserved bits set"
reject 0x40 0x100100006 "CFG0 reserved bits set"
reject 0x48 0x7 "unit size 2^7 not supported"
reject 0x48 0x20 "unit size 2^32 not supported"
reject 0x48 0x2000000000c "reporting mode 2 is reserved"
reject 0x48 0x100000000c "CFG1 reserved bits set"
reject 0x48 0x00b500000000000c "epoch length outside the advertised range"
reject 0x48 0x006000000000000c "epoch length outside the advertised range"
reject 0x50 1024 "fill threshold 0x400 above the hotlist capacity 1023"
reject 0x40 0x10006 "enable with a zero hotness threshold"
chmu-regs write 0x48 0
reject 0x40 0x500010006 "enable without a unit size"
chmu-regs write 0x48 0xc
reject 0x40 0x500010006 "enable in epoch mode without an epoch length"
# A counter reset is valid while disabled (r3.2, and the RFC driver resets
# before every start): no guest error, and RESET does not stay set.
e0=$(guest_errors | wc -l)
chmu-regs write 0x40 0x500020006
sleep 0.1
expect_eq "$(chmu-regs read 0x40)" 0x500000006 "CFG0 after a reset while disabled"
expect_eq "$(status_field op)" 0 "the reset completed"
expect_eq "$(guest_errors | wc -l)" "$e0" "no guest error for a reset while disabled"
reject 0x0 0x1 "write to read-only or reserved offset 0x0"
reject 0x8 0x1 "write to read-only or reserved offset 0x8"
reject 0x68 5 "head 5 moves past tail" 2
reject 0x68 2000 "head 2000 outside the hotlist (1024 entries)" 2
reject 0x6a 7 "write to the read-only tail" 2

chmu_setup
chmu-regs enable -m epoch -e 1000000 -t 5 -u 12 >/dev/null
reject 0x40 0x700010006 "reconfiguration while enabled (CFG0 0x700010006)"
reject 0x48 0x7d0200000000000d "reconfiguration while enabled (offset 0x48)"
reject 0x50 4 "reconfiguration while enabled (offset 0x50)"
reject 0x80 0x1 "range bitmap write while enabled"
expect_eq "$(status_field enabled)" 1 "still enabled"
chmu-regs disable >/dev/null
expect_eq "$(( $(guest_errors | wc -l) - n0 ))" 22 "guest errors logged"
