# guest-env: CHMU_PROPS=chmu-blocks=2,chmu-instances=2,chmu-op-delay-us=500000
# Two blocks of two instances: each in its own register block found
# through the locator, with its own vector, counting independently.
# Enable and disable stay in progress for the configured guest time.
. tests/lib.sh
chmu_setup

out=$(chmu-regs list)
echo "$out"
expect_eq "$(grep -c 'block=' <<<"$out")" 2 "CHMU blocks"
grep -q 'block=1 bar=2 offset=0x20000 version=1 instances=2' <<<"$out" || fail "block 1 layout"
expect_eq "$(grep -o 'msgnum=[0-9]*' <<<"$out" | tr '\n' ' ')" "msgnum=8 msgnum=9 msgnum=10 msgnum=11 " "vectors"

# Operation in progress: raw enable, then watch the status.
chmu-regs -b 0 -i 1 write 0x48 0x7d0200000000000c
chmu-regs -b 0 -i 1 write 0x80 0x3
chmu-regs -b 0 -i 1 write 0x40 0x100010006
st=$(chmu-regs -b 0 -i 1 status)
echo "$st"
grep -q 'enabled=0 op=1 ' <<<"$st" || fail "enable not in progress right after the write"
sleep 1
grep -q 'enabled=1 op=0 ' <<<"$(chmu-regs -b 0 -i 1 status)" || fail "enable did not complete"

chmu-regs -b 0 -i 0 enable -a 4 -t 1 -e 3000000 >/dev/null
chmu-regs -b 1 -i 1 enable -a 5 -t 1 -e 3000000 >/dev/null
touch_units 3 10
touch_units 5 20 --write
sleep 3.5
expect_eq "$(entries -b 0 -i 0)" "3:10" "block 0 instance 0 (reads)"
expect_eq "$(entries -b 1 -i 1)" "5:20" "block 1 instance 1 (writes)"
expect_eq "$(entries -b 1 -i 0)" "" "block 1 instance 0 (disabled)"
for bi in "0 0" "0 1" "1 1"; do
	set -- $bi
	chmu-regs -b "$1" -i "$2" disable >/dev/null
done
expect_eq "$(status_field enabled -b 0 -i 1)" 0 "disabled after the operation"
