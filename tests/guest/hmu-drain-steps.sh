# guest-env: CHMU_PROPS=chmu-hotlist-size=4096
# A full hotlist is drained in bounded steps (issue 34, item 6): the
# interrupt handler only queues the drain work, and each run of it reads
# at most 1024 entries, one batch, then queues itself again while entries
# are left, each step with the reason of the drain it continues. Always-on
# reporting at threshold 1 posts each unit as it is first read: 3000
# units read once each, with a 60 s poll unless said otherwise.
#  - fill interrupt (fill threshold 2048): when it comes, 2048 entries or
#    more wait, which the old driver read in one batch from its interrupt
#    thread; the disable's flush takes what is left below the threshold;
#  - disable (no fill interrupt): all 3000 drained by the disable, in
#    steps of 1024, 1024 and 952;
#  - poll every 100 ms (no fill interrupt): the poll's step, then the
#    drain work's, all poll batches.
# Whatever the timing: no batch over 1024, every unit drained once with
# its count, the reasons as said.
. tests/lib.sh
hmu_setup
chmu_setup
[ "$(cat $HMU/hotlist_size)" = 4096 ] || fail "hotlist_size $(cat $HMU/hotlist_size), not 4096"
[ "$(cat $HMU/irq)" -gt 0 ] || fail "the instance has no interrupt ($(cat $HMU/irq))"
irqs0=$(cat $HMU/irqs 2>/dev/null || echo 0)
touch3000() { chmu-workload touch --dax "$DEV" --size 16M --units 0-2999 --count 1 >/dev/null; }
batches() { trace_events chmu_hotlist_batch nr reason | sed 's/nr=\([0-9]*\) reason=\([0-9]*\)/\1 \2/'; }
# check WHAT: the batches in the trace hold units 0-2999 once each, count
# 1, none over 1024 entries; prints "size:reason" per batch
check() {
	local b
	b=$(batches)
	expect_eq "$(awk '$1 > 1024' <<<"$b" | wc -l)" 0 "$1: batches over 1024 entries ($(echo $b))"
	expect_eq "$(awk '{ n += $1 } END { print n }' <<<"$b")" 3000 "$1: entries in the batches"
	# the first differences from units 0-2999 once, count 1: none
	expect_eq "$(diff <(trace_entries | tr ' ' '\n' | sort -n) <(seq 0 2999 | sed 's/$/:1/') |
		grep '^[<>]' | head -n 5 | paste -sd' ')" "" "$1: entries other than units 0-2999 once, count 1"
}

# Fill interrupt: fill batches (reason 0), one of exactly 1024 (the
# fill's first step), then the disable's flush (reason 3)
hmu_cfg mode=always-on threshold=1 unit_shift=12 fill_threshold=2048 poll_ms=60000 enable=1
touch3000
hmu_drained 2048	# by interrupt alone: the poll is a minute away
hmu_cfg enable=0
check fill
expect_eq "$(batches | awk '$2 == 0 && $1 == 1024' | wc -l | sed 's/^[1-9][0-9]*$/some/')" some "fill: a fill step of 1024"
expect_eq "$(batches | awk '{ print $2 }' | sort -u | paste -sd' ')" "0 3" "fill: reasons (fill, then the disable's flush)"
expect_eq "$(cat $HMU/entries) $(cat $HMU/overflows) $(cat $HMU/lost)" "3000 0 0" "fill: entries, overflows, lost"
[ "$(cat $HMU/irqs)" -gt "$irqs0" ] || fail "no interrupt counted ($(cat $HMU/irqs))"
[ "$(cat $HMU/irq_ns)" -gt 0 ] || fail "irq_ns $(cat $HMU/irq_ns)"
echo "ok: fill: $(($(cat $HMU/irqs) - irqs0)) interrupts, $(cat $HMU/irq_ns) ns in the handler"

# Disable: everything waits for it, drained in three flush steps
echo >$TRACE/trace
hmu_cfg fill_threshold=0 enable=1
touch3000
hmu_cfg enable=0
check disable
expect_eq "$(batches | paste -sd' ')" "1024 3 1024 3 952 3" "disable: the flush's steps"

# Poll: every batch a poll's, the drain work's steps included; the
# disable finds nothing left (an empty flush)
echo >$TRACE/trace
hmu_cfg poll_ms=100 enable=1
touch3000
hmu_drained 3000
hmu_cfg enable=0
check poll
expect_eq "$(batches | awk '$1 > 0 { print $2 }' | sort -u)" 2 "poll: reasons of the batches with entries"
kernel_quiet
