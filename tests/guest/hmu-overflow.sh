# guest-env: CHMU_PROPS=chmu-hotlist-size=16
# Overflow: 100 units get hot in one epoch on a 16-entry hotlist. The
# overflow interrupt drains the full ring (reason 1, overflow set, in the
# tracepoints and in the AUX record header); the drain lets the device
# post 15 of the 64 entries it held back; the event's stop writes those 15
# to AUX, and the device, stopped with the event, is drained of them once
# (reason 3, not lost: already in AUX); what it still held back is gone
# with the disable. chmuheat, attached meanwhile, reports the overflow.
. tests/lib.sh
hmu_setup
eval "$(chmu-region create -m mem0 --devdax)"
trap 'chmu-region destroy all >/dev/null 2>&1' EXIT
hmu_cfg fill_threshold=0 poll_ms=60000
echo >$TRACE/trace
# chmuheat watches the same drains from the batch tracepoint: the workload
# starts once its programs are attached.
go=/tmp/overflow.go
rm -f $go
chmu-perf "$PMU/access_type=6,hotness_threshold=1,epoch_scale=5,epoch_multiplier=1,hotness_granual=12/" -- \
	sh -c "while [ ! -e $go ]; do sleep 0.05; done
	       chmu-workload touch --dax $DEV --size 2M --units 0-99 --count 1 >/dev/null && sleep 1.5" \
	>/tmp/perf.out 2>&1 &
perf=$!
hmu_wait enable 1
l0=$(bpf_links)
chmuheat -j 1 >/tmp/heat.out 2>/tmp/heat.err &
heat=$!
attached "$l0" $heat
touch $go
wait $perf || fail "chmu-perf: $(cat /tmp/perf.out)"
kill -INT $heat
wait $heat || fail "chmuheat: $(cat /tmp/heat.err)"
out=$(cat /tmp/perf.out)
grep -v ^entry <<<"$out"
expect_eq "$(jq -c 'select(.type == "summary") | [.batches, .overflows, .lost, .entries]' /tmp/heat.out)" \
	"[2,1,0,30]" "chmuheat: drains, overflows, lost, entries"
expect_eq "$(grep overflow /tmp/heat.err)" \
	"chmuheat: the device reported overflow in 1 of 2 drains: hot units it could not post are in no figure" \
	"chmuheat reports the overflow"
batches=$(trace_events chmu_hotlist_batch seq nr size reason overflow | tr '\n' ';')
expect_eq "$batches" "seq=1 nr=15 size=16 reason=1 overflow=1;seq=2 nr=15 size=16 reason=3 overflow=0;" \
	"drains: overflow interrupt, the stop's disable"
expect_eq "$(grep ^record <<<"$out" | tr '\n' ';')" \
	"record seq=1 count=15 counter_width=32 unit_shift=12 mode=0 reason=1 overflow=1;record seq=0 count=15 counter_width=32 unit_shift=12 mode=0 reason=3 overflow=0;" \
	"AUX records"
expect_eq "$(trace_entries)" "$(seq -f '%g:1' 0 29 | tr '\n' ' ' | sed 's/ $//')" "entries traced"
expect_eq "$(aux_entries <<<"$out")" "$(seq -f '%g:1' 0 29 | tr '\n' ' ' | sed 's/ $//')" "entries in AUX"
expect_eq "$(cat $HMU/overflows) $(cat $HMU/batches) $(cat $HMU/entries)" "1 2 30" "instance counters"
expect_eq "$(cat $HMU/lost)" 0 "nothing lost by the driver"
chmu-region destroy "$REGION"
