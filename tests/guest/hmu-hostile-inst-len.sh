# guest-env: CHMU_PROPS=chmu-blocks=2,chmu-instances=3
# Block 1 reports an instance length below the registers and unaligned: refused; block 0 works.
. tests/lib.sh
hostile_check x-chmu-fault-inst=3,x-chmu-fault-inst-len=0x44 'instance length 0x44 is below' /sys/bus/cxl/devices/hmu_mem0.1 /sys/bus/cxl/devices/hmu_mem0.0/hmu_mem0.0.0
echo ok
