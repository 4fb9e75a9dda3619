# Always-on mode posts a unit each time its counter reaches the threshold
# and frees the counter.
. tests/lib.sh
chmu_setup

chmu-regs enable -m always-on -t 100 -u 12
touch_units 3 250
touch_units 7 200
touch_units 9 99
expect_eq "$(entries)" "3:100 3:100 7:100 7:100" "always-on entries"
touch_units 9 1
touch_units 3 50
expect_eq "$(entries)" "9:100 3:100" "counters carry on until the threshold"
chmu-regs disable
