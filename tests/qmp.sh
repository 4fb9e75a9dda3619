# The lab QEMU's QMP monitor from inside the guest. Sourced by tests/lib.sh
# and tests/guest-suite.sh; no "set -e" of its own.
# shellcheck shell=bash
#
# qemu/run-guest.sh connects the guest's third serial port (ttyS2) to
# QEMU's QMP monitor, so a guest test can change the device model while
# the guest runs: the x-chmu-* fault properties are settable at run time
# (qom-set), and one boot serves tests that need different faults.

QMP_TTY=${QMP_TTY:-/dev/ttyS2}
# The device the fault helpers change: mem0's (qemu/run-guest.sh ids).
CHMU_QOM=${CHMU_QOM:-/machine/peripheral/cxl-vmem0}
# What chmu_fault changed, as "PROPERTY JSON-VALUE-BEFORE" lines, for
# chmu_faults_restore (tests/guest-suite.sh calls it after every test).
CHMU_FAULTS=${CHMU_FAULTS:-/run/chmu-faults}

# qmp_call COMMAND [ARGUMENTS-JSON]: run COMMAND on the lab's QEMU and print
# its "return" value (compact JSON); on a QMP error print its description
# to stderr and return 1, on no answer within 30 s return 2. The greeting,
# events and errors for lines that are not ours are skipped; every call
# first resets the server's parser and asks for capability negotiation,
# which after the first call of a boot only answers an error, ignored.
qmp_call() {
	local cmd=$1 args=${2-} id ans
	id=g$$x$RANDOM
	[ -c "$QMP_TTY" ] || { echo "qmp: no $QMP_TTY (boot with qemu/run-guest.sh)" >&2; return 2; }
	# The exchange runs in a subshell: a test is a session leader (its
	# suite starts it with setsid), and a session leader opening a tty
	# would make it its controlling terminal, whose hangup at the test's
	# end would kill what the test left running before the suite sees it.
	# ttyS2 is raw since the boot (qemu/guest-init).
	ans=$(
		exec {fd}<>"$QMP_TTY" || exit
		# ESC first: whatever half a line the server's JSON parser holds
		# ends in a lexical error, which resets it (docs/interop/qmp-spec.rst)
		printf '\033\n{"execute":"qmp_capabilities","id":"cap%s"}\n{"execute":"%s"%s,"id":"%s"}\n' \
			"$id" "$cmd" "${args:+,\"arguments\":$args}" "$id" >&"$fd"
		t0=$SECONDS
		while [ $((SECONDS - t0)) -lt 30 ] && IFS= read -r -t $((30 - (SECONDS - t0))) -u "$fd" line; do
			# the server writes '"id": "..."' with a space; jq only for ours
			case "$line" in *"\"id\": \"$id\""* | *"\"id\":\"$id\""*) echo "$line" && break ;; esac
		done
	)
	if [ -z "$ans" ]; then
		echo "qmp: no answer to $cmd within 30 s" >&2
		return 2
	fi
	case "$ans" in
	*'"return":'*)
		case "$ans" in
		*'"return": {}'*) echo '{}' ;;
		*) jq -c '.return' <<<"$ans" ;;
		esac
		;;
	*)
		echo "qmp: $cmd: $(jq -r '.error.desc // .' <<<"$ans" 2>/dev/null || echo "$ans")" >&2
		return 1
		;;
	esac
}

# _qmp_json VALUE: a property value as JSON: on/off/true/false as a bool,
# a decimal or 0x number as an unsigned decimal (-N stays signed)
_qmp_json() {
	case "$1" in
	on | true) echo true ;;
	off | false) echo false ;;
	-[0-9]*) echo "$(($1))" ;;
	[0-9]*) printf '%u\n' "$(($1))" ;;
	*) jq -Rn --arg v "$1" '$v' ;;
	esac
}

# chmu_qom_set PROPERTY JSON: qom-set on the CHMU's device
chmu_qom_set() {
	qmp_call qom-set "{\"path\":\"$CHMU_QOM\",\"property\":\"$1\",\"value\":$2}" >/dev/null
}

# chmu_fault PROP=VALUE...: set x-chmu-* properties of mem0's device at run
# time (their value before is kept for chmu_faults_restore). A fault in
# what the registers report at discovery (x-chmu-fault-*, x-chmu-cap1-clear)
# is seen by a driver that probes after it (chmu_reprobe).
chmu_fault() {
	local kv prop val old
	for kv in "$@"; do
		prop=${kv%%=*}
		val=$(_qmp_json "${kv#*=}")
		if ! grep -q "^$prop " "$CHMU_FAULTS" 2>/dev/null; then
			old=$(qmp_call qom-get "{\"path\":\"$CHMU_QOM\",\"property\":\"$prop\"}") || return 1
			echo "$prop $old" >>"$CHMU_FAULTS"
		fi
		chmu_qom_set "$prop" "$val" || return 1
	done
}

# chmu_faults_restore: every property chmu_fault changed back to its value
# before, newest first; true if there was nothing to restore
chmu_faults_restore() {
	local prop old rc=0
	[ -s "$CHMU_FAULTS" ] || return 0
	while read -r prop old; do
		chmu_qom_set "$prop" "$old" || rc=1
	done < <(tac "$CHMU_FAULTS")
	rm -f "$CHMU_FAULTS"
	return $rc
}

# chmu_reprobe: mem0's PCI device unbound from cxl_pci and bound again, so
# that the CXL core discovers the CHMU blocks and cxl_hmu their instances
# as the registers report them now, as at boot; false unless mem0 is back
# within 10 s
chmu_reprobe() {
	local pdev=${CHMU_PCI_DEV-} _
	if [ -z "$pdev" ]; then
		pdev=$(basename "$(readlink -f /sys/bus/cxl/devices/mem0/..)") || return 1
		CHMU_PCI_DEV=$pdev
	fi
	[ ! -e "/sys/bus/pci/drivers/cxl_pci/$pdev" ] ||
		echo "$pdev" >/sys/bus/pci/drivers/cxl_pci/unbind || return 1
	echo "$pdev" >/sys/bus/pci/drivers/cxl_pci/bind || return 1
	for _ in $(seq 100); do
		[ -d /sys/bus/cxl/devices/mem0 ] && return 0
		command -p sleep 0.1
	done
	return 1
}
