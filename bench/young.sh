#!/bin/bash
# Runs in the guest: how soon a page's accessed bit is set again after it
# was cleared, under TCG (make guest CMD='bench/young.sh').
#
# LRU aging, NUMA balancing's tiering mode (through reclaim) and DAMON
# judge a page cold when its accessed bit stays clear; under TCG the bit
# is set when QEMU fills its software TLB, so a page that stays in that
# TLB would look idle while in use. This measures it: a workload pinned
# to CPU 1 keeps reading an area of anonymous memory on node 0 (a loop
# over it, or Zipf draws); from CPU 0, /proc/PID/clear_refs clears the
# area's accessed bits (no TLB flush) and smaps' Referenced says how much
# of it was read since, right away, after 10 ms, 60 ms and 500 ms. One
# line per size and round: "young SIZE MODE ROUND kB kB kB kB".
set -u
[ "$(nproc)" -ge 2 ] || { echo "young.sh: needs 2 CPUs" >&2; exit 1; }
rounds=${YOUNG_ROUNDS:-5}
area() { # area PID KB: Referenced kB of PID's mapping of KB kB
	awk -v kb="$2" '/^[0-9a-f]+-[0-9a-f]+ / { m = 0 }
		$1 == "Size:" && $2 == kb { m = 1 }
		m && $1 == "Referenced:" { print $2; exit }' /proc/"$1"/smaps
}
run() { # run SIZE MODE ARGS...
	local size=$1 mode=$2 pid kb r a b c d
	shift 2
	taskset -c 1 numactl --membind=0 chmu-workload "$mode" --anon --no-thp --size "$size" "$@" \
		>/dev/null &
	pid=$!
	kb=$(($(numfmt --from=iec "$size") / 1024))
	# the area allocated and read at least once
	for _ in $(seq 100); do [ "$(area $pid $kb)" = "$kb" ] && break; sleep 0.1; done
	for r in $(seq "$rounds"); do
		echo 1 >/proc/$pid/clear_refs
		a=$(area $pid $kb)
		sleep 0.01
		b=$(area $pid $kb)
		sleep 0.05
		c=$(area $pid $kb)
		sleep 0.44
		d=$(area $pid $kb)
		echo "young $size $mode $r $a $b $c $d"
	done
	kill $pid
	wait $pid 2>/dev/null
}
grep -qw pti /proc/cpuinfo && echo "pti on" || echo "pti off"
grep -qw pcid /proc/cpuinfo && echo "pcid on" || echo "pcid off"
taskset -p -c 0 $$ >/dev/null
run 256K stream --passes 1000000000
run 4M stream --passes 100000000
run 48M zipf --duration 60 --zipf 0.99
