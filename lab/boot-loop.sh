#!/bin/bash
# Boot the lab guest again and again with CMD=true, as `make guest
# CMD=true` does, and count how each boot ended. Not part of make test:
# it is how the lab shows that a rare QEMU crash is gone (or that it is
# there, with QEMU=another build), where a test run would meet it about
# once in sixty boots.
#
#   lab/boot-loop.sh [BOOTS]      default 100
#
# Environment: QEMU=PATH boots another qemu-system-x86_64 (default the
# lab's build); the guest's variables of qemu/run-guest.sh apply
# (CXL_DEVICES, GUEST_CPUS, ...); GUEST_TIMEOUT defaults to 300 here.
#
# Each boot ends as: ok (the guest ran true and reported exit 0), crash
# (QEMU killed by a signal: SIGSEGV is exit 139), watchdog (no result in
# GUEST_TIMEOUT, or the guest died: run-guest.sh's 124 and 125) or other.
# One line per boot that was not ok, with where its logs are kept, then
#   boots=N ok=N crash=N watchdog=N other=N qemu=PATH
# Exits 0 only when every boot was ok.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
. lab/lib.sh

boots=${1:-100}
case "$boots" in '' | *[!0-9]*) die "usage: lab/boot-loop.sh [BOOTS] (a number, not '$boots')" ;; esac
[ "$boots" -ge 1 ] || die "usage: lab/boot-loop.sh [BOOTS] (at least 1)"
export QEMU=${QEMU:-$CHMU_CACHE/qemu/build/qemu-system-x86_64}
[ -x "$QEMU" ] || die "$QEMU missing: run 'make' first"
export GUEST_TIMEOUT=${GUEST_TIMEOUT:-300}
keep=$CHMU_CACHE/boot-loop
mkdir -p "$keep"
ok=0 crash=0 watchdog=0 other=0
for ((i = 1; i <= boots; i++)); do
	dir=$(mktemp -d)
	rc=0
	CHMU_RESULTS=$dir qemu/run-guest.sh true >"$dir/run.log" 2>&1 || rc=$?
	qrc=$(sed -n 's/.*QEMU failed (exit \([0-9]*\);.*/\1/p' "$dir/run.log" | head -n 1)
	if [ "$rc" -eq 0 ] && [ "$(cat "$dir/status" 2>/dev/null)" = 0 ]; then
		ok=$((ok + 1))
		rm -rf "$dir"
		continue
	elif [ -n "$qrc" ] && [ "$qrc" -gt 128 ]; then
		crash=$((crash + 1))
		what="crash (QEMU exit $qrc, signal $((qrc - 128)))"
	elif [ "$rc" -eq 124 ] || [ "$rc" -eq 125 ]; then
		watchdog=$((watchdog + 1))
		what="watchdog (exit $rc)"
	else
		other=$((other + 1))
		what="other (exit $rc)"
	fi
	kept=$keep/boot-$(date +%Y%m%d-%H%M%S)-$i
	mv "$dir" "$kept"
	echo "boot $i: $what; console and QEMU's output in $kept" >&2
done
echo "boots=$boots ok=$ok crash=$crash watchdog=$watchdog other=$other qemu=$QEMU"
[ "$ok" -eq "$boots" ]
