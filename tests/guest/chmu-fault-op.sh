# Fault injection: an enable that never completes stays "in progress".
. tests/lib.sh
chmu_fault x-chmu-op-stuck=on
chmu_setup
rc=0
out=$(chmu-regs enable --timeout-ms 300 2>&1) || rc=$?
echo "$out"
expect_eq "$rc" 1 "enable exit status"
grep -q 'operation still in progress after 300 ms' <<<"$out" || fail "no timeout message"
expect_eq "$(status_field op)" 1 "operation in progress"
expect_eq "$(status_field enabled)" 0 "enabled"
