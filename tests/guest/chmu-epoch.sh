# Epoch mode counts exactly the guest's accesses per unit and posts the
# units at or above the threshold, hottest first, at the end of the epoch.
. tests/lib.sh
chmu_setup

chmu-regs enable -m epoch -e 2000000 -t 5 -u 12
touch_units 3 100
touch_units 7 300
touch_units 9 200
touch_units 4 4            # below the threshold
touch_units 5 5            # exactly at it
sleep 2.5
expect_eq "$(entries)" "7:300 9:200 3:100 5:5" "hotlist after one epoch"
sleep 2.1
expect_eq "$(entries)" "" "hotlist after an idle epoch"

# Stores count as well as loads (access type 6), and unit size applies:
# 64 KiB units gather 4 KiB units 16..31 into unit 1.
chmu-regs disable
chmu-regs enable -m epoch -e 2000000 -t 1 -u 16
touch_units 16 10
touch_units 31 10 --write
touch_units 32 1
sleep 2.5
expect_eq "$(entries)" "1:20 2:1" "64 KiB units"

# Counter reset restarts the counts within the epoch.
chmu-regs disable
chmu-regs enable -m epoch -e 2000000 -t 1 -u 12
touch_units 3 50
chmu-regs reset >/dev/null
touch_units 3 30
sleep 2.5
expect_eq "$(entries)" "3:30" "counts after a counter reset"
chmu-regs disable
expect_eq "$(guest_errors)" "" "guest errors"
