#!/bin/bash
# vmlinux-gen/gen.sh OUT: write OUT/vmlinux.h, the C types of the guest
# kernel we build, from its BTF: vmlinux plus the cxl_hmu module's split
# BTF (so the chmu tracepoint types are there too). Regenerated only when
# the kernel build's key changes.
set -euo pipefail
. "$(dirname "$0")/../lab/lib.sh"

out=$1
K=$CHMU_CACHE/kernel
vmlinux=$K/build/vmlinux
[ -f "$K/key" ] && [ -f "$vmlinux" ] || die "no kernel build in $K: run make kernel"
key=$(cat "$K/key")
if [ "$(cat "$out/key" 2>/dev/null)" = "$key" ] && [ -s "$out/vmlinux.h" ]; then
	exit 0
fi
mod=$(find "$K/modroot" -name cxl_hmu.ko | head -n 1)
[ -n "$mod" ] || die "no cxl_hmu.ko under $K/modroot"
mkdir -p "$out"
msg VMLINUX "generating vmlinux.h from $(basename "$vmlinux") and $(basename "$mod") BTF"
# A split BTF dump carries the base (vmlinux) types as well.
bpftool btf dump file "$mod" --base-btf "$vmlinux" format c >"$out/vmlinux.h.tmp"
# the types the tools read with CO-RE: the batch programs' argument and
# the decoded entries it carries
for t in chmu_batch chmu_entry; do
	grep -q "^struct $t {" "$out/vmlinux.h.tmp" ||
		die "the cxl_hmu BTF lacks struct $t, which the tools read"
done
mv "$out/vmlinux.h.tmp" "$out/vmlinux.h"
echo "$key" >"$out/key"
