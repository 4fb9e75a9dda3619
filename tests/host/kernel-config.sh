# Host test of the lab kernel's configuration (lab/lib.sh kernel_configure)
# against the patched source in the build cache: both variants configure
# with every requested option kept, the base stays minimal (sub-options of
# what we enable are answered no, no subsystem the lab does not use), and a
# fragment whose option loses a dependency fails, naming the line. Checks
# the debug variant's config without building it (make test does not).
. tests/lib.sh
. lab/lib.sh
SRC=$CHMU_CACHE/kernel/linux-source-6.12
[ -f "$SRC/Makefile" ] || fail "no kernel source at $SRC: run 'make kernel' first"
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
export PROGRESS_SECS=0
lab=(kernel/config/*.config)
debug=(kernel/debug/*.config)

is_set() { # is_set CONFIG SYMBOL: SYMBOL is =y or =m in CONFIG
	grep -qE "^CONFIG_$2=[ym]$" "$1"
}

# The lab kernel.
rc=0
(kernel_configure "$SRC" "$t/out" "$t/log" "${lab[@]}") >"$t/err" 2>&1 || rc=$?
[ "$rc" -eq 0 ] || fail "lab config: $(tail -5 "$t/err")"
echo "ok: lab config keeps every requested option"
for s in CXL_HMU DEV_DAX_KMEM ACPI_HMAT DEBUG_INFO_BTF PCI_MMCONFIG BINFMT_SCRIPT MAGIC_SYSRQ; do
	is_set "$t/out/.config" "$s" || fail "lab config lacks CONFIG_$s"
done
# Nothing the lab does not use: drivers of a full machine, and the
# sub-options that enabling ACPI, PCI or networking would bring by default.
for s in DRM SOUND USB_SUPPORT SCSI ATA WLAN IPV6 EXT4_FS HID CPU_FREQ \
	ACPI_BATTERY ACPI_THERMAL ACPI_PROCESSOR ETHTOOL_NETLINK NET_VENDOR_INTEL \
	KASAN PROVE_LOCKING; do
	if is_set "$t/out/.config" "$s"; then
		fail "lab config has CONFIG_$s, which the lab does not use"
	fi
done
n=$(grep -cE '=[ym]$' "$t/out/.config")
echo "lab config: $n options set"

# The debug variant: the same base with the debug fragment on top.
rc=0
(kernel_configure "$SRC" "$t/out" "$t/log" "${lab[@]}" "${debug[@]}") >"$t/err" 2>&1 || rc=$?
[ "$rc" -eq 0 ] || fail "debug config: $(tail -5 "$t/err")"
echo "ok: debug config keeps every requested option"
for s in KASAN PROVE_LOCKING DEBUG_KMEMLEAK CXL_HMU; do
	is_set "$t/out/.config" "$s" || fail "debug config lacks CONFIG_$s"
done

# A later fragment that takes away a dependency: the build must stop and
# name the option of the earlier fragment that was lost.
printf '# CONFIG_NUMA is not set\n' >"$t/nonuma.config"
rc=0
(kernel_configure "$SRC" "$t/out" "$t/log" "${lab[@]}" "$t/nonuma.config") >"$t/err" 2>&1 || rc=$?
[ "$rc" -ne 0 ] || fail "a config that lost ACPI_HMAT was accepted"
grep -q "lab.config: 'CONFIG_ACPI_HMAT=y' became" "$t/err" ||
	fail "the lost option is not named: $(cat "$t/err")"
grep -q "kernel config lost requested options" "$t/err" ||
	fail "no one-line reason: $(cat "$t/err")"
echo "ok: a lost dependency stops the configuration and names the option"
