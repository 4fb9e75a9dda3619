# The instance devices' ABI (issue 34, item 7): each hmu_memX.Y.Z is on a
# bus, so its add and remove reach user space as uevents (udev loads
# nothing for it, but rules and monitors see it); chmu:chmu_config gives
# the ranges an instance monitors, not the 0 that means "up to the last";
# a disabled instance has its interrupt enables off too.
. tests/lib.sh
hmu_setup
chmu_setup

# Kernel uevents, as udevadm monitor -k sees them, while the driver is
# unbound and bound again.
/usr/bin/python3 -u -c '
import socket, sys
s = socket.socket(socket.AF_NETLINK, socket.SOCK_DGRAM, 15)
s.bind((0, 1))
print("listening", flush=True)
while True:
    m = s.recv(65536).split(b"\0")
    kv = dict(x.split(b"=", 1) for x in m[1:] if b"=" in x)
    print(kv.get(b"ACTION", b"").decode(), kv.get(b"DEVPATH", b"").decode().rsplit("/", 1)[-1],
          kv.get(b"SUBSYSTEM", b"").decode(), flush=True)
' >/tmp/uevents &
mon=$!
for _ in $(seq 100); do grep -q listening /tmp/uevents && break; sleep 0.1; done
echo hmu_mem0.0 >/sys/bus/cxl/drivers/cxl_hmu/unbind
echo hmu_mem0.0 >/sys/bus/cxl/drivers/cxl_hmu/bind
sleep 1
kill $mon
cat /tmp/uevents
expect_eq "$(grep ' hmu_mem0.0.0 ' /tmp/uevents | cut -d' ' -f1,3 | tr '\n' ';')" \
	"remove cxl_hmu;add cxl_hmu;" "uevents of the instance"
[ -e /sys/bus/cxl_hmu/devices/hmu_mem0.0.0 ] || fail "no /sys/bus/cxl_hmu/devices/hmu_mem0.0.0"
[ -d $HMU ] || fail "no $HMU"

# range_count 0 (up to the last range): the event says which ranges
# (ranges=FIRST+COUNT in its text)
echo >$TRACE/trace
hmu_cfg range_first=1 range_count=0 enable=1 enable=0 range_first=0 enable=1
expect_eq "$(trace_events chmu_config enabled ranges | tr '\n' ';')" \
	"enabled=1 ranges=1+1;enabled=0 ranges=1+1;enabled=1 ranges=0+2;" \
	"chmu_config's ranges"

# Interrupt enables (CFG0 bits 9 and 10) on while enabled, off after
cfg0() { printf '%#x' $(($(chmu-regs read 0x40) & 0x10600)); }
expect_eq "$(cfg0)" 0x10600 "CFG0 enable and interrupt enables while enabled"
hmu_cfg enable=0
expect_eq "$(cfg0)" 0 "CFG0 enable and interrupt enables after disable"
kernel_quiet
