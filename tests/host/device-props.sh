# The emulated CHMU's properties on the QEMU command line: an invalid
# combination stops QEMU at start-up with one line naming the reason
# (docs/emulated-device.md); the largest valid values start it.
. tests/lib.sh
. lab/lib.sh
QEMU=$CHMU_CACHE/qemu/build/qemu-system-x86_64
[ -x "$QEMU" ] || fail "$QEMU missing"

# start PROPS: "rc:first line of stderr" of a paused machine told to quit
start() {
	local rc=0 out
	out=$(echo quit | timeout 60 "$QEMU" -M q35,cxl=on,sata=off -accel tcg -S \
		-nodefaults -display none -monitor stdio -L /usr/share/seabios -L /usr/share/qemu \
		-object memory-backend-ram,id=m0,share=on,size=512M \
		-device pxb-cxl,bus_nr=12,bus=pcie.0,id=cxl.1 \
		-device cxl-rp,port=0,bus=cxl.1,id=rp0,chassis=0,slot=2 \
		-device "cxl-type3,bus=rp0,volatile-memdev=m0,id=d0,sn=1,chmu=on,$1" \
		-M cxl-fmw.0.targets.0=cxl.1,cxl-fmw.0.size=4G 2>&1 >/dev/null) || rc=$?
	echo "$rc:$(head -n 1 <<<"$out" | sed 's/^.*: -device [^ ]*: //')"
}
ok() { expect_eq "$(start "$1")" "0:" "$1 starts"; }
bad() { expect_eq "$(start "$1")" "1:$2" "$1 refused"; }

# 512 MiB: one range word, so the hotlist starts at 0x88 and an instance
# (at most 0xff00 bytes, a 16-bit length) holds (0xff00 - 0x88) / 8 entries.
ok chmu-hotlist-size=8143
bad chmu-hotlist-size=8144 "chmu-hotlist-size 8144 does not fit the 16-bit instance length: at most 8143 entries with this capacity"
bad chmu-hotlist-size=1 "chmu-hotlist-size must be at least 2"
bad chmu-blocks=0 "chmu-blocks must be 1..4"
bad chmu-blocks=2,chmu-instances=5 "chmu-blocks x chmu-instances must be 1..8"
bad chmu-llc-size=32 "chmu-llc-size must be at least 64 bytes"
bad chmu-llc-size=48K "chmu-llc-size must be a power of two up to 256 MiB"
bad chmu-llc-size=512M "chmu-llc-size must be a power of two up to 256 MiB"
ok chmu-llc-size=256M
bad chmu-counters=16777217 "chmu-counters must be at most 16777216"
ok chmu-granularity=line,chmu-llc-size=1M
ok chmu-granularity=access
bad chmu-granularity=bytes "chmu-granularity must be 'access' or 'line'"
ok chmu-tracker=cms
ok chmu-tracker=space-saving,chmu-lossy=on
ok chmu-tracker=cms,chmu-cms-width=1048576,chmu-cms-depth=8,chmu-cms-bits=16,chmu-topk=1024
bad chmu-tracker=bloom "chmu-tracker must be exact, limited, cms or space-saving"
bad chmu-tracker=limited "chmu-tracker=limited needs chmu-counters"
bad chmu-tracker=cms,chmu-counters=8 "chmu-counters is for chmu-tracker=limited only"
bad chmu-tracker=cms,chmu-cms-width=3000 "chmu-cms-width must be a power of two from 2 to 1048576"
bad chmu-tracker=cms,chmu-cms-depth=9 "chmu-cms-depth must be 1..8"
bad chmu-tracker=cms,chmu-cms-bits=17 "chmu-cms-bits must be 1..16"
bad chmu-tracker=cms,chmu-topk=0 "chmu-topk must be 1..1024"
bad chmu-tracker=space-saving,chmu-ss-entries=2000 "chmu-ss-entries must be 1..1024"
# The faulty instance uses the vector it reports: one of the MSI-X
# table's, the device's 8 and one per instance (QEMU asserted at the
# first interrupt past them).
ok x-chmu-fault-msgnum=8
bad x-chmu-fault-msgnum=9 "x-chmu-fault-msgnum 9: -1 (its own) or one of the MSI-X table's 9 vectors"
ok chmu-instances=2,x-chmu-fault-msgnum=9
bad chmu-instances=2,x-chmu-fault-msgnum=15 "x-chmu-fault-msgnum 15: -1 (its own) or one of the MSI-X table's 10 vectors"
bad x-chmu-fault-msgnum=-2 "x-chmu-fault-msgnum -2: -1 (its own) or one of the MSI-X table's 9 vectors"
bad x-chmu-fault-counter-width=256 "x-chmu-fault-counter-width is 8 bits"
ok chmu-tracker-budget=64K
ok chmu-tracker-budget=8G
bad chmu-tracker-budget=63K "chmu-tracker-budget must be 64 KiB to 8 GiB"
bad chmu-tracker-budget=9G "chmu-tracker-budget must be 64 KiB to 8 GiB"
echo ok
