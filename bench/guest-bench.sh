#!/bin/bash
# Runs in the guest (bench/run.sh):
#   guest-bench.sh memory        DRAM vs CXL throughput
#   guest-bench.sh chmu LABEL    CXL throughput with the CHMU off, then on
#   guest-bench.sh epochend      epoch ends of the exact tracker as the
#                                units touched in an epoch grow (QEMU's
#                                cxl_chmu_epoch_end trace times them;
#                                bench/epochend-rows.sh computes the rows)
#   guest-bench.sh drain         the driver's drain cost per hotlist entry
#                                under each consumer, and the toolkit's CPU
#   guest-bench.sh scale LABEL   drain cost per entry with chmutop attached
#                                as enabled instances and entry rate grow
#                                (LABEL: the boot's hotlist size)
#   guest-bench.sh accuracy LABEL [damon]
#                                top-K recall/precision and access-count
#                                ratios of chmutop on a Zipf workload with
#                                known truth; with damon, DAMON watches the
#                                same run (paddr, sysfs)
#   guest-bench.sh shift LABEL [damon]
#                                the same with a hot set that moves halfway:
#                                how many epochs each monitor needs to follow
#                                (both leave the runs' data; the host's
#                                bench/accuracy-rows.sh computes the rows)
#   guest-bench.sh promote LABEL POLICY...
#                                the same Zipf run (hot set in a larger
#                                working set, moved halfway) under each
#                                promotion policy: none, chmu (the driver's
#                                promoter), numab (NUMA balancing, tiering
#                                mode), damon (migrate_hot), dram (the
#                                memory on node 0); bench/promote-rows.sh
#                                computes the rows on the host
#   guest-bench.sh tier LABEL RATIO POLICY...
#   guest-bench.sh tier-pg LABEL RATIO POLICY...
#                                tiering under pressure: node 0 holds a
#                                1/(1 + RATIO) share of a Zipf working set
#                                (tier-pg: of PostgreSQL's shared memory
#                                under pgbench)
#                                (a balloon of pipe buffers), demotion on; policies
#                                as in promote plus damon-tier (migrate_hot
#                                and migrate_cold with quotas) and watch
#                                (the promoter's CHMU configuration,
#                                drained, nothing promoted); dram runs
#                                without the balloon; bench/tier-rows.sh
#                                computes the rows on the host. A POLICY of
#                                the form RUN:POLICY names the run's files
#                                RUN.POLICY.* (the same policy run twice)
#   guest-bench.sh tier-blocks LABEL RATIO FIRST COUNT ARM...
#                                paired blocks (docs/tiering.md): blocks
#                                FIRST to FIRST + COUNT - 1, each running
#                                every ARM once in the block's Williams
#                                order (chmu-tierstat order), on the
#                                block's seed, bounded by accesses, with
#                                the placement regret of the window; an
#                                all-DRAM run first and last (the drift
#                                check); files bBLOCK.ARM.*, start.dram.*
#                                and end.dram.*
# Settings (bench/run.sh passes the host's BENCH_* on):
#   BENCH_ROUNDS=5        off/on rounds per tracker model (chmu)
#   BENCH_DRAIN_ROUNDS=5  rounds over all consumers (drain)
#   BENCH_DRAIN_CONSUMERS=LABEL,...
#                         only these consumers (drain, attrib; their labels
#                         as in the tables) besides the bare drain, which
#                         always runs first (make bench-goals: those its
#                         goals read)
#   BENCH_DRAIN_PASSES=32, BENCH_SCALE_PASSES=4, BENCH_PASSES=8, BENCH_SIZE=2M
#                         the streams' passes and size
#   BENCH_EPOCH_UNITS="4096 16384 65536 262144 1048576"
#                         units of 256 B touched in an epoch (epochend)
#   BENCH_PROMOTE_SECS=40, BENCH_PROMOTE_SIZE=64M, BENCH_PROMOTE_HOT=1024
#                         the promotion runs' length, working set, hot units
#   BENCH_TIER_SECS=60, BENCH_TIER_SIZE=48M, BENCH_TIER_ZIPF=0.99,
#   BENCH_TIER_DAMON_MBPS=4, BENCH_TIER_PG_SCALE=3, BENCH_TIER_PG_SB=64MB,
#   BENCH_TIER_PG_ZIPF=1.01, BENCH_TIER_PG_CLIENTS=2
#                         the tiering runs' length, working set, Zipf
#                         exponent, DAMON tiering's quota each way
#   BENCH_TIER_ACCESSES=8M, BENCH_TIER_WINDOW=50, BENCH_TIER_SEED=1
#                         tier-blocks: accesses per run, the regret
#                         window's start (percent of them), the first
#                         block's seed (block B runs on SEED + B)
#   BENCH_PROMOTE_MIN_COUNT=0, BENCH_PROMOTE_FULL_BACKOFF=0
#                         the promoter's promote/min_count (a unit's
#                         count it needs; the device reports from 16) and
#                         promote/full_backoff
set -euo pipefail
R=${CHMU_RESULTS:?}
PASSES=${BENCH_PASSES:-8}
BYTES=${BENCH_SIZE:-2M}

