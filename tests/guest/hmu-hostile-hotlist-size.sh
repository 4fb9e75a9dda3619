# guest-env: CHMU_PROPS=chmu-instances=2
# Instance 0 claims a hotlist that runs past the instance: refused; instance 1 works.
. tests/lib.sh
hostile_check x-chmu-fault-inst=0,x-chmu-fault-hotlist-size=65535 'instance 0 refused: hotlist size: runs past the instance' /sys/bus/cxl/devices/hmu_mem0.0/hmu_mem0.0.0 /sys/bus/cxl/devices/hmu_mem0.0/hmu_mem0.0.1
echo ok
