#!/bin/bash
# Boot the lab guest under QEMU (TCG) and run a command in it.
#
#   qemu/run-guest.sh 'CMD'      run CMD as root in the guest, in the
#                                repository directory; its output and exit
#                                status come back here
#   qemu/run-guest.sh --shell    interactive shell on this terminal
#
# The guest's root file system is this machine's, read-only over virtio-9p;
# /run is a tmpfs, /tmp and /var/tmp writable overlays on the host's (a
# checkout may live there); the kernel's modules appear under
# /lib/modules through an overlay on /usr/lib. A writable results directory
# is shared at /run/results; QEMU logs guest errors (-d guest_errors) to
# qemu.log there.
#
# The guest's third serial port (ttyS2) is a client of QEMU's own QMP
# monitor: a guest test changes the device model at run time with QMP
# (tests/lib.sh qmp, e.g. qom-set of an x-chmu-fault-* property), so that
# one boot serves tests that need different faults.
#
# Environment:
#   CXL_DEVICES=N     type-3 devices (default 1), each on its own root port
#   CXL_MEM_SIZE=S    volatile memory per device (default 512M)
#   CHMU_PROPS=...    properties appended to every cxl-type3 device
#   GUEST_MEM=S       guest DRAM (default 2G), on NUMA node 0
#   GUEST_CPUS=N      vCPUs (default 2)
#   GUEST_CPU=MODEL   QEMU -cpu (default max,hypervisor=off)
#   GUEST_TIMEOUT=S   watchdog: seconds before a guest is killed (default 900)
#   GUEST_IDLE_TIMEOUT=S  kill it too when tests/guest-suite.sh has started
#                     no test for S seconds (default: no such limit)
#   CHMU_RESULTS=DIR  keep the results share here (default: a temporary dir)
#   QEMU_EXTRA=...    extra QEMU arguments
#   TIERMEM=1         load the tiermem TCG plugin (build/plugins/libtiermem.so,
#                     docs/tiering.md): the guest's accesses by tier, dumped
#                     on chmu-workload's marker to the results share's
#                     tiermem.txt; TIERMEM_PAGES=1 also counts per page
#   KVARIANT=debug    boot the debug kernel (make kernel-debug)
#   V=1               show the kernel console too
set -euo pipefail
. "$(dirname "$0")/../lab/lib.sh"

QEMU=${QEMU:-$CHMU_CACHE/qemu/build/qemu-system-x86_64}
KDIR=$(kernel_dir)
KERNEL=$KDIR/build/arch/x86/boot/bzImage
CXL_DEVICES=${CXL_DEVICES:-1}
CXL_MEM_SIZE=${CXL_MEM_SIZE:-512M}
GUEST_MEM=${GUEST_MEM:-2G}
GUEST_CPUS=${GUEST_CPUS:-2}
GUEST_TIMEOUT=${GUEST_TIMEOUT:-900}
# hypervisor=off: CXL region commit needs it in a VM (cache invalidation).
# The debug kernel: no 5-level paging, whose early interrupt handling
# KASAN reports as a wild access before any of our code runs (and the
# taint turns lockdep off for the whole boot).
GUEST_CPU=${GUEST_CPU:-max,hypervisor=off${KVARIANT:+,la57=off}}
# Properties every lab device gets before CHMU_PROPS.
CHMU_DEFAULT_PROPS=${CHMU_DEFAULT_PROPS-chmu=on}

shell=0
if [ "${1-}" = --shell ]; then
	shell=1
	shift
fi
[ $shell -eq 1 ] || [ $# -eq 1 ] || die "usage: $0 'CMD' | --shell"
[ -x "$QEMU" ] || die "$QEMU missing: run 'make' first"
[ -f "$KERNEL" ] || die "$KERNEL missing: run 'make' first"
case "$CXL_DEVICES" in '' | *[!0-9]*) die "CXL_DEVICES must be a number" ;; esac
[ "$CXL_DEVICES" -ge 1 ] && [ "$CXL_DEVICES" -le 8 ] || die "CXL_DEVICES must be 1..8"

