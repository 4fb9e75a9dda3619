# A signal frame that starts in RAM and ends in CXL memory (the first page
# of a device-DAX mapping; QEMU serves CXL memory through the device's
# read and write callbacks, the slow path). The kernel's XSAVE of the
# frame and sigreturn's XRSTOR cross from the RAM page into it. QEMU
# 10.0.2's TCG helpers took a bogus host pointer for the second page and
# QEMU died (SIGSEGV), as it did when a user stack page landed on the CXL
# node under memory pressure; qemu/build-patches/0003 sends such accesses
# down the slow path. xmm8, clobbered by the handler, must come back from
# the frame.
. tests/lib.sh
trap chmu_cleanup EXIT
eval "$(chmu-region create -m mem0 --devdax)"
out=$(chmu-workload sigframe --dax "$DEV" 2>&1) || fail "sigframe: $out"
expect_eq "$out" "sigframe=ok" "a signal frame across RAM and CXL memory: delivered, xmm8 restored"
