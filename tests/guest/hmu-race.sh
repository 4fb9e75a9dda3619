# Two consumers racing for one instance, started together (both wait for
# the same file to appear): perf against perf, sysfs against sysfs, and
# perf against sysfs, 10 rounds each (in the last pair the sysfs writer
# waits 0 to 27 ms more, so that perf's exec does not always lose).
# Every round exactly one wins, the other gets EBUSY, and owner names the
# winner.
. tests/lib.sh
hmu_setup
chmu_setup
ok=epoch_type=0,access_type=6,hotness_threshold=5,epoch_scale=4,epoch_multiplier=5,hotness_granual=12
go=/tmp/race.go
start() { # start NAME perf|sysfs [DELAY]: a consumer waiting for $go
	case $2 in
	perf) (while [ ! -e $go ]; do :; done; exec chmu-perf -a 0 "$PMU/$ok/" -- sleep 1) >/tmp/race.$1 2>&1 & ;;
	sysfs) (while [ ! -e $go ]; do :; done; [ "${3:-0}" = 0 ] || sleep "$3"; echo 1 >$HMU/enable) >/tmp/race.$1 2>&1 & ;;
	esac
}
won() { # won NAME KIND: 1 if it got the instance, 0 if EBUSY, fails otherwise
	case $2 in
	perf)
		if grep -q '^summary ' /tmp/race.$1; then echo 1
		elif grep -q '(EBUSY)' /tmp/race.$1; then echo 0
		else cat /tmp/race.$1 >&2; fail "perf consumer $1: neither won nor EBUSY"; fi ;;
	sysfs)
		if [ ! -s /tmp/race.$1 ]; then echo 1
		elif grep -q 'Device or resource busy' /tmp/race.$1; then echo 0
		else cat /tmp/race.$1 >&2; fail "sysfs consumer $1: neither won nor EBUSY"; fi ;;
	esac
}
for pair in "perf perf" "sysfs sysfs" "perf sysfs"; do
	read -r ka kb <<<"$pair"
	wins_a=0
	for round in $(seq 10); do
		rm -f $go
		start a "$ka"
		start b "$kb" "$([ "$pair" = "perf sysfs" ] && { [ $round = 1 ] && echo 0 || printf '0.%03d' $(((round - 1) * 3)); } || echo 0)"
		sleep 0.3
		touch $go
		# the owner while the winner holds it (perf: for its 1 s run)
		sleep 0.5
		owner=$(cat $HMU/owner)
		wait
		a=$(won a "$ka") b=$(won b "$kb")
		expect_eq "$((a + b))" 1 "$pair round $round: exactly one winner"
		winner=$ka
		[ "$a" = 1 ] || winner=$kb
		[ "$winner" = sysfs ] && { expect_eq "$owner" sysfs "owner"; echo 0 >$HMU/enable; }
		[ "$winner" = perf ] && [ "$owner" != perf ] && [ "$owner" != none ] && fail "owner $owner while perf won"
		wins_a=$((wins_a + a))
		expect_eq "$(cat $HMU/owner)" none "released after round $round"
	done
	echo "$pair: first consumer won $wins_a of 10"
done
kernel_quiet
echo ok
