# guest-env: CHMU_PROPS=chmu-blocks=2,chmu-instances=3
# Block 0 claims 200 instances, running over block 1 (64 KiB on): refused; block 1 works.
. tests/lib.sh
hostile_check x-chmu-fault-inst=0,x-chmu-fault-instances=200 'number of instances 200' /sys/bus/cxl/devices/hmu_mem0.0 /sys/bus/cxl/devices/hmu_mem0.1/hmu_mem0.1.0
echo ok
