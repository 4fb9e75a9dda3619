# Fault injection: the device reports a tail outside the ring; a consumer
# must refuse to read past the hotlist.
. tests/lib.sh
chmu_fault x-chmu-bad-tail=on
chmu_setup
chmu-regs enable -m always-on -t 1 -u 12 >/dev/null
touch_units 3 1
expect_eq "$(status_field tail)" 1025 "injected tail"
rc=0
out=$(chmu-regs drain 2>&1) || rc=$?
echo "$out"
expect_eq "$rc" 1 "drain exit status"
grep -q 'head 0 / tail 1025 outside the hotlist (1024)' <<<"$out" || fail "no clear error"
