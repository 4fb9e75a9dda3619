# guest-env: CHMU_PROPS=chmu-instances=2
# Instance 1's range bitmap offset is not 8-byte aligned: refused; instance 0 works.
. tests/lib.sh
hostile_check x-chmu-fault-inst=1,x-chmu-fault-range-off=0x84 'instance 1 refused: range or hotlist offset: not 8-byte aligned' /sys/bus/cxl/devices/hmu_mem0.0/hmu_mem0.0.1 /sys/bus/cxl/devices/hmu_mem0.0/hmu_mem0.0.0
echo ok
