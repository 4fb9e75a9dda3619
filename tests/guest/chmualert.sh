# chmualert: unit 7's count goes 300, 250, 50, 220 over four 2 s epochs
# (threshold 200, re-arm below 100): exactly two alerts, 300 and 220, as
# lines and NDJSON; a hold-off suppresses the second; --exec gets the
# alert in its environment; a rate alert; a stopped consumer makes the
# ring buffer drop entries, which are counted and shown; bad input exits
# 1 or 2 with one line; a count of a million prints in full.
. tests/lib.sh
hmu_setup
eval "$(chmu-region create -m mem0 --devdax)"
trap 'chmu-region destroy all >/dev/null 2>&1 || true' EXIT
hpa=$((HPA))
h7=$(printf '%#x' $((hpa + 0x7000)))

rc=0; out=$(chmualert -c 5 1 1 2>&1) || rc=$?
expect_eq "$rc:$out" "2:chmualert: no selected CHMU instance is enabled: enable one through sysfs, perf, or --enable" "nothing enabled"
rc=0; out=$(chmualert 1 1 2>&1) || rc=$?
expect_eq "$rc:$(head -n 1 <<<"$out")" "1:chmualert: give a threshold: -c/--count N or -R/--rate N" "no threshold"
rc=0; out=$(chmualert -c 10 -L 20 2>&1) || rc=$?
expect_eq "$rc:$(head -n 1 <<<"$out")" "1:chmualert: the re-arm level must not exceed the threshold" "re-arm above threshold"
rc=0; out=$(chmualert -c 10 -R 5 2>&1) || rc=$?
expect_eq "$rc:$(head -n 1 <<<"$out")" "1:chmualert: give one of -c/--count and -R/--rate" "two metrics"

touch7() { chmu-workload touch --dax "$DEV" --size 2M --units 7 --count "$1" >/dev/null; }
# the four epochs (touches more than an epoch apart: one each);
# chmualert ARGS runs over them until the four entries are drained
sequence() {
	hmu_cfg mode=epoch threshold=5 epoch_us=2000000 fill_threshold=0 unit_shift=12 enable=1
	l0=$(bpf_links)
	chmualert "$@" 1 >/tmp/alert.out 2>/tmp/alert.err &
	local pid=$!
	attached "$l0" $pid
	touch7 300; sleep 2
	touch7 250; sleep 2
	touch7 50; sleep 2
	touch7 220
	hmu_drained 4
	kill -INT $pid
	wait $pid || { cat /tmp/alert.err; fail "chmualert $* failed"; }
	hmu_cfg enable=0
}

# A window longer than the run: no value expires while it runs, so how
# many keys re-arm does not depend on when the last epoch ends
sequence -c 200 -L 100 -w 30
cat /tmp/alert.out /tmp/alert.err
expect_eq "$(cut -d' ' -f2- /tmp/alert.out | tr '\n' ';')" \
	"ALERT mem0.0.0 hpa $h7 dpa 0x7000 nid - count 300 >= 200;ALERT mem0.0.0 hpa $h7 dpa 0x7000 nid - count 220 >= 200;" "alert sequence"
expect_eq "$(tail -n 1 /tmp/alert.err)" \
	"chmualert: 2 alerts, 0 suppressed by the hold-off, 1 re-armed; 4 entries seen, 0 dropped, 0 untracked" "summary"

sequence -c 200 -L 100 -w 30 -H 30 -j
expect_eq "$(grep -c '"version":1' /tmp/alert.out)" "$(wc -l </tmp/alert.out)" "every NDJSON record has a version"
expect_eq "$(jq -r 'select(.type=="alert") | "\(.instance) \(.dpa) \(.hpa - '$hpa') \(.nid) \(.metric) \(.value) \(.threshold)"' /tmp/alert.out)" \
	"mem0.0.0 28672 28672 -1 count 300 200" "NDJSON alert, the second held off"
expect_eq "$(jq -r 'select(.type=="summary") | "\(.alerts) \(.suppressed) \(.rearmed) \(.entries) \(.dropped)"' /tmp/alert.out)" \
	"1 1 1 4 0" "NDJSON summary"

