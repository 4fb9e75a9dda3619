# Helpers for guest and lab tests. Sourced.
# shellcheck shell=bash
set -euo pipefail
# qmp_call, chmu_fault: the device model changed at run time
. "$(dirname "${BASH_SOURCE[0]}")/qmp.sh"

fail() {
	echo "FAIL: $*" >&2
	exit 1
}

# fake_cache: a new temporary directory laid out as a $CHMU_CACHE with a
# built kernel (an empty image), for tests of the lab's scripts that put a
# made-up QEMU (QEMU=...) in place of the lab's; its path on stdout.
fake_cache() {
	local c
	c=$(mktemp -d)
	mkdir -p "$c/kernel/build/arch/x86/boot"
	: >"$c/kernel/build/arch/x86/boot/bzImage"
	echo 6.12.0-lab >"$c/kernel/release"
	echo "$c"
}

# expect_eq ACTUAL EXPECTED WHAT
expect_eq() {
	[ "$1" = "$2" ] || fail "$3: got '$1', expected '$2'"
	echo "ok: $3 = $2"
}

# bpf_links: how many BPF links exist. attached BEFORE [PID]: wait (30 s
# at most) until a tool started meanwhile has attached its programs; fail
# if they never come. With PID, until that process holds BPF links and
# sleeps in its main loop's wait (tool_ready): a tool may attach several
# links (chmutop: the batch and chmu_config programs), so the links of
# all processes together cannot tell a second tool from the first's next
# link. Without PID, until there are more than BEFORE.
# (bpftool's plain output, each link's first line "ID: type ...": jq's start
# alone costs a quarter of a second under TCG, and these run in polls)
bpf_links() { bpftool link show | grep -c '^[0-9]*: ' || true; }
attached() {
	local _
	if [ -n "${2-}" ]; then
		tool_ready "$2"
		return
	fi
	for _ in $(seq 300); do
		[ "$(bpf_links)" -gt "$1" ] && return 0
		command -p sleep 0.1
	done
	fail "the tool did not attach its BPF programs"
}

# tool_ready PID: wait (30 s at most) until PID holds a BPF link and is
# found asleep in its main loop's wait (_wait_state): a tool attaches all
# its programs at once, before its main loop, so all are attached then.
# Fails if PID exits first.
tool_ready() {
	local _ a b
	# one fork a try (a tool has dozens of files): the sooner it is seen
	# ready, the more of a fixed-length run is left for the workload
	for _ in $(seq 600); do
		kill -0 "$1" 2>/dev/null || fail "process $1 ended before attaching"
		if [ -n "$(find /proc/"$1"/fd -lname 'anon_inode:bpf_link' -print -quit 2>/dev/null)" ]; then
			_wait_state "$1" a
			_wait_state "$1" b
			[ -n "$a" ] && [ "$a" = "$b" ] && return 0
		fi
		command -p sleep 0.05
	done
	fail "process $1 did not attach its BPF programs and reach its main loop"
}

# bpftrace_attached PID N: wait (30 s at most) until bpftrace PID has its
# N tracepoint probes attached. bpftrace 0.17 prints "Attaching" and runs
# BEGIN before it attaches the other probes, so neither is the signal.
bpftrace_attached() {
	local _
	for _ in $(seq 300); do
		[ "$(bpftool perf show | grep -cE "^pid $1  fd [0-9]+: prog_id [0-9]+  tracepoint " || true)" -ge "$2" ] && return 0
		kill -0 "$1" 2>/dev/null || fail "bpftrace $1 ended before attaching"
		command -p sleep 0.1
	done
	fail "bpftrace $1 did not attach its $2 tracepoint probes"
}

