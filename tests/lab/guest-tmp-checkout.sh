# A checkout under /tmp (where CI may clone) still boots and runs: the
# guest's /tmp is a writable overlay on the host's, not an empty tmpfs.
. tests/lib.sh

d=$(mktemp -d /tmp/chmu-checkout.XXXXXX)
trap 'rm -rf "$d"' EXIT
cp -r lab qemu "$d/"
out=$("$d/qemu/run-guest.sh" 'pwd; echo probe >/tmp/written-in-guest && cat /tmp/written-in-guest')
echo "$out"
expect_eq "$out" "$d
probe" "command output from a /tmp checkout"
[ ! -e /tmp/written-in-guest ] || fail "the guest's /tmp writes reached the host"
