# make guest returns the guest command's output and exit status.
. tests/lib.sh

out=$(make -s guest CMD='echo "hello from $(uname -r)"; cat /proc/iomem' 2>&1)
echo "$out"
grep -q "^hello from $(cat "$CHMU_CACHE/kernel/release")\$" <<<"$out" || fail "command output missing"
grep -q 'CXL Window 0' <<<"$out" || fail "no CXL window in the guest's /proc/iomem"

rc=0
make -s guest CMD=false >/dev/null 2>&1 || rc=$?
[ $rc -ne 0 ] || fail "make guest CMD=false exited 0"
rc=0
qemu/run-guest.sh 'exit 7' || rc=$?
expect_eq "$rc" 7 "exit status of 'exit 7'"