# quiet_fds PID: how many files PID has open, counted while it sleeps in
# its main loop's wait (poll, epoll, nanosleep or sigwait) and does not run during
# the count (same voluntary context switches before and after). A tool
# still loading (libbpf holds the modules' BTF meanwhile) or reading a
# sysfs file for a moment is never counted. Shell builtins only, so the
# count fits between two wakeups of a tool polling every 100 ms even on
# the debug kernel. 30 s at most.
quiet_fds() {
	local _ a b
	local -a f
	for _ in $(seq 300); do
		_wait_state "$1" a
		f=(/proc/"$1"/fd/*)
		_wait_state "$1" b
		if [ -n "$a" ] && [ "$a" = "$b" ]; then
			echo "${#f[@]}"
			return 0
		fi
		command -p sleep 0.1
	done
	fail "pid $1 never found asleep in its main loop"
}

# _wait_state PID VAR: VAR is PID's syscall and context switch counts if it
# sleeps in one of the waits above (x86_64 numbers), empty otherwise.
_wait_state() {
	local -n _ws=$2
	local nr _r k v sw=""
	_ws=""
	read -r nr _r </proc/"$1"/syscall 2>/dev/null || return 0
	case "$nr" in
	7 | 35 | 128 | 230 | 232 | 270 | 271 | 281 | 441) ;;
	*) return 0 ;;
	esac
	while read -r k v; do
		case "$k" in *ctxt_switches:) sw="$sw $v" ;; esac
	done </proc/"$1"/status
	_ws="$nr$sw"
}

# wait_for WHAT CMD [ARGS...]: run CMD until it succeeds (60 s at most),
# else fail with WHAT. CMD must read what it tests each time it runs (a
# function, or attr_cmp): "$(cat FILE)" among ARGS is read once, before
# the first try.
wait_for() {
	local what=$1 _
	shift
	for _ in $(seq 600); do
		"$@" && return 0
		command -p sleep 0.1
	done
	fail "$what"
}

# attr_cmp FILE OP VALUE: the number in FILE against VALUE (-eq, -lt, -ge...)
# lru_drain: move the folios waiting in every CPU's LRU batches onto the
# LRU lists, where isolation (promotion, migration) finds them. The
# drop_caches write runs lru_add_drain_all() first (and drops only clean
# page cache); compact_memory also drains, but its own migrations leave
# the folios they move in the compacting CPU's batch.
lru_drain() { echo 1 >/proc/sys/vm/drop_caches; }
# stat_fold: fold the per-CPU deltas of the vmstat counters (node, zone
# and NUMA event counters wait in them up to a threshold per CPU) into
# the totals /proc/vmstat, /proc/meminfo and a node's vmstat show
stat_fold() { echo 1 >/proc/sys/vm/stat_refresh; }

attr_cmp() { [ "$(cat "$1")" "$2" "$3" ]; }
# vmstat_get KEY: KEY's value in /proc/vmstat
vmstat_get() { awk -v k="$1" '$1 == k { print $2 }' /proc/vmstat; }

# demotion_on NAME: demotion enabled and CG, a memory cgroup NAME under the
# root, for proactive reclaim (memory.reclaim) to demote from;
# demotion_off (in the test's cleanup) restores demotion and removes CG
DEMOTION=/sys/kernel/mm/numa/demotion_enabled
demotion_on() {
	DEMOTION0=$(cat $DEMOTION)
	CG=/sys/fs/cgroup/$1
	echo +memory >/sys/fs/cgroup/cgroup.subtree_control
	mkdir -p $CG
	echo 1 >$DEMOTION
}
demotion_off() {
	[ -z "${DEMOTION0-}" ] || echo "$DEMOTION0" >$DEMOTION
	[ -z "${CG-}" ] || rmdir $CG 2>/dev/null
}

# kv KEY TEXT: the value of KEY=value in TEXT (one per line).
kv() {
	sed -n "s/^$1=//p" <<<"$2" | head -n 1
}

# CHMU device tests -------------------------------------------------------

# chmu_setup: a device-DAX region over mem0, as DEV (and REGION, ...),
# with no instance enabled through the driver (hmu_quiesce; the test fails
# if perf holds one); on exit every instance is disabled and the region
# destroyed, so tests sharing a guest start from the same state.
chmu_setup() {
	hmu_quiesce || fail "an instance is held by perf: the driver would drain under the test"
	eval "$(chmu-region create -m mem0 --devdax)"
	trap chmu_cleanup EXIT
}

# hmu_quiesce: no instance enabled through the driver (one left enabled,
# by a test that failed or one that ends with it on, would drain the
# hotlist under the register-level tests after it); false if one is held
# by a perf event, which the driver does not let go through sysfs.
hmu_quiesce() {
	local d held=0
	for d in /sys/bus/cxl/devices/hmu_*/hmu_*; do
		[ -e "$d/enable" ] || continue
		{ echo 0 >"$d/enable"; } 2>/dev/null || true
		[ "$(cat "$d/owner" 2>/dev/null)" != perf ] || held=1
	done
	return $held
}

chmu_cleanup() {
	local blk inst
	hmu_quiesce || true	# the driver's view first, then the registers
	for blk in 0 1 2 3; do
		for inst in 0 1 2 3 4 5 6 7; do
			chmu-regs -b $blk -i $inst disable >/dev/null 2>&1 || break
		done
	done
	chmu-region destroy all
}

# touch UNITS COUNT [ARGS...]: COUNT 8-byte loads at each 4 KiB unit.
touch_units() {
	local units=$1 count=$2
	shift 2
	chmu-workload touch --dax "$DEV" --size 2M --units "$units" --count "$count" "$@" >/dev/null
}

# entries [ARGS...]: drain the instance; "unit:count" per entry, in order.
entries() {
	chmu-regs drain "$@" | sed -n 's/^entry unit=\([0-9]*\) count=\([0-9]*\)$/\1:\2/p' | tr '\n' ' ' | sed 's/ $//'
}

# hotlist_wait [N] [ARGS...]: wait (60 s at most) until the instance's hotlist
# holds N entries (default 1), as an epoch end posts them: the wait for an
# epoch to end, without a fixed sleep.
hotlist_wait() {
	local n=${1:-1} size
	shift || true
	size=$(chmu-regs list | tr ' ' '\n' | sed -n 's/^hotlist_size=//p' | head -n 1)
	_held() { # one status read, one awk: it runs ten times a second
		chmu-regs status "$@" | tr ' ' '\n' | awk -F= -v n="$n" -v s="$size" \
			'$1 == "head" { h = $2 } $1 == "tail" { t = $2 } END { exit !((t - h + s) % s >= n) }'
	}
	wait_for "the hotlist never held $n entries" _held "$@"
}

# status_field NAME [ARGS...]: one field of chmu-regs status.
status_field() {
	local f=$1
	shift
	chmu-regs status "$@" | tr ' ' '\n' | sed -n "s/^$f=//p"
}

# guest_errors: the device model's guest-error log lines since the test
# started (tests/guest-suite.sh sets GUEST_ERRORS_FROM, the log's size
# then), so that tests sharing a boot do not see each other's
guest_errors() {
	tail -c +$((${GUEST_ERRORS_FROM:-0} + 1)) "$CHMU_RESULTS/qemu.log" 2>/dev/null || true
}

# Driver tests -------------------------------------------------------------

# stop_bpftrace PID: Ctrl-C a bpftrace, wait until it has printed its maps
# and exited; its exit status. bpftrace 0.17 notices SIGINT only when the
# signal interrupts its epoll_wait(): one arriving between two calls (a
# wider window under TCG) is lost and it runs on, so the signal is sent
# again each second until it exits.
stop_bpftrace() {
	local i
	for i in $(seq 30); do
		kill -INT "$1" 2>/dev/null || break
		for _ in $(seq 10); do
			kill -0 "$1" 2>/dev/null || break 2
			command -p sleep 0.1
		done
		echo "bpftrace $1 still running after SIGINT $i: sending another"
	done
	wait "$1"
}

# kernel_quiet: fail if the kernel log holds a warning, oops, KASAN report,
# lockdep splat, sleep in atomic context or debug-object complaint (the
# debug kernel's boot banners for KASAN, lockdep and kmemleak are not).
KERNEL_REPORTS='BUG:|WARNING:|Oops|KASAN:|UBSAN|possible (circular|recursive) locking|inconsistent lock state|suspicious RCU usage|sleeping function called from invalid context|ODEBUG:|list_(add|del) corruption|INFO: task .* blocked'
kernel_quiet() {
	local log bad
	log=$(dmesg)
	bad=$(grep -E "$KERNEL_REPORTS" <<<"$log" || true)
	[ -z "$bad" ] || { tail -n 60 <<<"$log"; fail "kernel reports: $(head -n 3 <<<"$bad")"; }
	echo "ok: the kernel log is quiet"
}

HMU=/sys/bus/cxl/devices/hmu_mem0.0/hmu_mem0.0.0
TRACE=/sys/kernel/tracing

# hmu_setup: a freshly loaded driver (instances at their defaults, whatever
# earlier tests in this guest did) tracing the chmu events into a clean
# buffer.
hmu_setup() {
	modprobe -r cxl_hmu 2>/dev/null || true
	modprobe cxl_hmu
	[ -d $HMU ] || fail "no $HMU after loading cxl_hmu"
	echo 0 >$TRACE/tracing_on
	echo >$TRACE/trace
	echo 1 >$TRACE/events/chmu/enable
	echo 1 >$TRACE/tracing_on
}

# dmesg_mark: a line in the kernel log that dmesg_new starts after, so that
# a test sharing its boot with others reads only what it caused
dmesg_mark() {
	DMESG_MARK="chmu-test-mark $$.$RANDOM"
	echo "$DMESG_MARK" >/dev/kmsg
}
dmesg_new() {
	dmesg | awk -v m="$DMESG_MARK" 'seen; index($0, m) { seen = 1 }'
}

# hostile_check FAULTS REASON GONE OK: the CHMU made to report a hostile
# layout at run time (chmu_fault FAULTS, comma-separated PROP=VALUE) and
# discovered again as at boot (cxl_hmu unloaded, mem0 rebound to cxl_pci
# with chmu_reprobe, cxl_hmu loaded): the kernel log names the refusal
# (REASON, a fixed
# string), the refused block or instance GONE does not exist, the memdev
# works, the instance OK (its sysfs path) reports a known workload exactly,
# and the kernel is quiet. The suite restores the layout after the test.
hostile_check() {
	local reason=$2 gone=$3
	HMU=$4
	dmesg_mark
	# the boot's order: the CXL core discovers the blocks, then cxl_hmu,
	# loaded after, attaches to them
	modprobe -r cxl_hmu
	# shellcheck disable=SC2046
	chmu_fault $(tr ',' ' ' <<<"$1") || fail "could not set $1"
	chmu_reprobe || fail "mem0 did not come back after a rebind"
	modprobe cxl_hmu
	dmesg_new | grep -F -- "$reason" ||
		{ dmesg_new | grep -i -E 'chmu|hmu' >&2; fail "no '$reason' in the kernel log"; }
	[ ! -e "$gone" ] || fail "$gone exists"
	[ -d /sys/bus/cxl/devices/mem0 ] || fail "no memdev mem0"
	hmu_setup
	chmu_setup
	hmu_cfg mode=always-on threshold=40 fill_threshold=0 poll_ms=100 enable=1
	touch_units 9 40
	hmu_cfg enable=0
	expect_eq "$(trace_entries)" "9:40" "entries of $(basename "$HMU")"
	kernel_quiet
}

# hmu_wait ATTR VALUE: wait (up to 10 s) until the instance's ATTR reads
# VALUE; fail otherwise.
hmu_wait() {
	for _ in $(seq 100); do [ "$(cat $HMU/$1)" = "$2" ] && return; command -p sleep 0.1; done
	fail "$1 is $(cat $HMU/$1), not $2"
}

# PROMOTE_REASONS: the promoter's counters of pages tried but not promoted
# (promote/failed_*); promote_failed [DIR]: their sum in DIR (default
# $HMU/promote), so that tried = promoted + promote_failed.
PROMOTE_REASONS="failed_gone failed_not_lru failed_isolate failed_no_memory failed_on_target
	failed_busy failed_watermark failed_policy failed_rate_limited failed_settling"
promote_failed() {
	local f n=0
	for f in $PROMOTE_REASONS; do n=$((n + $(cat "${1:-$HMU/promote}/$f"))); done
	echo $n
}

# node0_full: node 0 full for a promotion without anything spilling: no
# zone of it has room over its high watermark and the reserve it keeps
# from movable allocations, one at least is over its low one, so that
# allocations go on as before, nothing wakes kswapd or falls back to the
# CXL node (where the device would count it). vm.watermark_scale_factor
# at its most (30% of a zone between the marks) and balloons (pipe
# buffers, which nothing reclaims or migrates) bringing the largest
# zone's free memory halfway between its low and high watermarks, once
# the page cache is dropped (what earlier tests left there would free it
# again). Called again, it tops the balloons up. node0_room: the scale
# factor back (node 0 has room again, the balloons stay); node0_release:
# the balloons given back and the settings restored, non-zero if a
# balloon did not exit cleanly (in an EXIT trap: node0_release || true).
NODE0_BALLOONS=
NODE0_WS0=
NODE0_PM0=
_node0_zones() {
	awk -v want="$1" '/^Node/ { on = ($2 == "0,") }
		on && $1 == "pages" && $2 == "free" { f = $3 }
		on && $1 == "low" { l = $2 }
		on && $1 == "high" { h = $2 }
		on && $1 == "managed" { if ($2 > big) { big = $2; half = f - (l + h) / 2 }; m = $2 }
		on && $1 == "protection:" { gsub(/[(),]/, " "); p = $NF
			if (m && f > h + p) room++; if (m && f > l + p) alloc++ }
		END { if (want == "half") print int(half * 4); else exit !(room == 0 && alloc > 0) }' \
		/proc/zoneinfo
}
node0_full() {
	local kb n
	if [ -z "$NODE0_WS0" ]; then
		NODE0_WS0=$(cat /proc/sys/vm/watermark_scale_factor)
		NODE0_PM0=$(cat /proc/sys/fs/pipe-max-size)
		echo $((8 << 20)) >/proc/sys/fs/pipe-max-size
	fi
	echo 3000 >/proc/sys/vm/watermark_scale_factor
	sync
	echo 3 >/proc/sys/vm/drop_caches
	kb=$(_node0_zones half)
	if [ "$kb" -gt 1024 ]; then
		n=$(wc -w <<<"$NODE0_BALLOONS")
		rm -f /tmp/node0.balloon.$n
		chmu-workload balloon --node 0 --size "${kb}K" >/tmp/node0.balloon.$n &
		NODE0_BALLOONS="$NODE0_BALLOONS $!"
		wait_for "the balloon did not fill" grep -q '^held=' /tmp/node0.balloon.$n
	fi
	_node0_zones full ||
		fail "node 0 not between its low and high watermarks: $(grep -A8 '^Node 0' /proc/zoneinfo | tr -s ' ' | tr '\n' ' ')"
}
node0_room() {
	[ -z "$NODE0_WS0" ] || echo "$NODE0_WS0" >/proc/sys/vm/watermark_scale_factor
}
node0_release() {
	local p rc=0
	for p in $NODE0_BALLOONS; do
		kill -USR1 "$p" 2>/dev/null || rc=1
		wait "$p" || rc=1
	done
	NODE0_BALLOONS=
	node0_room
	[ -z "$NODE0_PM0" ] || echo "$NODE0_PM0" >/proc/sys/fs/pipe-max-size
	NODE0_WS0= NODE0_PM0=
	return $rc
}

# promote_pair full|room UNIT UNIT: with the instance enabled, draining
# only at its stop (poll_ms 60000) and a threshold of 50, the two units
# read 50 times in new pages of the CXL node, node 0 full (node0_full) or
# with room (node0_room) from before the reads; then one drain (the
# instance's stop) holding their two entries, and the promoter's batch
# done (tried = queued_pages: nothing expires without a latency bound).
# The workload's PID is in PAIR_WL while it runs (for a test's trap), its
# report (unit nodes: after0, after1) in PAIR_OUT once it is done.
PAIR_WL=
PAIR_OUT=
promote_pair() {
	local e0 f=/tmp/promote-pair.out
	rm -f $f
	chmu-workload touch --node "$NODE" --movable --no-thp --size 1M --units "$2,$3" --count 50 \
		--wait --hold >$f &
	PAIR_WL=$!
	wait_for "the workload did not allocate" grep -q '^ready=' $f
	lru_drain
	if [ "$1" = full ]; then node0_full; else node0_room; fi
	awk '/^Node/ { z = $0 } /^ +(free|low|high) / && z ~ /^Node 0,/ { print z ": " $1 " " $2 }' \
		/proc/zoneinfo | paste -d' ' - - -
	e0=$(cat $HMU/entries)
	kill -USR1 $PAIR_WL
	wait_for "the workload did not reach --hold" grep -q '^held=' $f
	hmu_cfg enable=0
	expect_eq "$(($(cat $HMU/entries) - e0))" 2 "units $2 and $3: entries in the drain"
	wait_for "queue not emptied" attr_cmp $HMU/promote/pending -eq 0
	wait_for "batch not done" sh -c "[ \$(cat $HMU/promote/tried) -eq \$(cat $HMU/promote/queued_pages) ]"
	kill -USR1 $PAIR_WL
	wait $PAIR_WL || fail "workload failed"
	PAIR_WL=
	PAIR_OUT=$(cat $f)
}

# perf_hold ARGS...: a chmu-perf session (ARGS as chmu-perf's) in the
# background that lasts until perf_release, not for a time: a session
# timed with sleep can end before the checks made while it is open.
# Waits until the instance's owner is perf; its PID in PERF_HOLD.
perf_hold() {
	chmu-perf "$@" -- sleep 600 >/tmp/perf-hold.out 2>&1 &
	PERF_HOLD=$!
	hmu_wait owner perf
}

# perf_release [WHAT]: ends the perf_hold session as Ctrl-C does; it must
# exit 0 (WHAT names it in the failure).
perf_release() {
	kill -INT "$PERF_HOLD"
	wait "$PERF_HOLD" || fail "${1:-the held chmu-perf session} failed: $(cat /tmp/perf-hold.out)"
}

# start_tool VAR OUT CMD...: CMD (a BPF tool) in the background, its
# output in OUT, its errors in OUT.err and its PID in VAR (set first, so
# that the test's cleanup can kill it); it attached its BPF programs, else
# the test fails with its errors.
start_tool() {
	local _var=$1 _out=$2 _l0
	shift 2
	_l0=$(bpf_links)
	"$@" >"$_out" 2>"$_out.err" &
	printf -v "$_var" %s $!
	(attached "$_l0" $!) || fail "$(cat "$_out.err")"
}

# last_frame FILE: the records of the last complete frame (interval) of a
# tool's NDJSON in FILE, complete lines only (the tool may be writing the
# last one).
last_frame() {
	head -n "$(wc -l <"$1")" "$1" | jq -c --slurp 'map(select(.interval != null)) | (map(.interval) | max) as $m |
		map(select(.interval == $m - 1)) | .[]' 2>/dev/null
}

# hmu_drained N: wait (up to 60 s) until the instance has drained at least
# N entries since its enable. The driver counts a drain after its
# tracepoints, so the BPF tools on them have seen those entries: a tool
# run without a count can then be stopped (SIGINT) with all of them, however
# slowly the guest ran.
hmu_drained() {
	wait_for "$(basename "$HMU") did not drain $1 entries" attr_cmp "$HMU/entries" -ge "$1"
}

# hmu_cfg ATTR=VALUE...: configure the instance through sysfs.
hmu_cfg() {
	local kv
	for kv in "$@"; do
		echo "${kv#*=}" >"$HMU/${kv%%=*}" || fail "writing ${kv#*=} to ${kv%%=*}"
	done
}

# trace_field EVENT FIELDS...: "f1=v1 f2=v2 ..." per EVENT line, chosen fields.
trace_events() {
	local ev=$1
	shift
	# one awk for all lines: thousands of events must not cost a fork each
	grep " $ev: " $TRACE/trace | sed 's/.*: mem[0-9]* chmu[0-9.]* //' |
		awk -v want="$*" 'BEGIN { n = split(want, w, " ") }
		{
			out = ""
			for (i = 1; i <= n; i++)
				for (j = 1; j <= NF; j++)
					if (index($j, w[i] "=") == 1) {
						out = out (out == "" ? "" : " ") $j
						break
					}
			print out
		}'
}

# expect_errno ERRNO-NAME FILE VALUE: writing VALUE to FILE fails with it.
expect_errno() {
	local out
	out=$( (echo "$3" >"$2") 2>&1) && fail "writing $3 to $2 succeeded"
	grep -q "$1" <<<"$out" || fail "writing $3 to $2: '$out', expected $1"
	echo "ok: $(basename "$2") <- $3: $1"
}

# perf -------------------------------------------------------------------

PMU=cxl_hmu_mem0.0.0

# perf_errno ERRNO TERMS: opening PMU/TERMS/ fails with ERRNO (or "ok").
perf_errno() {
	expect_eq "$(chmu-perf --check "$PMU/$2/" || true)" "$1" "perf_event_open $2"
}

# aux_entries: "unit:count" per AUX entry of chmu-perf's output on stdin.
aux_entries() {
	sed -n 's/^entry unit=\([0-9]*\) dpa=[0-9a-fx]* count=\([0-9]*\)$/\1:\2/p' | tr '\n' ' ' | sed 's/ $//'
}

# trace_entries: "unit:count" per chmu_hotlist_entry event traced so far.
trace_entries() {
	trace_events chmu_hotlist_entry unit count | sed 's/unit=\([0-9]*\) count=\([0-9]*\)/\1:\2/' | tr '\n' ' ' | sed 's/ $//'
}