# where the messages below point for the console: the results share's
# own copy when it is kept (two boots at once would share the other)
console=$LOG_DIR/guest-console.log
if [ -n "${CHMU_RESULTS-}" ]; then
	res=$CHMU_RESULTS
	console=$res/console.log
	mkdir -p "$res"
	rm -f "$res/status" "$res/output" "$res/console.log" "$res/qemu.log" "$res/current" "$res/idle"
	keep=1
else
	res=$(mktemp -d "${TMPDIR:-/tmp}/chmu-guest.XXXXXX")
	keep=0
fi
qpid=
# QMP's socket: a short path of its own (a socket path has 108 bytes)
qmpdir=$(mktemp -d /tmp/chmu-qmp.XXXXXX)
cleanup() {
	[ -z "$qpid" ] || kill "$qpid" 2>/dev/null || true
	rm -rf "$qmpdir"
	[ -f "$res/console.log" ] && cp "$res/console.log" "$LOG_DIR/guest-console.log"
	[ $keep -eq 1 ] || rm -rf "$res"
}
trap cleanup EXIT

# What the guest init needs to know, as shell assignments it sources.
{
	printf 'LAB_ROOT=%q\n' "$LAB_ROOT"
	printf 'CHMU_CACHE=%q\n' "$CHMU_CACHE"
	printf 'KRELEASE=%q\n' "$(cat "$KDIR/release")"
	printf 'KDIR=%q\n' "$KDIR"
	printf 'SHELL_MODE=%q\n' "$shell"
	if [ $shell -eq 1 ] && [ -t 0 ]; then
		read -r rows cols < <(stty size)
		printf 'TTY_ROWS=%q\nTTY_COLS=%q\nTERM=%q\n' "$rows" "$cols" "${TERM:-vt100}"
	fi
	[ $shell -eq 1 ] || printf 'GUEST_CMD=%q\n' "$1"
} >"$res/env"

# Once a region is system RAM, the guest may hand the 9p devices pages of
# CXL memory to read into or write from. QEMU reaches that memory only
# through the device's MMIO callbacks, so it maps such a buffer by bouncing
# it, and a PCI device may bounce 4 KiB at a time by default: the next
# buffer fails ("virtio: bogus descriptor or out of resources"), the device
# stops and the guest waits for its file system forever. Allow every
# request a 9p queue can hold (128 x msize).
p9bounce=disable-legacy=on,iommu_platform=on,x-max-bounce-buffer-size=64M
args=(
	-M q35,cxl=on,sata=off -accel tcg -cpu "$GUEST_CPU"
	-smp "$GUEST_CPUS" -m "$GUEST_MEM"
	-object memory-backend-ram,id=ram0,size="$GUEST_MEM"
	-numa node,nodeid=0,cpus=0-$((GUEST_CPUS - 1)),memdev=ram0
	-L /usr/share/seabios -L /usr/share/qemu
	-nodefaults -display none -no-reboot
	-d guest_errors -D "$res/qemu.log"
	-kernel "$KERNEL"
	-append "console=ttyS0 root=hostroot rootfstype=9p rootflags=trans=virtio,version=9p2000.L,msize=512000,cache=loose ro init=$LAB_ROOT/qemu/guest-init panic=-1 oops=panic tsc=reliable no_timer_check"
	-fsdev local,id=hostroot,path=/,security_model=none,readonly=on
	-device virtio-9p-pci,fsdev=hostroot,mount_tag=hostroot,$p9bounce
	-fsdev local,id=results,path="$res",security_model=none
	-device virtio-9p-pci,fsdev=results,mount_tag=results,$p9bounce
	-serial file:"$res/console.log"
	-chardev stdio,id=out,signal=off
	-serial chardev:out
	-chardev socket,id=qmp,path="$qmpdir/qmp",server=on,wait=off
	-mon chardev=qmp,mode=control
	-chardev socket,id=guestqmp,path="$qmpdir/qmp",reconnect-ms=100
	-serial chardev:guestqmp
	-device pxb-cxl,bus_nr=12,bus=pcie.0,id=cxl.1
	-M cxl-fmw.0.targets.0=cxl.1,cxl-fmw.0.size=$((CXL_DEVICES * 4))G
)
if [ "${TIERMEM:-0}" = 1 ]; then
	plugin=$LAB_ROOT/build/plugins/libtiermem.so
	[ -f "$plugin" ] || die "TIERMEM=1: no $plugin (make plugins)"
	: >"$res/tiermem.txt"
	args+=(-plugin "$plugin,out=$res/tiermem.txt$([ "${TIERMEM_PAGES:-0}" = 1 ] && echo ,pages=on)")