rate() { # rate ARGS... : the accesses/s chmu-workload stream reports
	chmu-workload stream --size "$BYTES" --passes "$PASSES" "$@" |
		sed -n 's/^rate=//p'
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", a / b }'; }
# median: the median of the numbers on stdin, one per line
median() {
	sort -g | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
ROUNDS=${BENCH_ROUNDS:-5}
# bpf_ns: the run time of all BPF programs (kernel.bpf_stats_enabled)
bpf_ns() { bpftool prog show -j | jq '[.[] | .run_time_ns // 0] | add // 0'; }
# cpu_ns PID: the user+system time of a process, in ns
cpu_ns() {
	awk -v hz="$(getconf CLK_TCK)" '{ printf "%.0f", ($14 + $15) * 1e9 / hz }' "/proc/$1/stat"
}
# task_clock_start PID, task_clock_stop, task_clock_ns: PID's time on a
# CPU between start and stop, in ns, from perf's task-clock software
# event (per-thread runtime; perf -x prints it in ms with 2 decimals: 10
# us resolution); /proc/PID/stat counts 10 ms clock ticks, coarse beside
# the 15-40 ms a tool spends over a drain run. The count starts once perf
# has its events open (it enables them right after). Stop in this shell,
# not in a $(...) subshell, whose wait cannot wait for perf: the counts
# are written when perf exits.
task_clock_start() {
	perf stat -e task-clock -x, -p "$1" -o "$R/task-clock.txt" &
	TASK_CLOCK=$!
	for _ in $(seq 100); do
		[ -z "$(find /proc/$TASK_CLOCK/fd -lname 'anon_inode:*perf_event*' 2>/dev/null)" ] || return 0
		kill -0 $TASK_CLOCK 2>/dev/null || break
		sleep 0.1
	done
	kill $TASK_CLOCK 2>/dev/null || true
	echo "bench: perf stat did not attach to $1" >&2
	exit 1
}
task_clock_stop() {
	kill -INT $TASK_CLOCK 2>/dev/null || true
	wait $TASK_CLOCK 2>/dev/null || true
}
task_clock_ns() {
	awk -F, '$3 ~ /^task-clock/ && $1 ~ /^[0-9.]+$/ { printf "%.0f", $1 * 1e6; n = 1 } END { exit !n }' \
		"$R/task-clock.txt" || { echo "bench: no task-clock count in $R/task-clock.txt" >&2; exit 1; }
}
# wait_key FILE KEY WHAT: wait up to 60 s for a KEY= line in FILE (a
# helper process says it is in place); none: "bench: WHAT", and the run
# stops
wait_key() {
	for _ in $(seq 600); do grep -q "^$2=" "$1" && return 0; sleep 0.1; done
	echo "bench: $3" >&2
	exit 1
}
# attachments: BPF links plus perf-event attachments (bpftrace's
# tracepoints); a consumer is attached once the count grows
attachments() {
	echo $(($(bpftool link show -j | jq length) + $(bpftool perf show -j | jq length)))
}
# wait_attached WHAT COUNT: wait until attachments() exceeds COUNT (BPF
# loads slowly under TCG, bpftrace's most of all), then for the
# consumer's remaining attachments and first interval
# (PID: the consumer, whose end or error output ends the wait)
wait_attached() {
	for _ in $(seq 300); do
		[ "$(attachments)" -gt "$2" ] && break
		[ -z "${3-}" ] || kill -0 "$3" 2>/dev/null || break
		sleep 0.5
	done
	[ "$(attachments)" -gt "$2" ] ||
		{ echo "bench: $1 did not attach: $(cat "$R/consumer.err" 2>/dev/null)" >&2; exit 1; }
	sleep 2
}

# measure LABEL [consumer command...]: one run of load() under it on
# instance $I, appended to $DRAIN_OUT as
# LABEL|entries|drain_ns|bpf_ns|process_ns (drain and attrib)
measure() {
	local label=$1 pid="" b0 b1 c=0 a0
	shift
	wanted "$label" || return 0
	if [ "${1-}" = perf ]; then
		shift
		chmu-perf "$@" -- sleep 600 >/dev/null &
		pid=$!
		for _ in $(seq 100); do [ "$(cat $I/owner)" = perf ] && break; sleep 0.1; done
		[ "$(cat $I/owner)" = perf ] || { echo "bench: chmu-perf did not take the instance" >&2; exit 1; }
	else
		echo 1 >$I/enable
		if [ $# -gt 0 ]; then
			a0=$(attachments)
			"$@" >/dev/null 2>"$R/consumer.err" &
			pid=$!
			wait_attached "$label" "$a0" "$pid"
		fi
	fi
	[ -z "$pid" ] || task_clock_start "$pid"
	b0=$(bpf_ns)
	load
	sleep 1.5	# the tools' next interval: their user-space share
	b1=$(bpf_ns)
	if [ -n "$pid" ]; then
		task_clock_stop
		c=$(task_clock_ns)
	fi
	local e d
	e=$(cat $I/entries)
	d=$(cat $I/drain_ns)
	if [ -n "$pid" ]; then
		kill -INT "$pid" 2>/dev/null || true	# chmu-perf ends its sleep
		for _ in $(seq 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
		kill -KILL "$pid" 2>/dev/null || true
		wait "$pid" 2>/dev/null || true
	fi
	[ "$(cat $I/owner)" = sysfs ] && echo 0 >$I/enable
	echo "$label|$e|$d|$((b1 - b0))|$c" >>"$DRAIN_OUT"
}
# wanted LABEL: the consumer is to be measured (BENCH_DRAIN_CONSUMERS)
wanted() {
	[ -z "${BENCH_DRAIN_CONSUMERS-}" ] || [ "$1" = "tracepoints disabled" ] ||
		[[ ",$BENCH_DRAIN_CONSUMERS," == *",$1,"* ]]
}
# drain_medians IN: per consumer, in first-seen order: median entries,
# median ns per entry (drain, BPF, process) and the range of the
# drain's, as LABEL|entries|drain|lo|hi|bpf|process|rounds
drain_medians() {
	awk -F'|' '
	function med(a, n,   i, j, t) {
		for (i = 2; i <= n; i++)
			for (j = i; j > 1 && a[j - 1] > a[j]; j--) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
		return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
	}
	!($1 in n) { order[++nc] = $1 }
	{ k = ++n[$1]; E[$1, k] = $2; D[$1, k] = $3 / $2; B[$1, k] = $4 / $2; P[$1, k] = $5 / $2 }
	END {
		for (c = 1; c <= nc; c++) {
			l = order[c]; m = n[l]
			lo = hi = D[l, 1]
			for (k = 1; k <= m; k++) {
				e[k] = E[l, k]; d[k] = D[l, k]; b[k] = B[l, k]; p[k] = P[l, k]
				if (d[k] < lo) lo = d[k]
				if (d[k] > hi) hi = d[k]
			}
			printf "%s|%d|%.1f|%.1f|%.1f|%.1f|%.1f|%d\n", l, med(e, m), med(d, m), lo, hi, med(b, m), med(p, m), m
		}
	}' "$1"
}

# tier-blocks: the tier mode over a list of runs, the blocks' order
BLOCKS=0
if [ "${1-}" = tier-blocks ]; then
	[ $# -ge 6 ] || { echo "usage: guest-bench.sh tier-blocks LABEL RATIO FIRST COUNT ARM..." >&2; exit 1; }
	b_label=$2 b_ratio=$3 b_first=$4 b_count=$5
	shift 5
	b_arms=$(IFS=,; echo "$*")
	runs=(start:dram)
	for ((b = b_first; b < b_first + b_count; b++)); do
		order=$(chmu-tierstat order "$b_arms" "$b") || exit 1
		for a in $order; do
			runs+=("b$b:$a")
		done
	done
	runs+=(end:dram)
	BLOCKS=1
	set -- tier "$b_label" "$b_ratio" "${runs[@]}"
fi

if [ "$1" = accuracy ] || [ "$1" = shift ] || [ "$1" = promote ] || [ "$1" = attrib ] ||
	[ "$1" = tier ] || [ "$1" = tier-pg ]; then
	eval "$(chmu-region create -m mem0 --ram)"
else
	eval "$(chmu-region create -m mem0 --devdax)"
fi
# The promotion and tiering runs' helpers: the mechanisms' probes, each
# policy on and off (I: the instance, D: DAMON's sysfs, HPA and SIZE: the
# CXL region, DRAM_START and DRAM_END: node 0's memory, for DAMON's
# demotion context)
I=/sys/bus/cxl/devices/hmu_mem0.0/hmu_mem0.0.0
D=/sys/kernel/mm/damon/admin/kdamonds
T=/sys/kernel/tracing
# chmu_latency_start / chmu_latency_stop: the promoter's batches from
# chmu:chmu_promote (tracefs); stop prints promote_latency_p50_ns and
# _p99_ns (from the drain that queued a batch's oldest record to the
# batch done) over the batches that migrated
chmu_latency_start() {
	echo 0 >$T/tracing_on
	echo >$T/trace
	# 16 MiB a CPU, once (tiering sets it before its balloon)
	[ "$(cut -d" " -f1 $T/buffer_size_kb)" -ge 16384 ] || echo 16384 >$T/buffer_size_kb
	echo 1 >$T/events/chmu/chmu_promote/enable
	echo 1 >$T/tracing_on
}
chmu_latency_stop() {
	echo 0 >$T/events/chmu/chmu_promote/enable
	grep ' chmu_promote: ' $T/trace | sed -n 's/.* migrated=\([0-9]*\) .*latency_ns=\([0-9]*\).*/\1 \2/p' |
		awk '$1 > 0 { print $2 }' | sort -n | awk '{ v[NR] = $1 }
		END {
			p50 = NR ? v[int((NR + 1) * 0.5)] : 0; i = int(NR * 0.99 + 0.999)
			if (i < 1) i = 1
			printf "promote_latency_p50_ns=%.0f\npromote_latency_p99_ns=%.0f\npromote_latency_batches=%d\n", p50, NR ? v[i] : 0, NR
		}'
	echo >$T/trace
}
# probes_start WORKLOAD KDAMOND: the mechanisms' time, with the same
# probes in every policy's run (KDAMOND -1 when there is none): NUMA
# balancing's scans (task_numa_work) and the workload's page faults
# (after its allocation every one is a hint fault), ktime between
# entry and return; kdamond's time on a CPU from sched_switch. The
# tick-sampled utime and stime mislead under TCG (a workload on the
# CXL node shows about twice its wall time in them), and the lab
# kernel has no schedstat.
probes_start() {
	local a0
	# tiering: no bpftrace once the balloon is in (its start-up needs
	# more memory than node 0 then has, and crawls on the CXL node)
	if [ "${NO_PROBES:-0}" = 1 ]; then
		probes=
		return 0
	fi
	a0=$(attachments)
	bpftrace -e "kprobe:task_numa_work /pid == $1/ { @s[tid] = nsecs; }
		kretprobe:task_numa_work /@s[tid]/ { @scan_ns = sum(nsecs - @s[tid]); delete(@s[tid]); }
		kprobe:handle_mm_fault /pid == $1/ { @f[tid] = nsecs; }
		kretprobe:handle_mm_fault /@f[tid]/ { @fault_ns = sum(nsecs - @f[tid]); @faults = count(); delete(@f[tid]); }
		tracepoint:sched:sched_switch {
			if (args->next_pid == $2) { @on = nsecs; }
			if (args->prev_pid == $2 && @on) { @oncpu_ns = sum(nsecs - @on); @on = 0; } }" \
		>/run/probes.bt 2>&1 &
	probes=$!
	wait_attached bpftrace "$a0"
}
probes_stop() { # probes_stop POLICY: probe_KEY=value lines (0: nothing seen)
	local f v
	if [ -z "$probes" ]; then
		for f in scan_ns fault_ns faults oncpu_ns; do echo "probe_$f=0"; done
		return 0
	fi
	bt_stop $probes
	cp /run/probes.bt "$R/$1.bt"
	for f in scan_ns fault_ns faults oncpu_ns; do
		v=$(sed -n "s/^@$f: //p" /run/probes.bt)
		echo "probe_$f=${v:-0}"
	done
}
# bt_stop PID: Ctrl-C a bpftrace until it exits (0.17 misses a SIGINT
# that does not interrupt its epoll_wait)
bt_stop() {
	while kill -INT "$1" 2>/dev/null; do
		for _ in $(seq 10); do kill -0 "$1" 2>/dev/null || break 2; sleep 0.1; done
	done
	wait "$1" || true
}
vm() { grep -E '^(numa_hint_faults|numa_pte_updates|pgpromote_success|pgmigrate_success|pgpromote_candidate|pgpromote_pingpong|pgdemote_kswapd|pgdemote_direct|thp_split_page|pgmajfault|pgsteal_kswapd|pgsteal_direct|pgscan_kswapd|workingset_refault_file|workingset_refault_anon) ' /proc/vmstat; kswapd_ticks; }
policy_on() {
	case "$1" in
	chmu | watch)
		[ "$1" = watch ] || chmu_latency_start
		# 100 ms epochs, threshold 16: a cold unit (uniform, under two
		# accesses per epoch) stays under it, a hot one (Zipf over
		# 1024 units) reaches it; 8 promoted hundreds of cold units
		for kv in mode=epoch epoch_us=100000 threshold=16 unit_shift=12; do
			echo "${kv#*=}" >"$I/${kv%%=*}"
		done
		echo 1 >$I/enable
		# watch: what monitoring alone costs the workload (the
		# device's counting, its interrupts and the drains)
		[ "$1" = chmu ] || return 0
		# act on a report within one epoch: older ones expire
		echo 100 >$I/promote/max_latency_ms
		echo "${BENCH_PROMOTE_MIN_COUNT:-0}" >$I/promote/min_count
		echo "${BENCH_PROMOTE_FULL_BACKOFF:-0}" >$I/promote/full_backoff
		echo 1 >$I/promote/enable
		;;
	numab) sysctl -q kernel.numa_balancing=2 ;;
	damon | damon-tier)
		# damon-tier: a second kdamond for the demotion side (DAMON's
		# sysfs takes one context per kdamond)
		echo "$([ "$1" = damon-tier ] && echo 2 || echo 1)" >$D/nr_kdamonds
		echo 1 >$D/0/contexts/nr_contexts
		c=$D/0/contexts/0
		echo paddr >$c/operations
		echo 1 >$c/targets/nr_targets
		echo 1 >$c/targets/0/regions/nr_regions
		echo "$HPA" >$c/targets/0/regions/0/start
		echo $((HPA + SIZE)) >$c/targets/0/regions/0/end
		echo 1 >$c/schemes/nr_schemes
		echo migrate_hot >$c/schemes/0/action
		echo 0 >$c/schemes/0/target_nid
		# accessed in at least 2 of an aggregation's 20 samples:
		# with 4, no region over the workload qualified (a region
		# holds cold pages beside each scattered hot one)
		for m in sz nr_accesses age; do	# no upper bound (sysfs: 0)
			echo 4294967295 >$c/schemes/0/access_pattern/$m/max
		done
		echo "${BENCH_PROMOTE_DAMON_MIN:-2}" >$c/schemes/0/access_pattern/nr_accesses/min
		if [ "$1" = damon-tier ]; then
			# DAMON's own tiering recipe (its author's damo command
			# for v6.16, the basis of samples/damon/mtier.c) with what
			# 6.12 has: per direction a scheme applied every second
			# with a quota of BENCH_TIER_DAMON_MBPS (4) MiB/s and a
			# young-page filter (promote only pages found accessed,
			# demote none); hot is an access rate of 5% or more (1 of
			# an aggregation's 20 samples), cold 0%. Not in 6.12: the
			# quota goals on node 0's use (6.16) and the auto-tuned
			# intervals (6.15): default 5 ms / 100 ms instead. The
			# demotion side is a second kdamond over node 0.
			echo 1 >$c/schemes/0/access_pattern/nr_accesses/min
			damon_tier_scheme $c/schemes/0 N
			echo 1 >$D/1/contexts/nr_contexts
			c=$D/1/contexts/0
			echo paddr >$c/operations
			echo 1 >$c/targets/nr_targets
			echo 1 >$c/targets/0/regions/nr_regions
			echo "$DRAM_START" >$c/targets/0/regions/0/start
			echo "$DRAM_END" >$c/targets/0/regions/0/end
			echo 1 >$c/schemes/nr_schemes
			echo migrate_cold >$c/schemes/0/action
			echo "$NODE" >$c/schemes/0/target_nid
			for m in sz age; do echo 4294967295 >$c/schemes/0/access_pattern/$m/max; done
			echo 0 >$c/schemes/0/access_pattern/nr_accesses/max
			damon_tier_scheme $c/schemes/0 Y
			# and only the experiment's memory, CGW (the recipe's
			# per-cgroup form): the processes' own memory and code
			# (CGP, the root cgroup) would run a thousand times
			# slower on the CXL node under TCG
			echo 2 >$c/schemes/0/filters/nr_filters
			echo memcg >$c/schemes/0/filters/1/type
			echo "${CGW#/sys/fs/cgroup}" >$c/schemes/0/filters/1/memcg_path
			echo N >$c/schemes/0/filters/1/matching
			echo on >$D/1/state
		fi
		echo on >$D/0/state
		;;
	esac
}
# damon_cmd KDAMOND CMD: a command to a running kdamond, waited for at
# most 60 s (the write returns once the kdamond has run it, at the end of
# an aggregation: a kdamond busy migrating under TCG took minutes); 1 and
# damon_timeout=CMD if it did not return (stats then not reported)
damon_cmd() {
	local w
	echo "$2" >"$1/state" &
	w=$!
	for _ in $(seq 600); do kill -0 $w 2>/dev/null || break; sleep 0.1; done
	if kill -0 $w 2>/dev/null; then
		echo "damon_timeout=$2"
		return 1
	fi
	wait $w || { echo "damon_failed=$2"; return 1; }
}
# damon_tier_scheme SCHEME MATCHING: applied every second, at most
# BENCH_TIER_DAMON_MBPS (4) MiB a second, hottest (or coldest) first,
# and a filter on young pages that drops the pages that are (Y) or are
# not (N) young. The recipe's 200 MiB/s is some 4% of what hardware
# migrates in a second; this guest migrates about 2.4 MiB/s under TCG
# (the promoter's batches), and with 200 one application of the demotion
# scheme took all of node 0's cold memory at once and held its kdamond,
# and the stats command waiting for it, for minutes.
damon_tier_scheme() {
	echo 1000000 >$1/apply_interval_us
	echo $((${BENCH_TIER_DAMON_MBPS:-4} * 1048576)) >$1/quotas/bytes
	echo 1000 >$1/quotas/reset_interval_ms
	# coldest (or hottest) first by access rate and age alike, as the
	# recipe (the sysfs default weights are 0)
	echo 100 >$1/quotas/weights/nr_accesses_permil
	echo 100 >$1/quotas/weights/age_permil
	echo 1 >$1/filters/nr_filters
	echo young >$1/filters/0/type
	echo "$2" >$1/filters/0/matching
}
policy_off() { # policy_off POLICY: its counters, key=value, then off
	case "$1" in
	watch)
		echo 0 >$I/enable
		echo "drain_ns=$(cat $I/drain_ns)"
		echo "entries=$(cat $I/entries)"
		echo "batches=$(cat $I/batches)"
		;;
	chmu)
		echo 0 >$I/enable
		for _ in $(seq 30); do [ "$(cat $I/promote/pending)" = 0 ] && break; sleep 1; done
		for f in queued queued_pages dropped expired_pages skipped tried promoted failed_gone failed_not_lru \
			failed_isolate failed_no_memory failed_on_target failed_busy failed_watermark \
			failed_policy failed_rate_limited failed_settling throttle_pps throttles full_raises skipped_full batches \
			worker_ns wait_ns; do
			echo "promote_$f=$(cat $I/promote/$f)"
		done
		echo "drain_ns=$(cat $I/drain_ns)"
		echo "entries=$(cat $I/entries)"
		chmu_latency_stop
		echo 0 >$I/promote/enable
		;;
	numab) sysctl -q kernel.numa_balancing=0 ;;
	damon | damon-tier)
		# kdamond's utime + stime (clock ticks; the probes' sched_switch
		# figure is the better one where they run)
		local k t=0
		for k in $D/[0-9]*; do
			# -1: a kdamond that stopped by itself
			[ "$(cat $k/pid)" -gt 0 ] || { echo "damon_stopped=${k##*/}"; continue; }
			t=$((t + $(awk '{ print $14 + $15 }' /proc/$(cat $k/pid)/stat)))
		done
		echo "kdamond_ticks=$t"
		damon_cmd $D/0 update_schemes_stats &&
			for f in nr_tried sz_tried nr_applied sz_applied; do
				echo "damon_$f=$(cat $D/0/contexts/0/schemes/0/stats/$f)"
			done
		if [ "$1" = damon-tier ]; then
			damon_cmd $D/1 update_schemes_stats &&
				for f in nr_applied sz_applied; do
					echo "damon_cold_$f=$(cat $D/1/contexts/0/schemes/0/stats/$f)"
				done
			echo off >$D/1/state
		fi
		echo off >$D/0/state
		;;
	esac
}