# --exec, with a rate alert: 300 counts in a 2 s window is 150/s.
hmu_cfg mode=epoch threshold=5 epoch_us=1000000 fill_threshold=0 enable=1
l0=$(bpf_links)
rm -f /tmp/alert.env
chmualert -R 100 -w 2 --exec 'env | grep ^CHMU_ALERT_ | grep -v TIME | sort >/tmp/alert.env.tmp && mv /tmp/alert.env.tmp /tmp/alert.env' 1 >/tmp/alert.out 2>/tmp/alert.err &
pid=$!
attached "$l0" $pid
touch7 300
wait_for "the --exec command did not run" test -e /tmp/alert.env
kill -INT $pid
wait $pid
hmu_cfg enable=0
expect_eq "$(cut -d' ' -f2- /tmp/alert.out)" "ALERT mem0.0.0 hpa $h7 dpa 0x7000 nid - rate 150/s >= 100/s" "rate alert"
expect_eq "$(tr '\n' ' ' </tmp/alert.env)" \
	"CHMU_ALERT_DPA=0x7000 CHMU_ALERT_HPA=$h7 CHMU_ALERT_INSTANCE=mem0.0.0 CHMU_ALERT_METRIC=rate CHMU_ALERT_NID=-1 CHMU_ALERT_THRESHOLD=100 CHMU_ALERT_VALUE=150 " "--exec environment"

# A 4 KiB ring buffer and a stopped consumer: 600 entries in one drain,
# most of them dropped; every one is either received or counted dropped.
hmu_cfg mode=epoch threshold=1 epoch_us=1000000 fill_threshold=0 enable=1
l0=$(bpf_links)
chmualert -c 1000 -j --ringbuf-size 4K 1 >/tmp/alert.out 2>/tmp/alert.err &
pid=$!
attached "$l0" $pid
kill -STOP $pid
chmu-workload touch --dax "$DEV" --size 4M --units 0-599 >/dev/null
hmu_drained 600
kill -CONT $pid
kill -INT $pid
wait $pid
hmu_cfg enable=0
cat /tmp/alert.err
read -r entries dropped < <(jq -r 'select(.type=="summary") | "\(.entries) \(.dropped)"' /tmp/alert.out)
[ "$dropped" -gt 0 ] || fail "no drops with a stopped consumer: $(tail -n 1 /tmp/alert.out) $(cat $HMU/entries $HMU/batches)"
expect_eq "$((entries + dropped))" 600 "entries received or counted dropped"
grep -q "^chmualert: $dropped hotlist entries dropped by the full ring buffer ($dropped in all)$" /tmp/alert.err ||
	fail "drops not shown"

# A count of a million (always-on, threshold 10^6: the entry's count is
# exactly that) prints in full everywhere, not as 1e+06.
million() { # million ARGS...: chmualert -c 1000000 ARGS while unit 7 reaches it
	hmu_cfg mode=always-on threshold=1000000 fill_threshold=1 enable=1
	l0=$(bpf_links)
	chmualert -c 1000000 "$@" 1 >/tmp/alert.out 2>/tmp/alert.err &
	local pid=$!
	attached "$l0" $pid
	touch7 1000000
	hmu_drained 1
	# the alert printed and its command run before the stop (a command
	# not started when chmualert is told to stop is not started)
	wait_for "no alert for a million" grep -q 'ALERT\|"alert"' /tmp/alert.out
	[[ " $* " != *" --exec "* ]] || wait_for "the --exec command did not run" test -s /tmp/alert.val
	kill -INT $pid
	wait $pid || { cat /tmp/alert.err; fail "chmualert $* failed"; }
	hmu_cfg enable=0
}
rm -f /tmp/alert.val
million --exec 'echo "$CHMU_ALERT_VALUE $CHMU_ALERT_THRESHOLD" >/tmp/alert.val.tmp && mv /tmp/alert.val.tmp /tmp/alert.val'
expect_eq "$(cut -d' ' -f2- /tmp/alert.out)" "ALERT mem0.0.0 hpa $h7 dpa 0x7000 nid - count 1000000 >= 1000000" "a million, in full"
expect_eq "$(cat /tmp/alert.val)" "1000000 1000000" "a million in the --exec environment"
expect_eq "$(head -n 1 /tmp/alert.err)" \
	"Watching 1 CHMU instance: count >= 1000000, re-arm below 500000, window 5 s... Ctrl-C to end." "the banner"
