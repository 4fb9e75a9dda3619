#!/bin/bash
# hostload.sh: how busy the host is beside our guest (make bench's guard
# against a busy host; docs/bench.md, "A busy host").
#
#   hostload.sh sample ROOT STATE
#       one sample: the host's CPU use since the snapshot in STATE (which
#       then holds this one); prints nothing the first time
#   hostload.sh watch ROOT OUT [SECS]
#       a sample every SECS seconds (5), appended to OUT, while ROOT lives
#       (its snapshot in OUT.state)
#   hostload.sh summary [FILE...]
#       the samples (lines of OUT) as one JSON object: how many, their
#       seconds, the others' CPUs at most and on average (time-weighted),
#       steal at most, the 1-minute load at most, the heaviest other
#       process, and "busy" (null without samples)
#
# A sample is one line: END SECS CPUS BUSY OURS OTHERS STEAL LOAD1 WHO WHO_CPUS
#   END, SECS  when it ended (s since 1970) and how long it covers
#   CPUS       the host's CPUs (cpuN lines of /proc/stat)
#   BUSY       CPUs busy over it (/proc/stat: user, nice, system, irq, softirq)
#   OURS       CPUs used by ROOT (bench/run.sh) and its descendants, our
#              QEMU among them (/proc/PID/stat: utime, stime and the
#              children's they reaped)
#   OTHERS     BUSY - OURS: every other process, short-lived ones included
#   STEAL      the share of the host's CPU time its hypervisor took
#   LOAD1      /proc/loadavg's first figure at the end
#   WHO        the command name (spaces as _) whose processes, other than
#              ours and alive at the end, used most CPU, with what the
#              children they reaped used (a make running short compiler
#              processes is named); WHO_CPUS theirs, at most OTHERS (a
#              child counted alive, then in what its parent reaped, is
#              counted twice: this names, it does not measure) (- 0 when
#              none)
# A sample is busy when OTHERS >= BENCH_BUSY_CPUS (0.5: half a CPU) or
# STEAL >= BENCH_BUSY_STEAL (0.1). HOSTLOAD_PROC replaces /proc (tests).
set -euo pipefail
PROC=${HOSTLOAD_PROC:-/proc}
BUSY_CPUS=${BENCH_BUSY_CPUS:-0.5}
BUSY_STEAL=${BENCH_BUSY_STEAL:-0.1}

# snapshot: /proc/stat's cpu lines, a separator, every process's stat
snapshot() {
	grep '^cpu' "$PROC/stat"
	echo '--'
	cat "$PROC"/[0-9]*/stat 2>/dev/null || true
}

