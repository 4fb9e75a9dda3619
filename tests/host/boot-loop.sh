# lab/boot-loop.sh counts how boots end: a made-up QEMU that, boot by
# boot, reports the guest's exit 0 (writing status into the results share
# as the guest init does), dies of SIGSEGV, or exits 1.
. tests/lib.sh
C=$(fake_cache)
trap 'rm -rf "$C"' EXIT
cat >"$C/qemu" <<EOS
#!/bin/bash
echo boot >>"$C/boots"
n=\$(wc -l <"$C/boots")
res=\$(printf '%s\n' "\$@" | sed -n 's/^local,id=results,path=\(.*\),security_model=none$/\1/p')
case \$n in
1 | 3) echo 0 >"\$res/status" ;;
2) kill -SEGV \$\$ ;;
4) exit 1 ;;
esac
EOS
chmod +x "$C/qemu"
out=$(CHMU_CACHE=$C QEMU=$C/qemu lab/boot-loop.sh 4 2>&1) && fail "boot-loop.sh exited 0 with failed boots: $out"
echo "$out"
expect_eq "$(tail -n 1 <<<"$out")" "boots=4 ok=2 crash=1 watchdog=0 other=1 qemu=$C/qemu" "summary"
grep -q '^boot 2: crash (QEMU exit 139, signal 11); console and QEMU.s output in ' <<<"$out" || fail "no line for the crashed boot"
expect_eq "$(find "$C/boot-loop" -mindepth 1 -maxdepth 1 | wc -l)" 2 "boots whose logs were kept"
rm "$C/boots"
out=$(CHMU_CACHE=$C QEMU=$C/qemu lab/boot-loop.sh 1 2>&1) || fail "boot-loop.sh failed a boot that was ok: $out"
out=$(lab/boot-loop.sh 1x 2>&1) && fail "boot-loop.sh took '1x'"
expect_eq "$out" "error: usage: lab/boot-loop.sh [BOOTS] (a number, not '1x')" "bad count"
echo ok
