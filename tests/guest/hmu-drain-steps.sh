# guest-env: CHMU_PROPS=chmu-hotlist-size=4096
# A full hotlist is drained in bounded steps (issue 34, item 6): the
# interrupt handler only queues the drain work, and each run of it reads
# at most 1024 entries, one batch, then queues itself again while entries
# are left. Always-on reporting at threshold 1 posts each unit as it is
# first read; 3000 units are read once each, the fill threshold is 2048
# and the poll 60 s away: when the fill interrupt comes, 2048 entries or
# more are waiting, which the old driver read in one batch from its
# interrupt thread. Whatever the timing: no batch over 1024, some of
# exactly 1024 (the fill's drain begins with one), every unit drained
# once with its count, and the interrupt counted.
. tests/lib.sh
hmu_setup
chmu_setup
[ "$(cat $HMU/hotlist_size)" = 4096 ] || fail "hotlist_size $(cat $HMU/hotlist_size), not 4096"
[ "$(cat $HMU/irq)" -gt 0 ] || fail "the instance has no interrupt ($(cat $HMU/irq))"
irqs0=$(cat $HMU/irqs)
hmu_cfg mode=always-on threshold=1 unit_shift=12 fill_threshold=2048 poll_ms=60000 enable=1
chmu-workload touch --dax "$DEV" --size 16M --units 0-2999 --count 1 >/dev/null
# the fill's drain, by interrupt alone (the poll is a minute away)
hmu_drained 2048
# the rest (below the fill threshold) with the disable's flush
hmu_cfg enable=0
sizes=$(trace_events chmu_hotlist_batch nr | sed 's/nr=//')
expect_eq "$(awk '$1 > 1024' <<<"$sizes" | wc -l)" 0 "batches over 1024 entries (sizes: $(echo $sizes))"
expect_eq "$(grep -cx 1024 <<<"$sizes" | sed 's/^[1-9][0-9]*$/some/')" some "batches of exactly 1024 (sizes: $(echo $sizes))"
expect_eq "$(awk '{ n += $1 } END { print n }' <<<"$sizes")" 3000 "entries in the batches"
expect_eq "$(cat $HMU/entries) $(cat $HMU/overflows) $(cat $HMU/lost)" "3000 0 0" "entries, overflows, lost"
# unit:count of every traced entry against units 0-2999 once, count 1:
# the first differences, none expected
expect_eq "$(diff <(trace_entries | tr ' ' '\n' | sort -n) <(seq 0 2999 | sed 's/$/:1/') |
	grep '^[<>]' | head -n 5 | paste -sd' ')" "" "entries other than units 0-2999 once, count 1"
[ "$(cat $HMU/irqs)" -gt "$irqs0" ] || fail "no interrupt counted ($(cat $HMU/irqs))"
[ "$(cat $HMU/irq_ns)" -gt 0 ] || fail "irq_ns $(cat $HMU/irq_ns)"
echo "ok: batch sizes $(echo $sizes); $(($(cat $HMU/irqs) - irqs0)) interrupts, $(cat $HMU/irq_ns) ns in the handler"
kernel_quiet
