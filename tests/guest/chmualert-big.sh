# guest-env: CHMU_PROPS=chmu-hotlist-size=8143
# chmualert's ring buffer is sized from the hotlists it watches: with the
# largest hotlist (8143 entries; 8142 fit, one slot stays free) full in one drain and the consumer
# stopped meanwhile, every entry reaches it; none is dropped.
. tests/lib.sh
hmu_setup
eval "$(chmu-region create -m mem0 --devdax)"
trap 'chmu-region destroy all >/dev/null 2>&1 || true' EXIT
expect_eq "$(cat $HMU/hotlist_size)" 8143 "hotlist size"
hmu_cfg mode=epoch threshold=1 epoch_us=5000000 fill_threshold=0 unit_shift=12 enable=1
start_tool pid /tmp/big.out chmualert -c 1000 -j 1
kill -STOP $pid
chmu-workload touch --dax "$DEV" --size 32M --units 0-8141 --count 1 >/dev/null
hmu_drained 8142
kill -CONT $pid
kill -INT $pid
wait $pid || fail "chmualert failed: $(cat /tmp/big.out.err)"
hmu_cfg enable=0
cat /tmp/big.out.err
expect_eq "$(jq -c 'select(.type=="summary") | [.entries, .dropped]' /tmp/big.out)" "[8142,0]" "every entry of a full hotlist received"
echo ok
