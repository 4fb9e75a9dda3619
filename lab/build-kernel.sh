#!/bin/bash
# Build the guest kernel: Debian's linux-source-6.12 + kernel/patches/series,
# configured from a minimal base: allnoconfig (ARCH=x86_64) + kvm_guest.config
# + kernel/config/*.config, which names every option the lab uses.
# Keyed by a hash of its inputs: a build whose inputs did not change is a no-op;
# otherwise kbuild rebuilds incrementally in the same output directory.
#
# KVARIANT=debug builds the same patched source with kernel/debug/*.config
# merged on top (KASAN, lockdep, kmemleak, ...) into $CHMU_CACHE/kernel-debug,
# sharing the main build's source tree.
#
# --check: exit 0 if the build is current, 1 if it would build.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
LAB_TAG=KERNEL

TARBALL=/usr/src/linux-source-6.12.tar.xz
K=$(kernel_dir)
SRC=$CHMU_CACHE/kernel/linux-source-6.12
OUT=$K/build
MODROOT=$K/modroot
LOG=$LOG_DIR/kernel${KVARIANT:+-$KVARIANT}.log

[ -f "$TARBALL" ] || die "$TARBALL missing: install linux-source-6.12 (make deps)"
src_id=$(dpkg-query -W -f='${Version}' linux-source-6.12 2>/dev/null || stat -c %s-%Y "$TARBALL")
mapfile -t frags < <(ls "$LAB_ROOT"/kernel/config/*.config)
if [ -n "${KVARIANT-}" ]; then
	[ -d "$LAB_ROOT/kernel/$KVARIANT" ] || die "no kernel variant '$KVARIANT' (kernel/$KVARIANT/*.config)"
	mapfile -t -O ${#frags[@]} frags < <(ls "$LAB_ROOT/kernel/$KVARIANT"/*.config)
fi
plist=$(series_files "$LAB_ROOT/kernel/patches") || exit 1
mapfile -t patches < <(grep . <<<"$plist" || true)
key=$( (echo "$src_id"; inputs_key "$0" "$LAB_ROOT/lab/lib.sh" \
	"$LAB_ROOT/kernel/patches/series" "${frags[@]}" "${patches[@]}") | sha256sum | cut -c1-16)

if [ "$(cat "$K/key" 2>/dev/null)" = "$key" ] && [ -f "$OUT/arch/x86/boot/bzImage" ]; then
	exit 0
fi
# --check: only say (exit 1) that a build is due
[ "${1-}" != --check ] || exit 1
mkdir -p "$K"
: >"$LOG"
start=$SECONDS

src_stamp=$CHMU_CACHE/kernel/src-id
if [ "$(cat "$src_stamp" 2>/dev/null)" != "$src_id" ] || [ ! -d "$SRC" ]; then
	msg KERNEL "unpacking $(basename "$TARBALL") ($src_id)"
	rm -rf "$SRC" "$CHMU_CACHE/kernel/applied" "$OUT"
	mkdir -p "$CHMU_CACHE/kernel"
	run_logged "$LOG" tar --no-same-owner -xJf "$TARBALL" -C "$CHMU_CACHE/kernel"
	echo "$src_id" >"$src_stamp"
fi

msg KERNEL "applying kernel/patches/series (${#patches[@]} patches)"
sync_series "$SRC" "$LAB_ROOT/kernel/patches" "$CHMU_CACHE/kernel/applied" "$LOG"

msg KERNEL "configuring"
kernel_configure "$SRC" "$OUT" "$LOG" "${frags[@]}"

msg KERNEL "building bzImage and modules (log: $LOG)"
run_logged "$LOG" make -C "$SRC" O="$OUT" -j"$(nproc)" bzImage modules
rm -rf "$MODROOT"
run_logged "$LOG" make -C "$SRC" O="$OUT" INSTALL_MOD_PATH="$MODROOT" \
	INSTALL_MOD_STRIP=1 modules_install
# The build link points at the O= tree, which has no include/linux: bpftrace
# 0.17 would try its headers and fail; without the link it uses BTF.
rm -f "$MODROOT/lib/modules/$(make -s -C "$SRC" O="$OUT" kernelrelease)/build"
make -s -C "$SRC" O="$OUT" kernelrelease >"$K/release"
echo "$key" >"$K/key"
msg KERNEL "built $(cat "$K/release") in $((SECONDS - start)) s"
