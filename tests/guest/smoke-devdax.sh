# A region as device DAX: a pattern written through /dev/daxX.Y reads back.
. tests/lib.sh

out=$(chmu-region create -m mem0 --devdax)
echo "$out"
eval "$out"
expect_eq "$MODE" devdax "mode"
expect_eq "$SIZE" 536870912 "region size"
[ -c "$DEV" ] || fail "$DEV is not a character device"
expect_eq "$(basename "$(readlink -f /sys/bus/dax/devices/$DAX/driver)")" device_dax "dax driver"

res=$(chmu-workload verify --dax "$DEV" --size 16M)
echo "$res"
expect_eq "$(kv words "$res")" 2097152 "words written and read"
expect_eq "$(kv mismatches "$res")" 0 "mismatches"

chmu-region destroy "$REGION"
[ ! -e "/sys/bus/cxl/devices/$REGION" ] || fail "$REGION still exists"
expect_eq "$(chmu-region list | wc -l)" 0 "regions after destroy"
# The capacity is free again: a second region can be made and torn down.
eval "$(chmu-region create -m mem0 --devdax)"
chmu-region destroy all
