# guest-env: CHMU_PROPS=chmu-hotlist-size=8,x-chmu-overflow-burst=20
# Fault injection: each epoch end posts a 20-entry burst ahead of the real
# entries, overflowing an 8-entry hotlist.
. tests/lib.sh
chmu_setup
chmu-regs enable -m epoch -e 1000000 -t 1 -u 12 >/dev/null
touch_units 100 3
sleep 1.5
chmu-regs disable >/dev/null
expect_eq "$(status_field overflow)" 1 "overflow status"
expect_eq "$(entries)" "0:1 1:1 2:1 3:1 4:1 5:1 6:1" "ring after the burst"
expect_eq "$(entries)" "7:1 8:1 9:1 10:1 11:1 12:1 13:1" "held back entries"
