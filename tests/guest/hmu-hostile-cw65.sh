# guest-env: CHMU_PROPS=chmu-instances=2
# Instance 1 reports counter width 65: refused; instance 0 works.
. tests/lib.sh
hostile_check x-chmu-fault-inst=1,x-chmu-fault-counter-width=65 'instance 1 refused: counter width 65 is not 1..63' /sys/bus/cxl/devices/hmu_mem0.0/hmu_mem0.0.1 /sys/bus/cxl/devices/hmu_mem0.0/hmu_mem0.0.0
echo ok
