# make bench's guard against a busy host, on made-up samples: what
# bench/hostload.sh counts as other processes' CPU (a made-up /proc: our
# run's tree, a child it reaped, a make reaping compilers) and which
# samples are busy at the bounds.
. tests/lib.sh
command -v jq >/dev/null || fail "jq missing (lab/deps.sh installs it)"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
for v in $(compgen -v BENCH_); do unset "$v"; done	# none of the caller's

# A /proc: 2 CPUs; our run (pid 100) with QEMU (101) and a short-lived
# child (102); another user's make (200) and a process whose name has a
# space and parentheses (300). USER_HZ ticks.
P=$T/proc
proc() { # proc PID COMM PPID UTIME STIME CUTIME CSTIME
	mkdir -p "$P/$1"
	echo "$1 ($2) S $3 1 1 0 -1 4194304 100 0 0 0 $4 $5 $6 $7 20 0 1 0 100 1000 10" >"$P/$1/stat"
}
snap1() {
	mkdir -p "$P"
	printf 'cpu  1000 0 500 8000 10 0 0 100 0 0\ncpu0 500 0 250 4000 5 0 0 50 0 0\ncpu1 500 0 250 4000 5 0 0 50 0 0\nintr 1\n' >"$P/stat"
	echo "0.40 0.30 0.20 1/100 300" >"$P/loadavg"
	proc 1 init 0 1 1 0 0
	proc 100 run.sh 1 5 5 0 0
	proc 101 qemu-system-x86 100 80 20 0 0
	proc 102 jq 100 25 5 0 0
	proc 200 make 1 1 1 1000 0
	proc 300 "my (odd) name" 1 50 0 0 0
}
# 1000 ticks later (500 per CPU): 900 busy (user 650, system 200, irq
# 20, softirq 30), 50 idle, 50 stolen. Ours: run.sh 10 -> 20 plus the 70 it
# reaped from its child (30 when seen, 70 at its end), QEMU 100 -> 450:
# 140 -> 540, 0.80 CPUs; the others 0.80 + 0.20 = 1.00 CPUs. The make
# reaped 300 ticks of compilers (0.60), the odd name ran 100 (0.20).
snap2() {
	printf 'cpu  1650 0 700 8050 10 20 30 150 0 0\ncpu0 800 0 350 4000 5 10 15 75 0 0\ncpu1 850 0 350 4000 5 10 15 75 0 0\n' >"$P/stat"
	echo "1.52 0.80 0.30 3/101 301" >"$P/loadavg"
	rm -r "$P/102"
	proc 100 run.sh 1 10 10 60 10
	proc 101 qemu-system-x86 100 350 100 0 0
	proc 200 make 1 1 1 1300 0
	proc 300 "my (odd) name" 1 150 0 0 0
}
snap1
out=$(HOSTLOAD_PROC=$P bench/hostload.sh sample 100 "$T/state")
expect_eq "$out" "" "the first sample: a snapshot, no line"
snap2
out=$(HOSTLOAD_PROC=$P bench/hostload.sh sample 100 "$T/state")
expect_eq "$(cut -d' ' -f3- <<<"$out")" "2 1.80 0.80 1.00 0.050 1.52 make 0.60" \
	"CPUs, busy, ours, others, steal, load, the heaviest other"
expect_eq "$(grep -c '^P ' "$T/state"):$(grep '^P 300 ' "$T/state")" "3:P 300 150 my_(odd)_name" "the others kept for the next sample"

# The bounds: others at half a CPU, or 10% steal, make a sample busy.
printf '%s\n' "100.0 5.0 2 1.00 0.51 0.49 0.099 1.00 cc1 0.40" "105.0 5.0 2 1.00 0.60 0.40 0.000 1.00 - 0.00" >"$T/quiet"
expect_eq "$(bench/hostload.sh summary "$T/quiet")" \
	'{"samples":2,"seconds":10.0,"others_cpus_max":0.49,"others_cpus_mean":0.45,"steal_max":0.099,"load1_max":1.00,"heaviest":"cc1","heaviest_cpus":0.40,"busy_samples":0,"busy":false,"busy_cpus":0.5,"busy_steal":0.1}' \
	"just under both bounds: quiet"
echo "110.0 10.0 2 1.50 0.99 0.50 0.000 2.50 qemu-system-x86 0.50" >"$T/busy"
expect_eq "$(bench/hostload.sh summary "$T/quiet" "$T/busy" | jq -c '[.busy, .busy_samples, .others_cpus_max, .others_cpus_mean, .heaviest]')" \
	'[true,1,0.5,0.47,"qemu-system-x86"]' "half a CPU of others: busy"
echo "115.0 5.0 2 1.00 1.00 0.00 0.100 1.00 - 0.00" >"$T/steal"
expect_eq "$(bench/hostload.sh summary "$T/steal" | jq -c '[.busy, .steal_max]')" '[true,0.1]' "10% steal: busy"
expect_eq "$(BENCH_BUSY_CPUS=0.4 bench/hostload.sh summary "$T/quiet" | jq -c '[.busy, .busy_samples, .busy_cpus]')" \
	'[true,2,0.4]' "BENCH_BUSY_CPUS moves the bound"
expect_eq "$(bench/hostload.sh summary /dev/null)" '{"samples":0,"busy":null}' "no sample: not known"

echo ok
