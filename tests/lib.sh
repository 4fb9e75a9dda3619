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
