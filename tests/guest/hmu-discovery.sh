# guest-env: CHMU_PROPS=chmu-blocks=2,chmu-instances=3
# The CXL core finds both CHMU blocks through the register locator, adds
# hmu_mem0.0 and hmu_mem0.1 on the CXL bus and maps each block exactly:
# common capability + 3 instances of 0x2100 bytes = 0x6310 bytes.
. tests/lib.sh

# What udev does at boot, the lab's guest-init does: cxl_hmu is loaded for
# the blocks' modalias (cxl:t10) and attached to them.
grep -q '^cxl_hmu ' /proc/modules || fail "cxl_hmu was not loaded at boot"

expect_eq "$(cd /sys/bus/cxl/devices && echo hmu_mem*)" "hmu_mem0.0 hmu_mem0.1" "hmu devices"
for d in hmu_mem0.0 hmu_mem0.1; do
	s=/sys/bus/cxl/devices/$d
	expect_eq "$(cat $s/num_instances)" 3 "$d num_instances"
	expect_eq "$(cat $s/instance_length)" 0x2100 "$d instance_length"
	expect_eq "$(cat $s/devtype)" cxl_hmu "$d devtype"
	expect_eq "$(cat $s/modalias)" cxl:t10 "$d modalias"
	expect_eq "$(basename "$(readlink -f $s/..)")" 0000:0d:00.0 "$d parent (the memdev's PCI device)"
done
# The BAR2 mappings of the two blocks (at +64K and +128K), exactly sized.
bar=$(awk '{print $1}' /sys/bus/pci/devices/0000:0d:00.0/resource | sed -n 3p)
maps=$(grep -E '^ +[0-9a-f]+-[0-9a-f]+ : 0000:0d:00.0$' /proc/iomem | awk '{print $1}')
for off in 0x10000 0x20000; do
	start=$(printf '%x' $((bar + off)))
	end=$(printf '%x' $((bar + off + 0x6310 - 1)))
	grep -qx "$start-$end" <<<"$maps" || fail "no mapping $start-$end (have: $(echo $maps))"
	echo "ok: block mapped at $start-$end"
done