million -j
expect_eq "$(grep '"type":"alert"' /tmp/alert.out | grep -o '"value":[^,]*,"threshold":[^,}]*')" \
	'"value":1000000,"threshold":1000000' "a million in NDJSON"

# A region of 2 MiB: units 3 (100) and 7 (300) in it, 3 touched first:
# one alert, the region's largest count, at its DPA and the hot unit's
# HPA, whether the two land in one epoch or two.
hmu_cfg mode=epoch threshold=5 epoch_us=1000000 fill_threshold=0 unit_shift=12 enable=1
l0=$(bpf_links)
chmualert -c 200 -g 2M 1 >/tmp/alert.out 2>/tmp/alert.err &
pid=$!
attached "$l0" $pid
chmu-workload touch --dax "$DEV" --size 2M --units 3 --count 100 >/dev/null
touch7 300
hmu_drained 2
kill -INT $pid
wait $pid
hmu_cfg enable=0
expect_eq "$(cut -d' ' -f2- /tmp/alert.out)" "ALERT mem0.0.0 hpa $h7 dpa 0x0 nid - count 300 >= 200" "a region's alert"

# --exec runs beside the ring buffer's consumer: with --exec-max 1 and a
# command that holds until released, the second alert is reported at
# once, runs no command, and is counted; the run's end waits for the one
# still running.
rm -f /tmp/hook.go /tmp/hook.ran
hmu_cfg mode=epoch threshold=5 epoch_us=1000000 fill_threshold=0 unit_shift=12 enable=1
l0=$(bpf_links)
: >/tmp/alert.out	# the last run's alerts are not this one's
chmualert -c 200 -j --exec-max 1 --exec 'while [ ! -e /tmp/hook.go ]; do sleep 0.1; done; echo "$CHMU_ALERT_DPA" >>/tmp/hook.ran' 1 >/tmp/alert.out 2>/tmp/alert.err &
pid=$!
attached "$l0" $pid
chmu-workload touch --dax "$DEV" --size 2M --units 3 --count 300 >/dev/null
touch7 300
two_alerts() { [ "$(grep -c '"type":"alert"' /tmp/alert.out)" = 2 ]; }
wait_for "not two alerts while the first command holds" two_alerts
expect_eq "$(grep -c '"type":"alert"' /tmp/alert.out)" 2 "both alerts while the first command holds"
touch /tmp/hook.go
kill -INT $pid
wait $pid
hmu_cfg enable=0
expect_eq "$(wc -l </tmp/hook.ran)" 1 "one command ran"
expect_eq "$(jq -c 'select(.type=="summary") | [.alerts, .exec_skipped, .exec_failed]' /tmp/alert.out)" "[2,1,0]" "the second alert ran none, counted"

# ... but not for ever: a command still running 5 s after the end is
# ended, with what it started (its process group), and counted; the
# instance is not kept waiting for it.
rm -f /tmp/hook.child
hmu_cfg mode=epoch threshold=5 epoch_us=1000000 fill_threshold=0 unit_shift=12 enable=1
start_tool pid /tmp/alert.out chmualert -c 200 -j --exec 'sleep 1000 & echo $! >/tmp/hook.child.tmp && mv /tmp/hook.child.tmp /tmp/hook.child; wait' 1
touch7 300
wait_for "the --exec command did not start" test -s /tmp/hook.child
child=$(cat /tmp/hook.child)
kill -INT $pid
gone() { ! kill -0 "$1" 2>/dev/null || [ "$(awk '{ print $3 }' /proc/"$1"/stat 2>/dev/null)" = Z ]; }
wait_for "chmualert still waits for its --exec command" gone $pid
wait $pid || fail "chmualert failed: $(cat /tmp/alert.out.err)"
hmu_cfg enable=0
gone "$child" || fail "the command's child (sleep, pid $child) still runs"
expect_eq "$(jq -c 'select(.type=="summary") | [.alerts, .exec_skipped, .exec_failed, .exec_killed]' /tmp/alert.out)" "[1,0,0,1]" "the command still running was ended, counted"

