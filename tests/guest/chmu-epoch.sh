# Epoch mode counts exactly the guest's accesses per unit and posts the
# units at or above the threshold, hottest first, at the end of the epoch.
. tests/lib.sh
chmu_setup

# rep UNIT N: UNIT N times in a --units list
rep() { printf "$1,%.0s" $(seq "$2"); }
# All in one process, a few milliseconds long, right after the enable: the
# whole of it in the first 4 s epoch however slowly processes start (five
# processes did not always fit in a 2 s epoch under TCG)
chmu-regs enable -m epoch -e 4000000 -t 5 -u 12
units="$(rep 3 100)$(rep 7 300)$(rep 9 200)$(rep 4 4)$(rep 5 5)"
chmu-workload touch --dax "$DEV" --size 2M --units "${units%,}" >/dev/null
# 4 below the threshold, 5 exactly at it
got=
posted() { got=$(entries); [ -n "$got" ]; }
wait_for "nothing posted after the first epoch" posted
expect_eq "$got" "7:300 9:200 3:100 5:5" "hotlist after one epoch"
sleep 4.2
expect_eq "$(entries)" "" "hotlist after an idle epoch"

# Stores count as well as loads (access type 6), and unit size applies:
# 64 KiB units gather 4 KiB units 16..31 into unit 1. At threshold 1 every
# access is posted in the epoch it falls in: the drains' counts summed per
# unit are exact whichever epochs the three processes fall in.
chmu-regs disable
chmu-regs enable -m epoch -e 2000000 -t 1 -u 16
touch_units 16 10
touch_units 31 10 --write
touch_units 32 1
declare -A sum=()
summed() {
	local e
	for e in $(entries); do sum[${e%:*}]=$((${sum[${e%:*}]:-0} + ${e#*:})); done
	[ "${sum[1]:-0} ${sum[2]:-0}" = "20 1" ]
}
for _ in $(seq 100); do summed && break; sleep 0.1; done
expect_eq "$(for u in "${!sum[@]}"; do echo "$u:${sum[$u]}"; done | sort -n | tr '\n' ' ')" "1:20 2:1 " \
	"64 KiB units (counts summed over the epochs)"

# Counter reset restarts the counts within the epoch: a 10 s epoch holds
# the touch, the reset and the touch after it
chmu-regs disable
chmu-regs enable -m epoch -e 10000000 -t 1 -u 12
touch_units 3 50
chmu-regs reset >/dev/null
touch_units 3 30
wait_for "nothing posted after the counter reset's epoch" posted
expect_eq "$got" "3:30" "counts after a counter reset"
chmu-regs disable
expect_eq "$(guest_errors)" "" "guest errors"
