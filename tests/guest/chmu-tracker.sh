# guest-env: CHMU_PROPS=chmu-counters=2
# A tracker with two counters allocated on first touch: a third unit in the
# same epoch is not counted; counters are free again in the next epoch.
. tests/lib.sh
chmu_setup

chmu-regs enable -m epoch -e 2000000 -t 1 -u 12 >/dev/null
touch_units 3 10
touch_units 5 20
touch_units 7 30
sleep 2.5
expect_eq "$(entries)" "5:20 3:10" "two counters, three units"
touch_units 7 30
sleep 2.1
expect_eq "$(entries)" "7:30" "counters freed at the epoch end"
chmu-regs disable >/dev/null

# Always-on frees a counter when its unit is posted.
chmu-regs enable -m always-on -t 10 -u 12 >/dev/null
touch_units 3 10
touch_units 5 5
touch_units 6 5
touch_units 7 10
expect_eq "$(entries)" "3:10" "always-on: 5 and 6 hold both counters, 7 is not counted"
touch_units 5 5
touch_units 9 10
expect_eq "$(entries)" "5:10 9:10" "posting 5 freed the counter 9 then used"
chmu-regs disable >/dev/null
