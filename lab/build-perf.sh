#!/bin/bash
# Build perf from the patched kernel tree that build-kernel.sh keeps in the
# cache (so it carries our tools/perf patches) into $CHMU_CACHE/perf/bin,
# which is on the guest's PATH ahead of any distro perf. Only what the lab
# uses is built: perf record/report/script with AUX area tracing (CHMU
# records) and libtraceevent (chmu:* tracepoints), symbols through libelf.
# No language bindings, JSON event tables, BPF support or skeletons, TUI,
# DWARF unwinding, demangling, compressed-module readers or JIT agents:
# they cost build time and the lab does not use them. Keyed by the kernel
# series like the kernel.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
LAB_TAG=PERF

K=$CHMU_CACHE/kernel
SRC=$K/linux-source-6.12
P=$CHMU_CACHE/perf
LOG=$LOG_DIR/perf.log

[ -f "$K/key" ] || die "build the kernel first (make kernel)"
plist=$(series_files "$LAB_ROOT/kernel/patches") || exit 1
mapfile -t patches < <(grep . <<<"$plist" || true)
key=$( (cat "$K/src-id"; inputs_key "$0" "$LAB_ROOT/lab/lib.sh" \
	"$LAB_ROOT/kernel/patches/series" "${patches[@]}") | sha256sum | cut -c1-16)
if [ "$(cat "$P/key" 2>/dev/null)" = "$key" ] && [ -x "$P/bin/perf" ]; then
	exit 0
fi
mkdir -p "$P/build" "$P/bin"
: >"$LOG"
start=$SECONDS
msg PERF "building perf from the patched tree (log: $LOG)"
run_logged "$LOG" make -C "$SRC/tools/perf" O="$P/build" -j"$(nproc)" \
	NO_LIBPYTHON=1 NO_LIBPERL=1 NO_JEVENTS=1 BUILD_BPF_SKEL=0 NO_LIBBPF=1 \
	NO_LIBUNWIND=1 NO_GTK2=1 NO_LIBBABELTRACE=1 NO_SDT=1 NO_JVMTI=1 \
	NO_SLANG=1 NO_DWARF=1 NO_LIBDW_DWARF_UNWIND=1 NO_DEMANGLE=1 \
	NO_LIBNUMA=1 NO_LIBAUDIT=1 NO_LIBCRYPTO=1 NO_LIBCAP=1 NO_LIBPFM4=1 \
	NO_LIBDEBUGINFOD=1 NO_CAPSTONE=1 NO_LIBZSTD=1 NO_LZMA=1 NO_ZLIB=1 \
	NO_AIO=1 NO_BACKTRACE=1 NO_PERF_READ_VDSO32=1 NO_PERF_READ_VDSOX32=1
install -m 755 "$P/build/perf" "$P/bin/perf"
"$P/bin/perf" version --build-options | grep -q 'auxtrace: \[ on' ||
	die "perf was built without AUX area tracing support (see $LOG)"
echo "$key" >"$P/key"
msg PERF "built $("$P/bin/perf" version) in $((SECONDS - start)) s"