fi
for ((i = 0; i < CXL_DEVICES; i++)); do
	props=$CHMU_DEFAULT_PROPS
	[ -z "${CHMU_PROPS-}" ] || props=${props:+$props,}$CHMU_PROPS
	args+=(
		-object memory-backend-ram,id=cxl-mem$i,share=on,size="$CXL_MEM_SIZE"
		-device cxl-rp,port=$i,bus=cxl.1,id=cxl-rp$i,chassis=0,slot=$((i + 2))
		-device "cxl-type3,bus=cxl-rp$i,volatile-memdev=cxl-mem$i,id=cxl-vmem$i,sn=$((0x1000 + i))${props:+,$props}"
	)
done
# shellcheck disable=SC2206
args+=(${QEMU_EXTRA-})

rc=0
idle=0
if [ $shell -eq 1 ]; then
	"$QEMU" "${args[@]}" || rc=$?
else
	timeout -k 10 "$GUEST_TIMEOUT" "$QEMU" "${args[@]}" </dev/null &
	qpid=$!
	wpid=
	if [ -n "${GUEST_IDLE_TIMEOUT-}" ]; then
		# tests/guest-suite.sh rewrites $res/current as each test starts;
		# the check runs beside the wait, which returns as QEMU exits
		(
			while sleep 5 && kill -0 "$qpid" 2>/dev/null; do
				last=$(stat -c %Y "$res/current" "$res/env" 2>/dev/null | sort -n | tail -n 1) || true
				if [ $(($(date +%s) - last)) -gt "$GUEST_IDLE_TIMEOUT" ]; then
					: >"$res/idle"
					kill "$qpid"
					exit 0
				fi
			done
		) </dev/null >/dev/null 2>&1 &
		wpid=$!
	fi
	wait "$qpid" || rc=$?
	if [ -n "$wpid" ]; then
		kill "$wpid" 2>/dev/null || true
		wait "$wpid" 2>/dev/null || true
	fi
	[ ! -e "$res/idle" ] || idle=1
fi

if [ $idle -eq 1 ]; then
	echo "error: guest watchdog: test '$(cut -d' ' -f1 "$res/current" 2>/dev/null)' still running after ${GUEST_IDLE_TIMEOUT}s, guest killed (console: $console)" >&2
	tail -n 15 "$res/console.log" >&2 || true
	exit 124
fi
if [ "${V:-0}" = 1 ] && [ -f "$res/console.log" ]; then
	echo "---- guest console ----" >&2
	cat "$res/console.log" >&2
fi
if [ $rc -eq 124 ] || [ $rc -eq 137 ]; then
	echo "error: guest watchdog: no result within ${GUEST_TIMEOUT}s, guest killed (console: $console)" >&2
	tail -n 15 "$res/console.log" >&2 || true
	exit 124
fi
[ $rc -eq 0 ] || die "QEMU failed (exit $rc; console: $console)"
if [ ! -f "$res/status" ]; then
	why=$(grep -m 1 -E 'Kernel panic|BUG:|Oops|general protection' "$res/console.log" 2>/dev/null |
		sed 's/^\[[ 0-9.]*\] //' || true)
	echo "error: the guest stopped without reporting a status${why:+: $why}; last console lines:" >&2
	tail -n 25 "$res/console.log" >&2 || true
	echo "error: console: $console" >&2
	exit 125
fi
exit "$(cat "$res/status")"