node0() { awk -v k="$1:" '$3 == k { print $4 }' /sys/devices/system/node/node0/meminfo; }
# tier_sampler: a time series beside the workload's progress lines, for
# the whole tiering section, in /run/tier-samples: about every 500 ms
# while /run/tier-sample.pol names a policy, a line "POLICY us" and,
# cumulative, node 0's free kB and its room (room_kb's figure; read every
# fourth sample, repeated between), kswapd's
# pages scanned, stolen and demoted, pages promoted (pgpromote_success:
# the promoter's and NUMA balancing's), NUMA hint faults, kswapd0's CPU
# ticks, the CPUs' busy and idle ticks (tick-sampled: TCG loses some),
# the promoter's pages tried, promoted and refused for the watermark and
# its worker's ms (0 in other policies), and the sampler's own CPU
# ticks; the time is taken after the reads. One process started before
# node 0 fills (its memory there, as the workload's own), bash builtins
# only, each /proc file read in one pass (mapfile: bash's read seeks back
# after every line, which makes a seq_file regenerate itself), nothing on
# the results share until a run ends. tier_sample_cut POLICY T0 writes
# the lines of the run that began at T0 to $R/POLICY.samples (or FILE:
# tier_sample_cut POLICY T0 FILE), in ms from T0; a cut right after its
# run, before the policy runs again.
tier_sampler() {
	local fd fifo pol kp v line f on rest free=0 room=0 zf zh r n=0
	local scan steal dem prom hint user nice sys idle iow irq sirq
	local -a vmst zi w
	set +e -f	# a failed read skips a sample; the run goes on
	fifo=$(mktemp -u /run/tier-sampler.XXXXXX)
	mkfifo "$fifo" && exec {fd}<>"$fifo" && rm "$fifo" || return 1
	kp=$(pgrep -x kswapd0 | head -n 1)
	echo "policy us free_kb room_kb pgscan_kswapd pgsteal_kswapd pgdemote_kswapd pgpromote_success numa_hint_faults kswapd_ticks busy_ticks idle_ticks promote_tried promote_promoted promote_watermark promote_worker_ms sampler_ticks"
	while :; do
		read -t 0.5 -u $fd _
		read -r pol </run/tier-sample.pol || pol=-
		[ "$pol" != - ] || continue
		mapfile -t vmst </proc/vmstat
		scan=0 steal=0 dem=0 prom=0 hint=0
		for line in "${vmst[@]}"; do
			case $line in
			pgscan_kswapd\ *) scan=${line#* } ;;
			pgsteal_kswapd\ *) steal=${line#* } ;;
			pgdemote_kswapd\ *) dem=${line#* } ;;
			pgpromote_success\ *) prom=${line#* } ;;
			numa_hint_faults\ *) hint=${line#* } ;;
			esac
		done
		# node 0's zones every 4th sample (2 s): their room moves
		# slowly, and the walk is most of a sample's cost
		if [ $((n++ % 4)) = 0 ]; then
		mapfile -t zi </proc/zoneinfo
		free=0 room=0 on=0 zf=0 zh=0
		for line in "${zi[@]}"; do
			case $line in
			Node* | *"pages free"* | "        high "* | *protection:*) ;;
			*) continue ;;
			esac
			w=($line)	# words (no globbing: set -f)
			case ${w[0]} in
			Node) [ "${w[1]}" = 0, ] && on=1 || { [ $on = 0 ] || break; } ;;
			pages) [ $on = 0 ] || [ "${w[1]}" != free ] || { zf=${w[2]}; free=$((free + zf * 4)); } ;;
			high) [ $on = 0 ] || zh=${w[1]} ;;
			protection:)
				[ $on = 1 ] || continue
				rest=${w[${#w[@]} - 1]}
				rest=${rest%\)}
				r=$((zf - zh - ${rest:-0}))
				[ $r -le 0 ] || room=$((room + r * 4))
				;;
			esac
		done
		fi
		pid_ticks "$kp"
		read -r _ user nice sys idle iow irq sirq _ </proc/stat
		line="$free $room $scan $steal $dem $prom $hint $PID_TICKS $((user + nice + sys + irq + sirq)) $((idle + iow))"
		if [ "$pol" = chmu ]; then
			for f in tried promoted failed_watermark; do
				read -r v <"$I/promote/$f"
				line="$line $v"
			done
			read -r v <"$I/promote/worker_ns"
			line="$line $((v / 1000000))"
		else
			line="$line 0 0 0 0"
		fi
		pid_ticks $BASHPID
		echo "$pol ${EPOCHREALTIME/./} $line $PID_TICKS"
	done
}
tier_sample_cut() {
	awk -v p="$1" -v t0="$2" 'NR == 1 { $1 = ""; $2 = "ms"; sub(/^ /, ""); print; next }
		$1 == p && $2 >= t0 { $1 = ""; $2 = int(($2 - t0) / 1000); sub(/^ /, ""); print }' \
		/run/tier-samples >"${3:-$R/$1.samples}"
}
# pid_ticks PID: utime + stime of PID in PID_TICKS (0, and status 1, when
# it cannot be read): a variable, not output, so that the sampler forks
# nothing
pid_ticks() {
	local l
	local -a f
	PID_TICKS=0
	[ -n "$1" ] && read -r l </proc/$1/stat || return 1
	read -ra f <<<"${l##*) }"
	PID_TICKS=$((f[11] + f[12]))
}
# kswapd_ticks: "kswapd_ticks N", kswapd0's utime + stime (vm's last line)
kswapd_ticks() {
	local p
	p=$(pgrep -x kswapd0 | head -n 1) || true
	! pid_ticks "$p" || echo "kswapd_ticks $PID_TICKS"
}
# node 0's high watermark, in kB
high_kb() {
	awk '/^Node 0, zone/ { on = 1; next } /^Node/ { on = 0 } on && $1 == "high" { s += $2 } END { print s * 4 }' /proc/zoneinfo
}
# room_kb: what node 0 can still give a movable user allocation before
# kswapd's high watermark, in kB: per zone its free pages less its high
# watermark and the reserve it keeps from allocations that could use a
# higher zone (protection's last figure: the DMA zone keeps most of its
# pages that way)
room_kb() {
	awk '/^Node/ { on = ($2 == "0,") }
		on && $1 == "pages" && $2 == "free" { f = $3 }
		on && $1 == "high" { h = $2 }
		on && $1 == "protection:" { gsub(/[(),]/, " "); p = $NF; r = f - h - p; if (r > 0) s += r }
		END { print s * 4 }' /proc/zoneinfo
}
# balloon_to KB VAR: pipe-buffer balloons on node 0 (chmu-workload
# balloon: pages on no LRU list, which nothing reclaims, demotes or
# migrates; an mlocked balloon was migrated to the CXL node by DAMON)
# until node 0 has KB of room (room_kb) left, within 1 MiB; their PIDs
# appended to the variable VAR. A balloon takes more than its pages (the
# pipes' arrays, per-CPU lists): steps of 90% of what is left, eight at
# most; the run stops if the room ends outside [KB - 1 MiB, KB + 2 MiB].
balloon_to() {
	local step avail pids= f
	echo $((8 << 20)) >/proc/sys/fs/pipe-max-size
	for step in 1 2 3 4 5 6 7 8; do
		avail=$(( $(room_kb) - $1 ))
		[ "$avail" -gt 1024 ] || break
		f=$R/balloon.$2.$step.txt
		: >"$f"
		chmu-workload balloon --node 0 --size "$((avail * 9 / 10))K" >"$f" &
		pids="$pids $!"
		wait_key "$f" held "balloon not in place"
		BALLOON_KB=$((BALLOON_KB + avail * 9 / 10))
	done
	printf -v "$2" '%s' "${!2}$pids"
	avail=$(room_kb)
	[ -z "$pids" ] || { [ "$avail" -ge $(($1 - 1024)) ] && [ "$avail" -le $(($1 + 2048)) ]; } ||
		{ echo "bench: node 0 has $avail kB of room, not $1 (balloons of $BALLOON_KB kB)" >&2; exit 1; }
}
BALLOON_KB=0
# tier_cgroup: two memory cgroups. CGW, /chmu-bench: the experiment's
# memory, the working set and the filler (chmu-workload --cgroup charges
# an area there; PostgreSQL's shared buffers, tier_pg_setup), the only
# pages DAMON's demotion side may take. CGP, /chmu-bench-procs, with
# memory.min at max: this shell and all it starts from now on, so the
# processes' own memory (stacks, heaps, their libraries' data, a server's
# backends', the code pinned from now on) is out of reclaim's reach:
# kswapd never demotes it. Under TCG a small hot set's accessed bits stay
# clear (bench/young.sh), so reclaim and DAMON took a workload's stack
# and heap for cold memory; on the CXL node each access to them is a
# thousand times slower, not a few, and that decided NUMA balancing's
# and DAMON's runs by itself. Every policy's run has the same split.
CGW=/sys/fs/cgroup/chmu-bench
CGP=/sys/fs/cgroup/chmu-bench-procs
tier_cgroup() {
	echo +memory >/sys/fs/cgroup/cgroup.subtree_control 2>/dev/null || true
	mkdir -p $CGW $CGP
	echo max >$CGP/memory.min
	echo $$ >$CGP/cgroup.procs
}
# cg_procs_home: every process in CGW into CGP (the backend that read
# the shared buffers in there); the run stops if one stays
cg_procs_home() {
	local p
	while read -r p; do echo "$p" >$CGP/cgroup.procs 2>/dev/null || true; done <$CGW/cgroup.procs
	[ ! -s $CGW/cgroup.procs ] ||
		{ echo "bench: processes left in $CGW: $(tr '\n' ' ' <$CGW/cgroup.procs)" >&2; exit 1; }
}
# pin_code FILE...: each program or library and the libraries it links
# locked in memory while node 0 has room (chmu-workload pin; PIN: the
# holder, SIGUSR1 lets go). Under TCG an instruction fetched from the CXL
# node runs through the device model, about a thousand times slower than
# from DRAM where hardware would be a few times slower: a hot code page
# demoted there (kswapd demotes file pages too) or read in there when
# node 0 is full decided a whole run by itself. The tiering runs keep
# their programs' code on node 0 so that only data is in the experiment.
PIN=
pin_code() {
	local f l files=()
	for f in "$@"; do
		files+=("$(readlink -f "$f")")
		while read -r l; do files+=("$(readlink -f "$l")"); done < <(ldd "$f" 2>/dev/null |
			awk '$2 == "=>" && $3 ~ /^\// { print $3 } $1 ~ /^\// { print $1 }')
	done
	mapfile -t files < <(printf '%s\n' "${files[@]}" | sort -u)
	chmu-workload pin "${files[@]}" >"$R/pin.txt" &
	PIN=$!
	wait_key "$R/pin.txt" held "the code was not pinned"
	printf '%s\n' "${files[@]}" >"$R/pinned.txt"
}
# pinned_off: the pinned code's pages off node 0 (DAMON's migrate_cold
# migrates mlocked pages): the holder's file mappings only, not its own
# stack and heap
pinned_off() {
	awk '/ file=/ { for (i = 2; i <= NF; i++) if ($i ~ /^N[0-9]+=/ && $i !~ /^N0=/) {
		split($i, kv, "="); s += kv[2] } } END { print s + 0 }' /proc/$PIN/numa_maps
}
unpin_code() {
	[ -z "$PIN" ] || { kill -USR1 $PIN 2>/dev/null; wait $PIN 2>/dev/null || true; }
	PIN=
}
# PostgreSQL for tier-pg: Debian's server and pgbench, the data in the
# guest's /run (tmpfs), the working set the server's shared memory
# (shared_buffers with the accounts table and its index read into it by
# pg_prewarm, buffer descriptors, locks): BENCH_TIER_PG_SCALE (3: 300,000
# accounts), BENCH_TIER_PG_SB (64MB), BENCH_TIER_PG_ZIPF (1.01, the
# exponent of pgbench's random_zipfian), BENCH_TIER_PG_CLIENTS (2)
PGH=/run/pg
pgu() { runuser -u postgres -- "$@"; }
PGB_DIR=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
tier_pg_setup() {
	PG_SCALE=${BENCH_TIER_PG_SCALE:-3} PG_SB=${BENCH_TIER_PG_SB:-64MB}
	PG_ZIPF=${BENCH_TIER_PG_ZIPF:-1.01} PG_CLIENTS=${BENCH_TIER_PG_CLIENTS:-2}
	PGB=$PGB_DIR
	[ -n "$PGB" ] && [ -x "$PGB/postgres" ] && [ -x "$PGB/pgbench" ] ||
		{ echo "bench: no PostgreSQL server and pgbench (Debian's postgresql package)" >&2; exit 1; }
	# the data files on a tmpfs bound to the CXL node: read once into
	# shared_buffers, they are cold, and on node 0 they were memory a
	# policy could demote to make room beside the filler
	mkdir -p $PGH
	mount -t tmpfs -o "mpol=bind:$NODE,size=1G,mode=0755" tmpfs $PGH
	chown postgres: $PGH
	pgu "$PGB/initdb" -D $PGH/data -A trust -E UTF8 --locale=C --no-sync -U postgres \
		>$PGH/initdb.log 2>&1 || { echo "bench: initdb: $(tail -n 2 $PGH/initdb.log)" >&2; exit 1; }
	# one process per client, no background writes to speak of: the
	# run's memory traffic is the queries'
	pg_start() {
		pgu "$PGB/pg_ctl" -D $PGH/data -l $PGH/server.log -w -t 600 -o "-c shared_buffers=$PG_SB \
			-c huge_pages=off -c listen_addresses= -c unix_socket_directories=$PGH -c fsync=off \
			-c synchronous_commit=off -c full_page_writes=off -c autovacuum=off -c jit=off \
			-c max_connections=20" start >/dev/null ||
			{ echo "bench: postgres did not start: $(tail -n 2 $PGH/server.log)" >&2; exit 1; }
	}
	pg_start
	"$PGB/pgbench" -i -q -s "$PG_SCALE" -h $PGH -U postgres postgres >$PGH/init.log 2>&1 ||
		{ echo "bench: pgbench -i: $(tail -n 2 $PGH/init.log)" >&2; exit 1; }
	# A fresh server for the runs (the load's buffers went with the
	# first one's shared memory), in CGP like the shell: its processes'
	# own memory is charged there, and so are the parts of the shared
	# memory the postmaster initialises (descriptors, lock tables); a
	# fork shares the postmaster's pages with every backend
	pgu "$PGB/pg_ctl" -D $PGH/data -m fast -w stop >/dev/null ||
		{ echo "bench: postgres did not stop: $(tail -n 2 $PGH/server.log)" >&2; exit 1; }
	pg_start
	PG_PID=$(head -n 1 $PGH/data/postmaster.pid)
	# A session held open for the whole boot reads the table and its
	# index into shared_buffers: its backend maps what it touched (a
	# shared mapping's pages are in the page tables of the processes
	# that touched them, and move_pages(2) goes by those), the
	# postmaster what it initialised; the two move the working set.
	# Its backend is in CGW while it reads them: the buffers' pages
	# are charged to CGW as it first touches them
	mkfifo $PGH/hold.in
	"$PGB/psql" -X -q -A -t -h $PGH -U postgres -d postgres <$PGH/hold.in >$PGH/hold.out 2>&1 &
	exec 8>$PGH/hold.in
	echo "CREATE EXTENSION pg_prewarm;
		SELECT 'backend=' || pg_backend_pid();" >&8
	for _ in $(seq 1200); do grep -q '^backend=' $PGH/hold.out && break; sleep 0.5; done
	PG_HOLD=$(sed -n 's/^backend=//p' $PGH/hold.out)
	[ -n "$PG_HOLD" ] || { echo "bench: no session: $(tail -n 2 $PGH/hold.out)" >&2; exit 1; }
	echo "$PG_HOLD" >$CGW/cgroup.procs
	echo "SELECT 'prewarmed=' || (pg_prewarm('pgbench_accounts') + pg_prewarm('pgbench_accounts_pkey'));" >&8
	for _ in $(seq 1200); do grep -q '^prewarmed=' $PGH/hold.out && break; sleep 0.5; done
	grep -q '^prewarmed=' $PGH/hold.out || { echo "bench: pg_prewarm: $(tail -n 2 $PGH/hold.out)" >&2; exit 1; }
	cg_procs_home
	# the main shared memory segment: the postmaster's largest shared
	# writable mapping (at the same address in every backend)
	read -r PG_SHM_ADDR PG_SHM_LEN < <(awk '$2 == "rw-s" { split($1, r, "-");
		printf "%s %s\n", r[1], r[2] }' /proc/$PG_PID/maps | while read -r a e; do
		echo "$a $((0x$e - 0x$a))"; done | sort -k2,2n | tail -n 1)
	[ -n "$PG_SHM_ADDR" ] || { echo "bench: no shared memory mapping in postgres $PG_PID" >&2; exit 1; }
	# the working set: the pages resident in either's view (the held
	# backend's holds the buffers, the postmaster's the rest)
	PG_SHM_BYTES=0
	for p in $PG_PID $PG_HOLD; do
		b=$(awk -v a="$PG_SHM_ADDR" '$1 ~ "^" a "-" { on = 1; next } on && /^Rss:/ { print $2; exit }' \
			/proc/$p/smaps)
		b=$(( ${b:-0} * 1024 ))	# kB: mawk prints big products as 2.2e+09
		[ "$b" -le "$PG_SHM_BYTES" ] || PG_SHM_BYTES=$b
	done
	# pgbench's select-only transaction with Zipf-distributed keys,
	# scattered over the table by permute() (rank 1 is not row 1)
	cat >$PGH/zipf.sql <<SQL
