# tests/run does not hide a crashed QEMU: a boot whose QEMU dies of a
# signal is not tried again, and every test of its group fails with the
# boot's log. A made-up cache (an empty kernel image) and a QEMU that
# kills itself with SIGSEGV, as QEMU 10.0.2's TCG dispatch use-after-free
# did, stand in for the lab's builds.
. tests/lib.sh
C=$(fake_cache)
trap 'rm -rf "$C"' EXIT
cat >"$C/qemu" <<EOS
#!/bin/bash
echo boot >>"$C/boots"
kill -SEGV \$\$
EOS
chmod +x "$C/qemu"
out=$(env -u GUEST_JOBS -u SHARD_SECS CHMU_CACHE=$C QEMU=$C/qemu tests/run guest tests/guest/smoke-cxl.sh tests/guest/smoke-devdax.sh 2>&1) &&
	fail "tests/run passed with a crashing QEMU: $out"
echo "$out"
expect_eq "$(wc -l <"$C/boots")" 1 "QEMU started (no second boot)"
expect_eq "$(grep -c '^FAIL  guest/smoke-' <<<"$out")" 2 "tests of the crashed boot that failed"
expect_eq "$(tail -n 1 <<<"$out")" "0 passed, 2 failed" "closing line"
grep -q 'QEMU failed (exit 139' <<<"$out" || fail "the failure does not show QEMU's exit 139"
! grep -qi retry <<<"$out" || fail "tests/run retried: $out"
echo ok
