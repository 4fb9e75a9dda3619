# The request-type filter, the range bitmap and down-sampling decide what
# is counted.
. tests/lib.sh
chmu_setup

run() { # run ENABLE-ARGS...: one epoch of 50 loads on unit 3, 70 stores on unit 5
	chmu-regs enable -m epoch -e 2000000 -t 1 -u 12 "$@" >/dev/null
	touch_units 3 50
	touch_units 5 70 --write
	hotlist_wait 1
	entries
	chmu-regs disable >/dev/null
}
expect_eq "$(run -a 1)" "3:50" "non-TEE reads only"
expect_eq "$(run -a 2)" "5:70" "non-TEE writes only"
expect_eq "$(run -a 3)" "5:70 3:50" "non-TEE reads and writes"
expect_eq "$(run -a 4)" "3:50" "reads only"
expect_eq "$(run -a 5)" "5:70" "writes only"
expect_eq "$(run -a 6)" "5:70 3:50" "reads and writes"

# Range bitmap: only the second 256 MiB range is monitored.
chmu-regs enable -m epoch -e 2000000 -t 1 -u 12 --ranges 0x2 >/dev/null
chmu-workload touch --dax "$DEV" --size 512M --units 3,65536,65540 --count 10 >/dev/null
hotlist_wait 2
expect_eq "$(entries)" "65536:10 65540:10" "range bitmap 0x2"
chmu-regs disable >/dev/null

# Down-sampling by 2^2 counts one access in four.
expect_eq "$(run -s 2)" "5:18 3:12" "down-sampling by 4"
# Randomized down-sampling keeps the rate on average.
chmu-regs enable -m epoch -e 2000000 -t 1 -u 12 -s 2 --rand-ds >/dev/null
touch_units 3 4000
hotlist_wait 1
n=$(entries | sed 's/^3://')
echo "randomized count: $n"
[ "$n" -ge 850 ] && [ "$n" -le 1150 ] || fail "randomized down-sampling counted $n of 4000 (expected about 1000)"
chmu-regs disable >/dev/null