\set aid permute(random_zipfian(1, 100000 * :scale, $PG_ZIPF), 100000 * :scale)
SELECT abalance FROM pgbench_accounts WHERE aid = :aid;
SQL
}
# pg_move PID NODE [PREFIX]: the shared memory's pages that PID has
# mapped to NODE (chmu-workload move's key=value lines, PREFIX before each
# key); a page that would not move is counted (failed=), not fatal
pg_move() {
	chmu-workload move --pid "$1" --addr "$PG_SHM_ADDR" --size "$PG_SHM_LEN" --node "$2" |
		sed "s/^/${3-}/" || true
}
# tier_pg_place NODE: the shared memory's pages to NODE, through the held
# backend's view and the postmaster's (key=value: the backend's, then the
# postmaster's with pm_)
tier_pg_place() {
	pg_move "$PG_HOLD" "$1"
	pg_move "$PG_PID" "$1" pm_
}
# tier_pg_placement: where the shared memory is after a run, in the held
# backend's view (key=value)
tier_pg_placement() {
	awk -v a="$PG_SHM_ADDR" '$1 == a { for (i = 2; i <= NF; i++) if ($i ~ /^N[0-9]+=/) {
		split(substr($i, 2), kv, "="); printf "pg_shm_after_node%s=%s\n", kv[1], kv[2] } }' \
		/proc/$PG_HOLD/numa_maps
}
# tier_pg_start POLICY: pgbench in the background (until tier_pg_wait
# stops it, SECS seconds after the policy's start); returns once
# its clients' backends are connected and have run transactions (their
# memory placed); PG_BACKENDS: their PIDs
tier_pg_start() {
	rm -f $PGH/tx.*
	(cd $PGH && exec "$PGB/pgbench" -n -h $PGH -U postgres -c "$PG_CLIENTS" -j 1 \
		-T $((SECS + 3600)) -f $PGH/zipf.sql -l --log-prefix=tx postgres) >"$R/$1.pgbench" 2>&1 &
	PGBENCH=$!
	PG_BACKENDS=
	for _ in $(seq 600); do
		PG_BACKENDS=$("$PGB/psql" -X -A -t -h $PGH -U postgres -d postgres -c \
			"SELECT string_agg(pid::text, ' ') FROM pg_stat_activity WHERE application_name = 'pgbench'")
		[ "$(wc -w <<<"$PG_BACKENDS")" -lt "$PG_CLIENTS" ] || break
		sleep 0.2
	done
	[ "$(wc -w <<<"$PG_BACKENDS")" -ge "$PG_CLIENTS" ] ||
		{ echo "bench: $1: pgbench did not connect: $(tail -n 2 "$R/$1.pgbench")" >&2; exit 1; }
	sleep 2
	# shared memory only the last run's backends touched (the catalogs'
	# buffers) is in no page table tier_pg_place went through: these
	# backends have it mapped again now, and it goes to where the run
	# starts (the CXL node but in the all-DRAM run)
	local b
	for b in $PG_BACKENDS; do
		pg_move "$b" "$2" backend_ >>"$R/$1.placed"
	done
}
# tier_pg_wait POLICY: from now (the policy on), SECS seconds of pgbench's
# per-transaction log become $R/POLICY.txt in chmu-workload's form (a
# progress line every 500 ms with the transactions so far, their node
# unknown: on_node=-1; rate= transactions/s), with the clients' p50 and
# p99 latency over those seconds
tier_pg_wait() {
	local t0 log
	t0=$(date +%s%N)
	# the counters at the window's end, as the Zipf run's; stopped 5 s
	# past it: what its log buffer loses on the way out (a few KiB of
	# lines) is past the window too
	sleep "$SECS"
	vm >"$R/$1.vm1"
	sleep 5
	kill -0 $PGBENCH 2>/dev/null || { echo "bench: $1: pgbench: $(tail -n 2 "$R/$1.pgbench")" >&2; exit 1; }
	kill -INT $PGBENCH
	wait $PGBENCH 2>/dev/null || true
	log=$(ls $PGH/tx.* 2>/dev/null | head -n 1)
	[ -n "$log" ] || { echo "bench: $1: no pgbench log" >&2; exit 1; }
	# a log line: client, transaction, latency us, script, end s, end us;
	# the transactions that ended in [t0, t0 + SECS)
	cat $PGH/tx.* | awk -v t0="$t0" -v secs="$SECS" -v lat=$PGH/lat '
		{ ms = ($5 - int(t0 / 1e9)) * 1000 + ($6 - (t0 % 1e9) / 1e3) / 1000
		  if (ms < 0 || ms >= secs * 1000) next
		  b = int(ms / 500); n[b]++; if (b > last) last = b; l[++k] = $3
		  if (ms > end) end = ms }
		END {
			if (end < secs * 1000 - 1000) exit 1
			for (i = 0; i <= last; i++) {
				c += n[i]; printf "progress ms=%d accesses=%d on_node=-1\n", (i + 1) * 500, c
			}
			printf "accesses=%d\nrate=%.0f\n", k, k / secs
			for (i = 1; i <= k; i++) print l[i] > lat
		}' >"$R/$1.txt" || { echo "bench: $1: pgbench's log ends before the run's $SECS s" >&2; exit 1; }
	sort -n $PGH/lat | awk '{ v[NR] = $1 } END {
		i = int(NR * 0.99 + 0.999); if (i < 1) i = 1
		printf "client_latency_p50_us=%d\nclient_latency_p99_us=%d\ntransactions=%d\n", v[int((NR + 1) / 2)], v[i], NR }' \
		>>"$R/$1.cost"
	rm -f $PGH/tx.* $PGH/lat
}
# tier_pg_stop: the server stopped and its files gone (tmpfs pages that
# kswapd or DAMON demoted would keep the CXL region from going offline)
tier_pg_stop() {
	[ -n "${PGB-}" ] && [ -d $PGH/data ] || return 0
	exec 8>&-
	pgu "$PGB/pg_ctl" -D $PGH/data -m immediate -w stop >/dev/null 2>&1 || true
	umount $PGH 2>/dev/null || rm -rf $PGH
}

