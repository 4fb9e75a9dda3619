# BTF is present and the BPF tool chain runs against this kernel.
. tests/lib.sh

[ -s /sys/kernel/btf/vmlinux ] || fail "no /sys/kernel/btf/vmlinux"
bpftool btf dump file /sys/kernel/btf/vmlinux format c >/tmp/vmlinux.h ||
	fail "bpftool cannot dump vmlinux BTF"
grep -q '^struct task_struct {' /tmp/vmlinux.h || fail "no struct task_struct in vmlinux BTF"
bpftool prog list >/dev/null || fail "bpftool prog list failed"

out=$(bpftrace -e 'BEGIN { printf("answer=%d\n", 6 * 7); exit(); }')
echo "$out"
expect_eq "$(kv answer "$out")" 42 "bpftrace BEGIN probe"

# A tracepoint probe counts exactly the calls a known workload makes.
# (bpftrace 0.17 splits -c on spaces and only runs ELF binaries.)
out=$(bpftrace -e 'tracepoint:syscalls:sys_enter_sync /comm == "sync"/ { @syncs = count(); }' \
	-c '/bin/sh -c sync;sync;sync')
echo "$out"
expect_eq "$(sed -n 's/^@syncs: //p' <<<"$out")" 3 "sync syscalls counted"
