# A full hotlist overflows: 64 entries are held back and posted once the
# guest frees space (insert-after-clear), the rest are dropped. The fill
# threshold status bit follows the ring's occupancy.
. tests/lib.sh
chmu_setup

chmu-regs enable -m epoch -e 2000000 -t 1 -u 12 --fill 1000 >/dev/null
touch_units 0-399 1 --size 8M
hotlist_wait 400
expect_eq "$(status_field overflow)" 0 "overflow after 400 entries"
expect_eq "$(status_field fill)" 0 "fill status below 1000 entries"
expect_eq "$(status_field tail)" 400 "tail"
chmu-regs drain >/dev/null

touch_units 0-1099 1 --size 8M
hotlist_wait 1023
# 1023 entries fit in the ring (one slot stays free), 64 are held back.
expect_eq "$(status_field overflow)" 1 "overflow status"
expect_eq "$(status_field fill)" 1 "fill status"
first=$(entries)
expect_eq "$(wc -w <<<"$first")" 1023 "entries in the full ring"
expect_eq "${first%% *}" "0:1" "first entry"
expect_eq "${first##* }" "1022:1" "last entry in the ring"
# Draining freed the ring: the held-back entries are posted now.
second=$(entries)
expect_eq "$(wc -w <<<"$second")" 64 "entries held back and posted after the drain"
expect_eq "${second%% *} ${second##* }" "1023:1 1086:1" "held-back entries"
chmu-regs write 0x60 0x30000000000
expect_eq "$(status_field overflow)$(status_field fill)" 00 "status bits after write-1-to-clear"
expect_eq "$(entries)" "" "units 1087..1099 were dropped"
chmu-regs disable >/dev/null