case "$1" in
memory)
	dram_r=$(rate --anon)
	dram_w=$(rate --anon --write)
	cxl_r=$(rate --dax "$DEV")
	cxl_w=$(rate --dax "$DEV" --write)
	cat >"$R/section.md" <<MD
# CHMU lab benchmarks

Guest: $(nproc) vCPUs under TCG, kernel $(uname -r). Each rate is
\`chmu-workload stream\`: $PASSES sequential passes of aligned 8-byte
accesses over $BYTES, timed with CLOCK_MONOTONIC inside the guest.

## Guest memory throughput (accesses/s)

| memory | read | write |
|---|---|---|
| DRAM (node 0, anonymous) | $dram_r | $dram_w |
| CXL (device DAX, $DEV), CHMU disabled | $cxl_r | $cxl_w |
| CXL / DRAM | $(ratio "$cxl_r" "$dram_r") | $(ratio "$cxl_w" "$dram_w") |

Under TCG every access to CXL memory is an MMIO access that reaches the
emulated device, so the CXL rate is the device model's rate.
MD
	printf '{"dram_read":%s,"dram_write":%s,"cxl_read":%s,"cxl_write":%s}' \
		"$dram_r" "$dram_w" "$cxl_r" "$cxl_w" >"$R/section.json"
	;;
chmu)
	# Rounds of disabled-then-enabled streams, alternating, so that a
	# change in TCG's pace during the boot lands on both sides; the
	# median of the rounds' ratios, and their range.
	: >"$R/rounds.txt"
	for ((r = 0; r < ROUNDS; r++)); do
		off=$(rate --dax "$DEV")
		chmu-regs enable -m epoch -e 1000000 -t 1 -u 12 >/dev/null
		on=$(rate --dax "$DEV")
		chmu-regs disable >/dev/null
		echo "$off $on $(ratio "$on" "$off")" >>"$R/rounds.txt"
	done
	read -r off on med lo hi <<<"$(printf '%s %s %s %s %s' \
		"$(cut -d' ' -f1 "$R/rounds.txt" | median)" \
		"$(cut -d' ' -f2 "$R/rounds.txt" | median)" \
		"$(cut -d' ' -f3 "$R/rounds.txt" | median)" \
		"$(cut -d' ' -f3 "$R/rounds.txt" | sort -g | head -n 1)" \
		"$(cut -d' ' -f3 "$R/rounds.txt" | sort -g | tail -n 1)")"
	# Epoch end under load: 100 ms epochs, threshold 1, each round
	# touching 16384 units (64 MiB) once, then draining the list; QEMU's
	# cxl_chmu_epoch_end trace (bench/run.sh) times each epoch end.
	chmu-regs enable -m epoch -e 100000 -t 1 -u 12 >/dev/null
	for ((r = 0; r < ROUNDS * 2; r++)); do
		chmu-workload touch --dax "$DEV" --size 64M --units 0-16383 >/dev/null
		sleep 0.3
		chmu-regs drain >/dev/null
	done
	chmu-regs disable >/dev/null
	printf '| %s | %.0f | %.0f | %s | %s-%s |' "$2" "$off" "$on" "$med" "$lo" "$hi" >"$R/row.md"
	printf '{"tracker":"%s","rounds":%d,"disabled":%.0f,"enabled":%.0f,"ratio":%s,"ratio_min":%s,"ratio_max":%s}' \
		"$2" "$ROUNDS" "$off" "$on" "$med" "$lo" "$hi" >"$R/row.json"
	;;
epochend)
	# Per size: enable (1 s epochs, threshold 1, 256-byte units, all
	# ranges), one load at the base of each of N units, then wait for
	# the epochs that counted them to end. bench/run.sh reads QEMU's
	# trace from one cxl_chmu_enable to the next.
	for n in ${BENCH_EPOCH_UNITS:-4096 16384 65536 262144 1048576}; do
		chmu-regs enable -m epoch -e 1000000 -t 1 -u 8 >/dev/null
		# chmu-workload touch takes 65536 units a run
		for ((u = 0; u < n; u += 65536)); do
			chmu-workload touch --dax "$DEV" --size 256M --unit-size 256 \
				--units "$u-$((u + (n - u < 65536 ? n - u : 65536) - 1))" >/dev/null
		done
		sleep 2.5
		chmu-regs disable >/dev/null
		echo "$n" >>"$R/sizes.txt"
	done
	;;
drain)
	modprobe cxl_hmu
	I=/sys/bus/cxl/devices/hmu_mem0.0/hmu_mem0.0.0
	T=/sys/kernel/tracing
	sysctl -q kernel.bpf_stats_enabled=1
	echo always-on >$I/mode
	echo 4 >$I/threshold
	echo 12 >$I/unit_shift
	echo 256 >$I/fill_threshold
	load() { chmu-workload stream --dax "$DEV" --size 2M --passes "${BENCH_DRAIN_PASSES:-32}" >/dev/null; }
	# Rounds: every consumer once per round, in the same order, so a
	# change of pace during the boot spreads over all of them; per
	# consumer the median of its rounds.
	DRAIN_OUT=$R/drain.txt
	: >"$DRAIN_OUT"
	for ((r = 0; r < ${BENCH_DRAIN_ROUNDS:-5}; r++)); do
		measure "tracepoints disabled"
		echo 1 >$T/events/chmu/enable
		echo 0 >$T/tracing_on
		measure "tracepoints enabled, no consumer"
		echo 0 >$T/events/chmu/enable
		echo 1 >$T/tracing_on
		measure "chmutop" chmutop -b 1
		measure "chmutop --direct-slots 0" chmutop -b --direct-slots 0 1
		measure "chmuheat" chmuheat --no-heatmap 1
		measure "chmualert" chmualert -c 1000000 --ringbuf-size 4M 1
		measure "chmu-exporter" chmu-exporter -l 127.0.0.1:9851
		measure "bpftrace one-liner" bpftrace -e 'tracepoint:chmu:chmu_hotlist_entry { @[args->dpa] = sum(args->count); }'
		measure "bpftrace, chmutop's equivalent" bpftrace bench/chmutop-equivalent.bt
		measure "perf AUX" perf "cxl_hmu_mem0.0.0/epoch_type=1,access_type=6,hotness_threshold=4,hotness_granual=12/"
	done
	drain_medians "$R/drain.txt" >"$R/drain.med"
	base=$(awk -F'|' 'NR == 1 { print $3 }' "$R/drain.med")
	awk -F'|' -v base="$base" '{
		printf "| %s | %d | %.1f | %.0f-%.0f | %.2f |\n", $1, $2, $3, $4, $5, $3 / base
	}' "$R/drain.med" >"$R/drain.md"
	awk -F'|' '$1 ~ /^(chmutop|chmuheat|chmualert|chmu-exporter|bpftrace)/ {
		printf "| %s | %d | %.1f | %.1f | %.1f |\n", $1, $2, $6, $7, $6 + $7
	}' "$R/drain.med" >"$R/cpu.md"
	awk -F'|' 'BEGIN { printf "[" } { printf "%s{\"consumer\":\"%s\",\"rounds\":%d,\"entries\":%d,\"drain_ns_per_entry\":%s,\"drain_ns_per_entry_min\":%s,\"drain_ns_per_entry_max\":%s,\"bpf_ns_per_entry\":%s,\"process_ns_per_entry\":%s}", (NR > 1 ? "," : ""), $1, $8, $2, $3, $4, $5, $6, $7 } END { printf "]" }' \
		"$R/drain.med" >"$R/drain.json"
	;;
attrib)
	# What attribution by cgroup costs per entry: the drain of an always-on
	# stream over anonymous memory on the CXL node (system RAM), under each
	# tool without and with attribution, side by side in rounds, as drain
	# above. chmutop's attribution is per frame, not per entry: its rows
	# show what a frame costs with every unit of the map attributed.
	modprobe cxl_hmu
	I=/sys/bus/cxl/devices/hmu_mem0.0/hmu_mem0.0.0
	sysctl -q kernel.bpf_stats_enabled=1
	echo always-on >$I/mode
	echo 4 >$I/threshold
	echo 12 >$I/unit_shift
	echo 256 >$I/fill_threshold
	load() { chmu-workload stream --node "$NODE" --no-thp --size 2M --passes "${BENCH_DRAIN_PASSES:-32}" >/dev/null; }
	DRAIN_OUT=$R/attrib.txt
	: >"$DRAIN_OUT"
	for ((r = 0; r < ${BENCH_DRAIN_ROUNDS:-5}; r++)); do
		measure "tracepoints disabled"
		measure "chmuheat" chmuheat --no-heatmap 1
		measure "chmuheat --by cgroup" chmuheat --no-heatmap --by cgroup 1
		measure "chmualert" chmualert -c 1000000 --ringbuf-size 4M 1
		measure "chmualert --by cgroup" chmualert -c 1000000 --ringbuf-size 4M --by cgroup 1
		measure "chmu-exporter" chmu-exporter -l 127.0.0.1:9851
		measure "chmu-exporter --cgroups" chmu-exporter -l 127.0.0.1:9851 --cgroups
		measure "chmutop" chmutop -b 1
		measure "chmutop --by cgroup" chmutop -b --by cgroup 1
		measure "chmutop --by process" chmutop -b --by process 1
	done
	drain_medians "$DRAIN_OUT" >"$R/attrib.med"
	base=$(awk -F'|' 'NR == 1 { print $3 }' "$R/attrib.med")
	# each row against the bare drain, and the attributing rows against
	# the same tool's row without attribution (the one before them)
	awk -F'|' -v base="$base" '{
		split($1, w, " "); tool = w[1]
		if ($1 == tool) { plain[tool] = $3; pcpu[tool] = $6 + $7 }
		extra = ($1 != tool && tool in plain) ? sprintf("%+.1f", ($6 + $7) - pcpu[tool]) : ""
		printf "| %s | %d | %.1f | %.2f | %.1f | %.1f | %s |\n", $1, $2, $3, $3 / base, $6, $7, extra
	}' "$R/attrib.med" >"$R/attrib.md"
	awk -F'|' 'BEGIN { printf "[" } { printf "%s{\"consumer\":\"%s\",\"rounds\":%d,\"entries\":%d,\"drain_ns_per_entry\":%s,\"drain_ns_per_entry_min\":%s,\"drain_ns_per_entry_max\":%s,\"bpf_ns_per_entry\":%s,\"process_ns_per_entry\":%s}", (NR > 1 ? "," : ""), $1, $8, $2, $3, $4, $5, $6, $7 } END { printf "]" }' \
		"$R/attrib.med" >"$R/attrib.json"
	;;
scale)
	modprobe cxl_hmu
	B=/sys/bus/cxl/devices/hmu_mem0.0
	ninst=$(cat $B/num_instances)
	size=$(cat $B/hmu_mem0.0.0/hotlist_size)
	# run N THRESHOLD: N instances enabled (always-on, 4 KiB units, fill at
	# a quarter of the list), chmutop on all of them, one load; prints
	# "N|THRESHOLD|entries|drain_ns|seconds|batches|irqs|irq_ns" summed
	# over the instances (irqs and irq_ns count from probe: the run's are
	# the difference)
	run() {
		local n=$1 thr=$2 i top t0 t1 e=0 d=0 a0 nb=0 q=0 qns=0
		for ((i = 0; i < n; i++)); do
			I=$B/hmu_mem0.0.$i
			q=$((q - $(cat $I/irqs))) qns=$((qns - $(cat $I/irq_ns)))
			echo always-on >$I/mode
			echo "$thr" >$I/threshold
			echo 12 >$I/unit_shift
			echo $((size / 4)) >$I/fill_threshold
			echo 1 >$I/enable
		done
		a0=$(attachments)
		chmutop -b 1 >/dev/null 2>&1 &
		top=$!
		wait_attached chmutop "$a0"
		t0=$(date +%s.%N)
		chmu-workload stream --dax "$DEV" --size 2M --passes "${BENCH_SCALE_PASSES:-4}" >/dev/null
		sleep 1.5
		t1=$(date +%s.%N)
		for ((i = 0; i < n; i++)); do
			I=$B/hmu_mem0.0.$i
			e=$((e + $(cat $I/entries)))
			d=$((d + $(cat $I/drain_ns)))
			nb=$((nb + $(cat $I/batches)))
			q=$((q + $(cat $I/irqs))) qns=$((qns + $(cat $I/irq_ns)))
		done
		kill -INT $top
		wait $top || true
		for ((i = 0; i < n; i++)); do echo 0 >$B/hmu_mem0.0.$i/enable; done
		echo "$n|$thr|$e|$d|$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')|$nb|$q|$qns"
	}
	: >"$R/scale.txt"
	for n in 1 2 4; do
		[ "$n" -le "$ninst" ] && echo "$2|$(run "$n" 4)" >>"$R/scale.txt"
	done
	for thr in 64 16; do
		echo "$2|$(run 1 "$thr")" >>"$R/scale.txt"
	done
	awk -F'|' '{ printf "| %s | %d | %d | %d | %.0f | %.1f | %d | %.1f | %d | %.0f |\n", $1, $2, $3, $4, $4 / $6, $5 / $4,
		$7, $7 ? $5 / $7 / 1000 : 0, $8, $8 ? $9 / $8 : 0 }' "$R/scale.txt" >"$R/scale.md"
	awk -F'|' '{ printf "%s{\"hotlist_size\":%s,\"instances\":%d,\"threshold\":%d,\"entries\":%.0f,\"drain_ns\":%.0f,\"seconds\":%s,\"batches\":%.0f,\"irqs\":%.0f,\"irq_ns\":%.0f}", (NR > 1 ? "," : ""), $1, $2, $3, $4, $5, $6, $7, $8, $9 }' \
		"$R/scale.txt" >"$R/scale.json"
	;;
accuracy | shift)
	# One Zipf run with the exact count per page as the truth; with
	# shift, its hot set moves halfway (chmu-workload --shift: truth.after
	# holds the second half's counts, truth.before is the rest). With
	# damon, two DAMON contexts watch the same run.
	mode=$1 label=$2 damon=${3-}
	modprobe cxl_hmu
	I=/sys/bus/cxl/devices/hmu_mem0.0/hmu_mem0.0.0
	D=/sys/kernel/mm/damon/admin/kdamonds
	sysctl -q kernel.bpf_stats_enabled=1
	ACC_SIZE=${ACC_SIZE:-16M} ACC_N=${ACC_N:-16M} ACC_ZIPF=${ACC_ZIPF:-1.0}
	ACC_THR=${ACC_THR:-1}
	# DAMON: physical-address monitoring of the region through sysfs, a
	# 'stat' scheme matching every region so tried_regions can be read,
	# one snapshot a second. kdamond 0: default attributes (5 ms samples,
	# 100 ms aggregation, 10..1000 regions); kdamond 1: tuned finer (1 ms
	# samples, 20 ms aggregation, 1000..10000 regions).
	damon_on() {
		local k c m
		echo 2 >$D/nr_kdamonds
		for k in 0 1; do
			echo 1 >$D/$k/contexts/nr_contexts
			c=$D/$k/contexts/0
			echo paddr >$c/operations
			set -- 5000 100000 10 1000
			[ $k = 0 ] || set -- 1000 20000 1000 10000
			echo "$1" >$c/monitoring_attrs/intervals/sample_us
			echo "$2" >$c/monitoring_attrs/intervals/aggr_us
			echo 1000000 >$c/monitoring_attrs/intervals/update_us
			echo "$3" >$c/monitoring_attrs/nr_regions/min
			echo "$4" >$c/monitoring_attrs/nr_regions/max
			echo 1 >$c/targets/nr_targets
			echo 1 >$c/targets/0/regions/nr_regions
			echo "$HPA" >$c/targets/0/regions/0/start
			echo $((HPA + SIZE)) >$c/targets/0/regions/0/end
			echo 1 >$c/schemes/nr_schemes
			echo stat >$c/schemes/0/action
			for m in sz nr_accesses age; do	# match every region
				echo 4294967295 >$c/schemes/0/access_pattern/$m/max
			done
			echo on >$D/$k/state
		done
	}
	damon_snapshot() { # damon_snapshot K: "start end nr_accesses" per region
		local t=$D/$1/contexts/0/schemes/0/tried_regions
		echo update_schemes_tried_regions >$D/$1/state
		{ grep -r . $t --include=start --include=end --include=nr_accesses || true; } |
			awk -F: '{ n = split($1, p, "/"); r = p[n - 1]; v[r, p[n]] = $2; seen[r] = 1 }
				END { for (r in seen) print v[r, "start"], v[r, "end"], v[r, "nr_accesses"] }'
	}
	# The workload allocates (the kernel's zeroing writes every unit) and
	# waits; the monitors start; then its counted accesses run. chmutop
	# writes to the guest's tmpfs: writing to the results share
	# (virtio-9p, slow under TCG) would be most of its process time. In
	# the shift run it ranks every unit, so that new units are not hidden
	# behind old sums. The rows are computed on the host from what this
	# leaves in $R (bench/accuracy-rows.sh).
	wargs=() rank=512
	[ "$mode" = accuracy ] || wargs=(--shift) rank=4096
	chmu-workload zipf --node "$NODE" --size "$ACC_SIZE" --accesses "$ACC_N" \
		--zipf "$ACC_ZIPF" "${wargs[@]}" --truth "$R/truth" --wait >"$R/workload.txt" &
	wl=$!
	for _ in $(seq 300); do grep -q '^ready=' "$R/workload.txt" && break; sleep 0.1; done
	[ -z "$damon" ] || damon_on
	chmutop -b -j -s sum -r "$rank" --max-units 16384 --enable -M epoch -e 1000000 \
		-t "$ACC_THR" -u 4K 1 >/run/chmutop.json 2>"$R/chmutop.err" &
	top=$!
	for _ in $(seq 300); do [ "$(cat $I/enable)" = 1 ] && break; sleep 0.1; done
	sleep 2.5	# attached; the epoch of the allocation is over
	d0=$(cat $I/drain_ns) b0=$(bpf_ns) c0=$(cpu_ns $top)
	[ -z "$damon" ] || { k0=$(cpu_ns "$(cat $D/0/pid)"); f0=$(cpu_ns "$(cat $D/1/pid)"); }
	kill -USR1 $wl
	# DAMON snapshots, once a second: damon/K.N, and in damon/times
	# "K N ASKED RETURNED" (CLOCK_REALTIME ns): the aggregation a
	# snapshot shows ended between the two
	rm -rf /run/damon && mkdir /run/damon
	if [ -n "$damon" ]; then
		for k in 0 1; do
			echo "$k $(cat $D/$k/contexts/0/monitoring_attrs/intervals/aggr_us)"
		done >/run/damon/attrs
	fi
	n=0
	while kill -0 $wl 2>/dev/null; do
		sleep 1
		[ -n "$damon" ] || continue
		for k in 0 1; do
			t=$(date +%s%N)
			damon_snapshot $k >"/run/damon/$k.$n"
			echo "$k $n $t $(date +%s%N)" >>/run/damon/times
		done
		n=$((n + 1))
	done
	wait $wl
	[ -z "$damon" ] || { k1=$(cpu_ns "$(cat $D/0/pid)"); f1=$(cpu_ns "$(cat $D/1/pid)"); }
	sleep 2.5	# the last epoch is posted and drained, the next frame read
	d1=$(cat $I/drain_ns) b1=$(bpf_ns) c1=$(cpu_ns $top)
	kill -INT $top
	wait $top || { cat "$R/chmutop.err" >&2; exit 1; }
	mv /run/chmutop.json "$R/chmutop.json"
	cpu="drain_ns=$((d1 - d0)) bpf_ns=$((b1 - b0)) chmutop_ns=$((c1 - c0))"
	if [ -n "$damon" ]; then
		echo off >$D/0/state
		echo off >$D/1/state
		cpu+=" damon0_ns=$((k1 - k0)) damon1_ns=$((f1 - f0))"
		tar czf "$R/damon.tgz" -C /run damon
	fi
	echo "$cpu" >"$R/cpu.txt"
	;;
promote)
	# One run per policy, in this order, on the same region (system RAM
	# on node $NODE). Each run: chmu-workload allocates its working set
	# on the CXL node in base pages (--movable: then without a binding
	# policy, which NUMA balancing would honour), waits; the policy is
	# switched on; the timed run starts; at its end the policy's own
	# counters are read and it is switched off. The dram run is the same
	# workload with its memory on node 0: the all-DRAM reference.
	label=$2
	shift 2
	modprobe cxl_hmu
	I=/sys/bus/cxl/devices/hmu_mem0.0/hmu_mem0.0.0
	D=/sys/kernel/mm/damon/admin/kdamonds
	SECS=${BENCH_PROMOTE_SECS:-40} PSIZE=${BENCH_PROMOTE_SIZE:-64M} HOT=${BENCH_PROMOTE_HOT:-1024}
	echo "$label" >"$R/label"
	# memory tiers: the CXL node must sit below node 0 for any of them
	for t in /sys/devices/virtual/memory_tiering/memory_tier*; do
		echo "${t##*/} $(cat "$t/nodelist")"
	done >"$R/tiers.txt"
	echo "node=$NODE" >>"$R/tiers.txt"
	# a tier's id grows with its abstract distance: slower
	tier_of() { awk -v n="$1" '$2 == n { sub("memory_tier", "", $1); print $1 }' "$R/tiers.txt"; }
	[ "$(tier_of "$NODE")" -gt "$(tier_of 0)" ] ||
		{ echo "bench: node $NODE is not in a lower memory tier than node 0" >&2; exit 1; }
	for pol in "$@"; do
		node=$NODE
		[ "$pol" != dram ] || node=0
		chmu-workload zipf --node "$node" --movable --no-thp --size "$PSIZE" \
			--hot-units "$HOT" --zipf 1.0 --duration "$SECS" --shift --progress 500 \
			--placement "$R/$pol.placement" --wait >"$R/$pol.txt" &
		wl=$!
		wait_key "$R/$pol.txt" ready "$pol: workload not ready"
		policy_on "$pol"
		kpid=-1
		[ "$pol" != damon ] || kpid=$(cat $D/0/pid)
		probes_start "$wl" "$kpid"
		vm >"$R/$pol.vm0"
		kill -USR1 $wl
		wait $wl
		vm >"$R/$pol.vm1"
		probes_stop "$pol" >"$R/$pol.cost"
		policy_off "$pol" >>"$R/$pol.cost"
	done
	;;
tier | tier-pg)
	# Tiering under pressure: node 0 holds only 1/(1 + RATIO) of the
	# working set (a balloon of pipe buffers takes the rest of its free memory),
	# demotion is on, and the working set starts on the CXL node. One run
	# per policy, in order; dram first, without the balloon (the
	# reference). Each run: the working set placed, node 0 filled with
	# cold memory, policy on, the timed run, the policy's counters,
	# policy off.
	# tier: chmu-workload's Zipf over its pages (scattered at random),
	# allocated anew on the CXL node by each run.
	# tier-pg: PostgreSQL and pgbench (tier_pg_* below); the working set
	# is the server's shared memory, moved to the CXL node by
	# chmu-workload move (move_pages(2)) before each run (back from where
	# the last policy left it), without a memory policy.
	mode=$1 label=$2 ratio=$3
	shift 3
	modprobe cxl_hmu
	SECS=${BENCH_TIER_SECS:-60} TSIZE=${BENCH_TIER_SIZE:-48M} ZIPF=${BENCH_TIER_ZIPF:-0.99}
	echo "$label" >"$R/label"
	echo 1 >/sys/kernel/mm/numa/demotion_enabled
	echo 16384 >$T/buffer_size_kb	# the promoter's batches, before the balloon
	# per-CPU free lists as short as they go: pages on them are free for
	# the allocator but not in MemFree, by which node 0 is filled (up to
	# 100 MiB sat there after a balloon's release)
	sysctl -q vm.percpu_pagelist_high_fraction=1048576
	# no bpftrace probes in any run: they cannot start under the
	# balloon, and in the all-DRAM run alone they would slow only the
	# reference every ratio divides by
	NO_PROBES=1
	balloon=
	topup=
	trap '[ -z "$balloon$topup${filler-}${sampler-}" ] || kill $balloon $topup ${filler-} ${sampler-} 2>/dev/null || true; [ "$mode" = tier ] || tier_pg_stop; unpin_code' EXIT
	if [ "$mode" = tier-pg ]; then
		[ -x "$PGB_DIR/postgres" ] && [ -x "$PGB_DIR/pgbench" ] ||
			{ echo "bench: no PostgreSQL server and pgbench (Debian's postgresql package)" >&2; exit 1; }
		tier_cgroup
		pin_code "$PGB_DIR/postgres" "$PGB_DIR/pgbench" "$PGB_DIR/psql" \
			$(ls "$PGB_DIR"/../lib/{plpgsql,pg_prewarm}.so 2>/dev/null)
		tier_pg_setup
		bytes=$PG_SHM_BYTES
	else
		tier_cgroup
		pin_code "$(command -v chmu-workload)"
		bytes=$(numfmt --from=iec "$TSIZE")
	fi
	printf '%s\n' "pinned_kb=$(sed -n 's/^pinned_kb=//p' "$R/pin.txt")" \
		"pinned_off_node0_start=$(pinned_off)" >"$R/pinned_kb"
	units=$((bytes / 4096))
	fast_kb=$((bytes / (1 + ratio) / 1024))
	printf '%s\n' "workload=$([ "$mode" = tier ] && echo zipf || echo pgbench)" "ratio=$ratio" \
		"size=$bytes" "units=$units" "fast_kb=$fast_kb" "secs=$SECS" >"$R/setup.txt"
	if [ "$BLOCKS" = 1 ]; then
		ACC=${BENCH_TIER_ACCESSES:-8M} WIN=${BENCH_TIER_WINDOW:-50} SEED0=${BENCH_TIER_SEED:-1}
		printf '%s\n' "design=blocks" "first_block=$b_first" "blocks=$b_count" "arms=$b_arms" \
			"accesses=$ACC" "window_from=$WIN" "seed=$SEED0" >>"$R/setup.txt"
	fi
	if [ "$mode" = tier ]; then
		echo "zipf=$ZIPF" >>"$R/setup.txt"
	else
		printf '%s\n' "zipf=$PG_ZIPF" "pg_scale=$PG_SCALE" "pg_shared_buffers=$PG_SB" \
			"pg_clients=$PG_CLIENTS" "pg_shm_kb=$((PG_SHM_LEN / 1024))" >>"$R/setup.txt"
	fi
	# node 0's physical range, for DAMON's demotion context
	bs=$(( $(cat /sys/devices/system/memory/block_size_bytes | sed 's/^/0x/') ))
	blocks=$(ls -d /sys/devices/system/node/node0/memory[0-9]* | sed 's/.*memory//' | sort -n)
	DRAM_START=$(( $(head -n 1 <<<"$blocks") * bs ))
	DRAM_END=$(( ($(tail -n 1 <<<"$blocks") + 1) * bs ))
	echo - >/run/tier-sample.pol
	tier_sampler >/run/tier-samples &
	sampler=$!
	for run in "$@"; do
		pol=${run##*:}
		P=$R/${run//:/.}	# the run's files: RUN.POLICY.* or POLICY.*
		node=$NODE
		if [ "$pol" = dram ]; then
			node=0
			if [ -n "$balloon" ]; then
				# all DRAM again (a drift check): the balloon
				# goes, and comes back with the next policy
				kill $balloon
				for b in $balloon; do wait "$b" 2>/dev/null || true; done
				balloon=
			fi
		elif [ -z "$balloon" ]; then
			# leave fast_kb and 16 MiB for the processes each run
			# starts of room on node 0: each run takes back what
			# its processes left of the 16 MiB, then fills all but
			# 1 MiB of it with cold memory
			[ "$mode" = tier ] || tier_pg_place "$NODE" >/dev/null
			sync
			echo 3 >/proc/sys/vm/drop_caches
			BALLOON_KB=0	# a balloon built again: its own size
			balloon_to $((fast_kb + 16384)) balloon
			[ -n "$balloon" ] || { echo "bench: node 0 has no room for a balloon" >&2; exit 1; }
			b=$BALLOON_KB
			printf '%s\n' "balloon_kb=$b" "free_kb=$(node0 MemFree)" "high_kb=$(high_kb)" \
				"room_kb=$(room_kb)" >>"$R/setup.txt"
		fi
		[ "$mode" = tier ] || tier_pg_place "$node" >"$P.placed"
		# The workload starts before the filler: its own memory (stack,
		# heap, libraries' data; a server's backends') goes where a
		# process started before node 0 filled up would have it, on
		# node 0, and not wherever room was left (under TCG a hot stack
		# page on the CXL node slowed a whole run down 50-fold)
		if [ "$mode" = tier ]; then
			if [ "$BLOCKS" = 1 ]; then
				# bounded by accesses, on the block's seed
				blk=${run%%:*}
				blk=${blk#b}
				case $blk in start | end) blk=$b_first ;; esac
				zrun=(--accesses "$ACC" --seed $((SEED0 + blk)) --window-from "$WIN")
			else
				zrun=(--duration "$SECS")
			fi
			chmu-workload zipf --node "$node" --movable --no-thp --cgroup $CGW --size "$TSIZE" \
				--hot-units "$units" --hot-share 100 --zipf "$ZIPF" "${zrun[@]}" \
				--progress 500 --wait >"$P.txt" &
			wl=$!
			wait_key "$P.txt" ready "$pol: workload not ready"
		else
			tier_pg_start "$pol" "$node"
			wl=$PG_PID
		fi
		filler=
		if [ -n "$balloon" ]; then
			# node 0 with fast_kb of room (room_kb: above its high
			# watermark and reserves; a balloon takes what the
			# run's processes left of their 16 MiB), then all but 1
			# MiB of it filled with cold, demotable memory: what a
			# promotion must push out (never read again). The fast
			# share, share_kb (the room then), is fast_kb within 1
			# MiB under and 2 MiB over, less where the processes
			# took more. Allocations take a zone down to its low
			# watermark, not its high one: the first filler drains
			# the preferred zone (DMA32) below its high mark while
			# another zone's room (DMA's, above its reserve) stays,
			# room a promotion passes the watermark check with (7
			# MiB left after one filler): fillers follow until at
			# most 2 MiB is left, four at most
			sync
			echo 3 >/proc/sys/vm/drop_caches
			topup=
			BALLOON_KB=0
			balloon_to "$fast_kb" topup
			share=$(room_kb)
			fill=0
			: >"$P.filler"
			for step in 1 2 3 4; do
				f=$(( $(room_kb) - 1024 ))
				[ "$step" = 1 ] || [ "$f" -gt 1024 ] || break
				[ "$f" -gt 0 ] || f=4
				chmu-workload touch --node 0 --movable --no-thp --cgroup $CGW --size "${f}K" \
					--units 0 --count 1 --hold >"$P.filler.$step" &
				filler="$filler $!"
				wait_key "$P.filler.$step" held "$pol: filler not in place"
				# cold as it is meant to be: its page tables'
				# accessed bits (set by the writes that filled
				# it) cleared, or reclaim's first pass finds
				# every filler page referenced and keeps it
				echo 1 >/proc/${filler##* }/clear_refs
				cat "$P.filler.$step" >>"$P.filler"
				fill=$((fill + f))
			done
			printf '%s\n' "share_kb=$share" "filler_kb=$fill" "fillers=$(wc -w <<<"$filler")" \
				"topup_kb=$BALLOON_KB" >"$P.fill"
		fi
		printf '%s\n' "free_kb_before=$(node0 MemFree)" "room_kb_before=$(room_kb)" >"$P.cost"
		[ ! -e "$P.fill" ] || cat "$P.fill" >>"$P.cost"
		policy_on "$pol"
		kpid=-1
		case "$pol" in damon*) kpid=$(cat $D/0/pid) ;; esac
		probes_start "$wl" "$kpid"
		vm >"$P.vm0"
		t0=${EPOCHREALTIME/./}
		echo "$pol" >/run/tier-sample.pol
		# halfway: where the workload's own memory is (its code, stack
		# and heap beside the working set; a pgbench backend's); runs
		# bounded by accesses (blocks) have no halfway in time
		[ "$BLOCKS" = 1 ] ||
			{ sleep $((SECS / 2)); cat /proc/$([ "$mode" = tier ] && echo $wl || echo "${PG_BACKENDS%% *}")/numa_maps; } \
			>"$P.numa_maps" 2>/dev/null &
		if [ "$mode" = tier ]; then
			kill -USR1 $wl
			wait $wl
		else
			tier_pg_wait "$pol"
		fi
		echo - >/run/tier-sample.pol
		tier_sample_cut "$pol" "$t0" "$P.samples"
		[ "$mode" = tier-pg ] || vm >"$P.vm1"
		probes_stop "$pol" >>"$P.cost"
		# node 0 at the run's end: where the memory a policy moved
		# there came from (the filler demoted, or room left)
		printf '%s\n' "free_kb_after=$(node0 MemFree)" "room_kb_after=$(room_kb)" >>"$P.cost"
		policy_off "$pol" >>"$P.cost"
		[ "$mode" = tier ] || tier_pg_placement >>"$P.cost"
		if [ -n "$filler" ]; then
			kill -USR1 $filler
			for f in $filler; do wait "$f" || true; done
			# the first filler's unit 0 (its own file: a filler's
			# output ends once it is let go)
			echo "filler_unit0_node=$(sed -n 's/^after0=//p' "$P.filler.1")" >>"$P.cost"
			filler=
		fi
		echo "pinned_off_node0=$(pinned_off)" >>"$P.cost"
		if [ -n "${topup-}" ]; then
			kill $topup
			wait $topup 2>/dev/null || true
			topup=
		fi
	done
	[ -z "$balloon" ] || { kill $balloon; wait $balloon 2>/dev/null || true; }
	balloon=
	kill "$sampler" 2>/dev/null || echo "bench: the tiering sampler had stopped" >&2
	wait "$sampler" 2>/dev/null || true
	sampler=
	cp /run/tier-samples "$R/samples"
	[ "$mode" = tier ] || tier_pg_stop
	unpin_code
	# what was demoted to the CXL node and is only cache goes before
	# the region does
	sync
	echo 3 >/proc/sys/vm/drop_caches
	;;
esac
chmu-region destroy "$REGION"
