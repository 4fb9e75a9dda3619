#!/bin/bash
# Build QEMU 10.0.2 from Debian's source tarball + qemu/build-patches and
# qemu/patches, x86_64-softmmu only. Keyed by a hash of its inputs; rebuilds
# incrementally.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
LAB_TAG=QEMU

QEMU_VERSION=10.0.2
TARBALL_NAME=qemu_${QEMU_VERSION}+ds.orig.tar.xz
# Debian's orig tarball, pinned: the same bytes whatever Debian revision
# bookworm-backports carries today.
TARBALL_SHA256=0901da33844a331bf8b3602b9c1fbd178e60b737c8e3ade678255bd090c9b9f1
Q=$CHMU_CACHE/qemu
DL=$CHMU_CACHE/downloads
SRC=$Q/qemu-$QEMU_VERSION
OUT=$Q/build
LOG=$LOG_DIR/qemu.log
CONFIGURE_ARGS=(
	--target-list=x86_64-softmmu --without-default-features
	--enable-tcg --enable-plugins --enable-virtfs --enable-attr --enable-fdt=system
	--disable-docs --disable-install-blobs --python=/usr/bin/python3
)

# The lab's build fix for Debian's tarball (qemu/build-patches), then the
# device series (qemu/patches), which stays free of build workarounds.
plist=$(series_files "$LAB_ROOT/qemu/build-patches" &&
	series_files "$LAB_ROOT/qemu/patches") || exit 1
mapfile -t patches < <(grep . <<<"$plist" || true)
key=$( (echo "$TARBALL_SHA256 ${CONFIGURE_ARGS[*]}"; inputs_key "$0" \
	"$LAB_ROOT/lab/lib.sh" "$LAB_ROOT/qemu/build-patches/series" \
	"$LAB_ROOT/qemu/patches/series" "${patches[@]}") |
	sha256sum | cut -c1-16)
if [ "$(cat "$Q/key" 2>/dev/null)" = "$key" ] && [ -x "$OUT/qemu-system-x86_64" ]; then
	exit 0
fi
mkdir -p "$Q" "$DL"
: >"$LOG"
start=$SECONDS

tarball=$DL/$TARBALL_NAME
if [ ! -f "$tarball" ] || ! echo "$TARBALL_SHA256  $tarball" | sha256sum -c --status; then
	msg QEMU "fetching $TARBALL_NAME (apt-get source, bookworm-backports)"
	rm -f "$tarball"
	(cd "$DL" && run_logged "$LOG" apt-get source --download-only --tar-only \
		-t bookworm-backports qemu)
	[ -f "$tarball" ] || die "apt-get source did not fetch $TARBALL_NAME (see $LOG)"
	echo "$TARBALL_SHA256  $tarball" | sha256sum -c --status ||
		die "$tarball does not match the pinned sha256 $TARBALL_SHA256"
fi

if [ ! -d "$SRC" ]; then
	msg QEMU "unpacking $TARBALL_NAME"
	rm -rf "$Q/applied" "$OUT"
	run_logged "$LOG" tar --no-same-owner -xJf "$tarball" -C "$Q"
fi

msg QEMU "applying qemu/build-patches and qemu/patches (${#patches[@]} patches)"
# One series of both, in order, for sync_series
all=$Q/series
rm -rf "$all" && mkdir -p "$all"
for p in "${patches[@]}"; do
	n="$(basename "$(dirname "$p")")-$(basename "$p")"
	ln -s "$p" "$all/$n"
	echo "$n" >>"$all/series"
done
sync_series "$SRC" "$all" "$Q/applied" "$LOG"

if [ "$(cat "$OUT/.chmu-configure" 2>/dev/null)" != "${CONFIGURE_ARGS[*]}" ]; then
	msg QEMU "configuring"
	rm -rf "$OUT" && mkdir -p "$OUT"
	(cd "$OUT" && run_logged "$LOG" "$SRC/configure" "${CONFIGURE_ARGS[@]}")
	echo "${CONFIGURE_ARGS[*]}" >"$OUT/.chmu-configure"
fi

msg QEMU "building qemu-system-x86_64 and the CHMU qtest (log: $LOG)"
run_logged "$LOG" ninja -C "$OUT" qemu-system-x86_64 tests/qtest/cxl-chmu-test
# The +ds tarball has no firmware: link Debian's into the data directory
# QEMU uses when run from its build tree (as the qtests run it).
bundle=$OUT/qemu-bundle/usr/local/share/qemu
mkdir -p "$bundle"
for f in /usr/share/seabios/*.bin /usr/share/qemu/*.bin; do
	[ -e "$bundle/$(basename "$f")" ] || ln -sf "$f" "$bundle/"
done
echo "$key" >"$Q/key"
msg QEMU "built in $((SECONDS - start)) s"
