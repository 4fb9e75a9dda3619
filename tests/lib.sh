# Helpers for guest and lab tests. Sourced.
# shellcheck shell=bash
set -euo pipefail

fail() {
	echo "FAIL: $*" >&2
	exit 1
}

# expect_eq ACTUAL EXPECTED WHAT
expect_eq() {
	[ "$1" = "$2" ] || fail "$3: got '$1', expected '$2'"
	echo "ok: $3 = $2"
}

# kv KEY TEXT: the value of KEY=value in TEXT (one per line).
kv() {
	sed -n "s/^$1=//p" <<<"$2" | head -n 1
}

# CHMU device tests -------------------------------------------------------

# chmu_setup: a device-DAX region over mem0, as DEV (and REGION, ...);
# on exit every instance is disabled and the region destroyed, so tests
# sharing a guest start from the same state.
chmu_setup() {
	eval "$(chmu-region create -m mem0 --devdax)"
	trap chmu_cleanup EXIT
}

chmu_cleanup() {
	local blk inst
	for blk in 0 1 2 3; do
		for inst in 0 1 2 3 4 5 6 7; do
			chmu-regs -b $blk -i $inst disable >/dev/null 2>&1 || break
		done
	done
	chmu-region destroy all
}

# touch UNITS COUNT [ARGS...]: COUNT 8-byte loads at each 4 KiB unit.
touch_units() {
	local units=$1 count=$2
	shift 2
	chmu-workload touch --dax "$DEV" --size 2M --units "$units" --count "$count" "$@" >/dev/null
}

# entries [ARGS...]: drain the instance; "unit:count" per entry, in order.
entries() {
	chmu-regs drain "$@" | sed -n 's/^entry unit=\([0-9]*\) count=\([0-9]*\)$/\1:\2/p' | tr '\n' ' ' | sed 's/ $//'
}

# status_field NAME [ARGS...]: one field of chmu-regs status.
status_field() {
	local f=$1
	shift
	chmu-regs status "$@" | tr ' ' '\n' | sed -n "s/^$f=//p"
}

# guest_errors: the device model's guest-error log lines so far.
guest_errors() {
	cat "$CHMU_RESULTS/qemu.log" 2>/dev/null || true
}
