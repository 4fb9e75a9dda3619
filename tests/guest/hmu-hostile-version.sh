# guest-env: CHMU_PROPS=chmu-blocks=2,chmu-instances=3
# Block 1 reports version 2: refused (the core names the version); block 0 works.
. tests/lib.sh
hostile_check x-chmu-fault-inst=3,x-chmu-fault-version=2 'version 2, not 1' /sys/bus/cxl/devices/hmu_mem0.1 /sys/bus/cxl/devices/hmu_mem0.0/hmu_mem0.0.0
echo ok