sample() { # sample ROOT STATE
	local root=$1 state=$2 now
	now=$(date +%s.%N)
	snapshot | awk -v root="$root" -v state="$state" -v now="$now" \
		-v load="$(cut -d' ' -f1 "$PROC/loadavg")" '
	BEGIN {
		# the previous snapshot: "T now total busy steal ours", then
		# "P pid ticks comm" per process not ours
		while ((getline l < state) > 0) {
			split(l, f, " ")
			if (f[1] == "T") { pnow = f[2]; ptotal = f[3]; pbusy = f[4]; psteal = f[5]; pours = f[6]; have = 1 }
			else if (f[1] == "P") prev[f[2]] = f[3]
		}
		close(state)
	}
	/^cpu / { total = $2 + $3 + $4 + $5 + $6 + $7 + $8 + $9; busy = $2 + $3 + $4 + $7 + $8; steal = $9; next }
	/^cpu[0-9]/ { ncpu++; next }
	/^--$/ { procs = 1; next }
	procs {
		# "PID (COMM) STATE PPID ...": COMM may hold spaces and parentheses
		rest = $0
		sub(/^.*\) /, "", rest)
		o = index($0, "(")
		comm = substr($0, o + 1, length($0) - length(rest) - o - 2)
		# anything a JSON string or the line format cannot hold as is
		gsub(/[^[:alnum:]._:\/+()-]/, "_", comm)
		n = split(rest, s, " ")
		if (n < 15) next
		pid = $1 + 0
		ppid[pid] = s[2]; name[pid] = comm
		own[pid] = s[12] + s[13]; reaped[pid] = s[14] + s[15]
	}
	function ours(p,   i) {
		for (i = 0; i < 64 && p > 1; i++) {
			if (p == root) return 1
			if (!(p in ppid)) return 0
			p = ppid[p]
		}
		return p == root
	}
	END {
		o = 0
		for (p in own)
			if (ours(p)) o += own[p] + reaped[p]
			else others[p] = 1
		print "T", now, total, busy, steal, o > state
		for (p in others) print "P", p, own[p] + reaped[p], name[p] > state
		close(state)
		if (!have || total <= ptotal || ncpu == 0) exit
		tick = (total - ptotal) / ncpu	# ticks of one CPU over the sample
		b = (busy - pbusy) / tick
		od = 0
		for (p in others) {
			d = own[p] + reaped[p] - (p in prev ? prev[p] : 0)
			if (d > 0) { by[name[p]] += d; od += d }
		}
		if (o >= pours) {
			# the others: all the busy time of the host but ours
			u = (o - pours) / tick
			if (u > b) u = b
			x = b - u
		} else {
			# Ours went down: one of our processes was reaped between
			# the reads of its stat and of its parent, and counted in
			# both the sample before. Then the others are what their
			# own stats say they used.
			x = od / tick
			if (x > b) x = b
			u = b - x
		}
		who = "-"; wd = 0
		for (c in by) if (by[c] > wd) { wd = by[c]; who = c }
		if (wd / tick > x) wd = x * tick	# reaped time counted twice
		printf "%.1f %.1f %d %.2f %.2f %.2f %.3f %s %s %.2f\n", now, now - pnow, ncpu, b, u, x,
			(steal - psteal) / (total - ptotal), load, who, wd / tick
	}'
}

summary() {
	cat "$@" | awk -v bc="$BUSY_CPUS" -v bs="$BUSY_STEAL" '
	NF >= 10 {
		n++; secs += $2; w += $6 * $2
		if (n == 1 || $6 > omax) omax = $6
		if ($7 > smax) smax = $7
		if ($8 > lmax) lmax = $8
		if ($10 > wmax) { wmax = $10; who = $9 }
		if ($6 + 0 >= bc + 0 || $7 + 0 >= bs + 0) nbusy++
	}
	END {
		if (!n) { printf "{\"samples\":0,\"busy\":null}\n"; exit }
		printf "{\"samples\":%d,\"seconds\":%.1f,\"others_cpus_max\":%.2f,\"others_cpus_mean\":%.2f,\"steal_max\":%.3f,\"load1_max\":%.2f,\"heaviest\":\"%s\",\"heaviest_cpus\":%.2f,\"busy_samples\":%d,\"busy\":%s,\"busy_cpus\":%s,\"busy_steal\":%s}\n",
			n, secs, omax, (secs > 0 ? w / secs : omax), smax, lmax, (who == "" ? "-" : who), wmax, nbusy,
			nbusy ? "true" : "false", bc, bs
	}'
}

case "${1-}" in
sample)
	[ $# -eq 3 ] || { echo "usage: hostload.sh sample ROOT STATE" >&2; exit 1; }
	sample "$2" "$3"
	;;
watch)
	[ $# -ge 3 ] || { echo "usage: hostload.sh watch ROOT OUT [SECS]" >&2; exit 1; }
	state=$3.state
	sample "$2" "$state"
	while kill -0 "$2" 2>/dev/null; do
		sleep "${4:-5}"
		sample "$2" "$state" >>"$3"
	done
	rm -f "$state"
	;;
summary)
	shift
	summary "$@"
	;;
*)
	echo "usage: hostload.sh sample ROOT STATE | watch ROOT OUT [SECS] | summary [FILE...]" >&2
	exit 1
	;;
esac
