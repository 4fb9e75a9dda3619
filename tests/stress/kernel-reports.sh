# Runs last in every guest boot of 'tests/run stress' (the debug kernel):
# the kernel reported nothing while the tests ran. No KASAN report,
# lockdep splat, sleep in atomic context, list or object debugging
# complaint, warning or oops in the log, and kmemleak finds no leak after
# two scans (reports from the boot itself, before any test, are not
# ours: kmemleak is cleared when the suite starts, see guest-suite.sh).
. tests/lib.sh
log=$(dmesg)
# (by symbol: after a long boot the log's first lines have rotated out)
grep -q ' kasan_report$' /proc/kallsyms || fail "not the debug kernel (no KASAN)"
[ -e /sys/kernel/debug/kmemleak ] || fail "not the debug kernel (no kmemleak)"
[ -e /proc/lockdep ] || fail "not the debug kernel (no lockdep)"
grep -q 'Disabling lock debugging' <<<"$log" && fail "lock debugging was turned off: $(grep -m1 -B2 'Disabling lock debugging' <<<"$log")"
bad=$(grep -E "$KERNEL_REPORTS" <<<"$log" || true)
[ -z "$bad" ] || { tail -n 80 <<<"$log"; fail "kernel reports: $(head -n 3 <<<"$bad")"; }
echo "ok: no KASAN, lockdep, atomic-sleep, debug-object or warning report"
echo scan >/sys/kernel/debug/kmemleak
sleep 5
echo scan >/sys/kernel/debug/kmemleak
leaks=$(cat /sys/kernel/debug/kmemleak)
[ -z "$leaks" ] || { echo "$leaks" | head -n 60; fail "kmemleak: $(grep -c '^unreferenced object' <<<"$leaks") unreferenced objects"; }
echo "ok: kmemleak found no leak"
