# A guest that never finishes is killed by the watchdog and reported failed;
# a guest that panics is reported as such.
. tests/lib.sh

rc=0
out=$(GUEST_TIMEOUT=40 qemu/run-guest.sh 'sleep 3600' 2>&1) || rc=$?
echo "$out"
expect_eq "$rc" 124 "exit status of a hung guest"
grep -q 'guest watchdog: no result within 40s' <<<"$out" || fail "no watchdog message"

rc=0
out=$(qemu/run-guest.sh 'echo c >/proc/sysrq-trigger; sleep 60' 2>&1) || rc=$?
echo "$out"
expect_eq "$rc" 125 "exit status of a panicked guest"
grep -q 'stopped without reporting a status' <<<"$out" || fail "no panic message"
grep -q 'stopped without reporting a status: Kernel panic - not syncing: sysrq triggered crash' <<<"$out" ||
	fail "the panic message is not reported"
