# guest-env: CHMU_PROPS=chmu-instances=2
# Instance 1's hotlist offset makes offset + 8 x size wrap (the old check passed it): refused; instance 0 works.
. tests/lib.sh
hostile_check x-chmu-fault-inst=1,x-chmu-fault-hotlist-off=0xfffffffffffff000 'instance 1 refused: hotlist offset: outside the instance' /sys/bus/cxl/devices/hmu_mem0.0/hmu_mem0.0.1 /sys/bus/cxl/devices/hmu_mem0.0/hmu_mem0.0.0
echo ok
