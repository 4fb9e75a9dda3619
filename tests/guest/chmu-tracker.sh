# guest-env: CHMU_PROPS=chmu-counters=2
# A tracker with two counters allocated on first touch: a third unit in the
# same epoch is not counted; counters are free again in the next epoch.
. tests/lib.sh
chmu_setup

chmu-regs enable -m epoch -e 2000000 -t 1 -u 12 >/dev/null
touch_units 3 10
touch_units 5 20
touch_units 7 30
hotlist_wait 2
expect_eq "$(entries)" "5:20 3:10" "two counters, three units"
touch_units 7 30
hotlist_wait 1
expect_eq "$(entries)" "7:30" "counters freed at the epoch end"
chmu-regs disable >/dev/null

# Always-on frees a counter when its unit is posted; a full table evicts
# its coldest counter (the lower unit on a tie) for a new unit, so cold
# units cannot shut new ones out for good.
chmu-regs enable -m always-on -t 10 -u 12 >/dev/null
touch_units 3 10
expect_eq "$(entries)" "3:10" "always-on: posting frees the counter"
touch_units 5 4
touch_units 6 6
touch_units 7 10
expect_eq "$(entries)" "7:10" "a full table evicts 5, the coldest, for 7"
touch_units 6 4
expect_eq "$(entries)" "6:10" "6 kept its count"
touch_units 5 6
expect_eq "$(entries)" "" "5 starts over after its eviction"
touch_units 5 4
expect_eq "$(entries)" "5:10" "5 reaches the threshold on its new counter"
chmu-regs disable >/dev/null
