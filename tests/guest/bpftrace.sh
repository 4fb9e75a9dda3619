# Every script in tools/bpftrace/ and every one-liner of docs/bpftrace.md
# runs with Debian's bpftrace against a known workload (units 7 and 3 read
# 300 and 100 times, threshold 5, epoch mode) and prints what it should;
# the scripts' filter arguments keep what they name and nothing else.
. tests/lib.sh
hmu_setup
eval "$(chmu-region create -m mem0 --devdax)"
trap 'chmu-region destroy all >/dev/null 2>&1 || true' EXIT
hpa=$((HPA))

# bt OUT ARGS...: bpftrace ARGS while the workload runs; Ctrl-C after it.
bt() {
	local out=$1 pid i n
	shift
	hmu_cfg mode=epoch threshold=5 epoch_us=1000000 fill_threshold=0 unit_shift=12 enable=0
	rm -f "$out"	# the last run's "Attaching" is not this one's
	bpftrace "$@" >"$out" 2>&1 &
	pid=$!
	for i in $(seq 300); do
		grep -q '^Attaching' "$out" && break
		sleep 0.1
	done
	grep -q '^Attaching' "$out" || { cat "$out"; fail "bpftrace $* did not attach"; }
	# its tracepoint probes are on: perf events of its pid (BEGIN runs
	# before bpftrace attaches them, so it cannot tell)
	n=$(for a in "$@"; do if [ -f "$a" ]; then cat "$a"; else echo "$a"; fi; done |
		grep -o 'tracepoint:chmu:[a-z_]*' | wc -l)
	bpftrace_attached $pid "$n"
	hmu_cfg enable=1
	# units 3 and 7 read 100 and 300 times by one process: one epoch, one
	# batch of two, which the disable waits for
	chmu-workload touch --dax "$DEV" --size 2M --units 3,7,7,7 --count 100 >/dev/null
	hmu_drained 2
	hmu_cfg enable=0
	sleep 0.5	# bpftrace prints what is still in its buffers
	stop_bpftrace $pid || true
	cat "$out"
}

bt /tmp/bt.out tools/bpftrace/chmu-hottest.bt
expect_eq "$(grep '^@hot' /tmp/bt.out | tr '\n' ';')" \
	"@hot[0, 0, 0, $((hpa + 0x3000)), 12288, -1]: 100;@hot[0, 0, 0, $((hpa + 0x7000)), 28672, -1]: 300;" "chmu-hottest.bt"

# Filters: a minimum count keeps unit 7 only; another memdev, nothing.
bt /tmp/bt.out tools/bpftrace/chmu-hottest.bt 101
expect_eq "$(grep '^@hot' /tmp/bt.out | tr '\n' ';')" \
	"@hot[0, 0, 0, $((hpa + 0x7000)), 28672, -1]: 300;" "chmu-hottest.bt 101"
bt /tmp/bt.out tools/bpftrace/chmu-hottest.bt 0 1
expect_eq "$(grep -c '^@hot' /tmp/bt.out)" 0 "chmu-hottest.bt 0 1: mem1 has no entries"

bt /tmp/bt.out tools/bpftrace/chmu-nodes.bt 0 0 0 0
expect_eq "$(grep -E '^@(entries|counts)_per' /tmp/bt.out | tr '\n' ';')" \
	"@counts_per_node[-1]: 400;@counts_per_region[0, 0]: 400;@entries_per_node[-1]: 2;" "chmu-nodes.bt"

bt /tmp/bt.out tools/bpftrace/chmu-hist.bt
expect_eq "$(grep -A4 '^@counts\[0, 0, 0\]' /tmp/bt.out | grep -E '^\[' | awk '$NF ~ /\|/ { print $1 $2 ":" $3 }' | tr '\n' ' ')" \
	"[64,128):1 [128,256):0 [256,512):1 " "chmu-hist.bt"

bt /tmp/bt.out tools/bpftrace/chmu-batches.bt
# the poll that drained both entries, and the empty flush on disable
expect_eq "$(sed -n '/^@batch_entries/,/^$/p' /tmp/bt.out | grep '^\[' |
	sed 's/^\(\[[^]]*[])]\) *\([0-9]*\) .*/\1 \2/' | awk '$NF > 0' | tr '\n' ';')" \
	"[0] 1;[2, 4) 1;" "chmu-batches.bt: entries per batch"
expect_eq "$(grep '^@reason' /tmp/bt.out | sort | tr '\n' ';')" "@reason[2]: 1;@reason[3]: 1;" "chmu-batches.bt: reasons"
expect_eq "$(grep '^@drains' /tmp/bt.out)" "@drains: 1" "chmu-batches.bt: drains timed"
grep -q '^@drain_us:' /tmp/bt.out || fail "chmu-batches.bt: no drain time histogram"

bt /tmp/bt.out tools/bpftrace/chmu-overflow.bt
expect_eq "$(grep -c '^mem0 ' /tmp/bt.out)" 0 "chmu-overflow.bt: nothing overflows"
bt /tmp/bt.out tools/bpftrace/chmu-batches.bt 0 0 1
expect_eq "$(grep -c '^@reason' /tmp/bt.out)" 0 "chmu-batches.bt 0 0 1: instance 0.1 never drained"

# The one-liners, in the order of the page, each with its expected output.
# (the chmu_promote one needs the promoter: tests/guest/hmu-promote.sh)
mapfile -t lines < <(grep '^bpftrace -e ' docs/bpftrace.md | grep -v chmu_promote)
expect_eq "${#lines[@]}" 6 "one-liners on the page"
expect=(
	"@[12288]: 100;@[28672]: 300;"
	"@nodes[-1]: 2;"
	"[64, 128) 1;[128, 256) 0;[256, 512) 1;"
	"[0, 64) 2;"
	"mem0 chmu0.0 hpa $(printf '%#x' $((hpa + 0x7000))) dpa 0x7000 count 300;mem0 chmu0.0 hpa $(printf '%#x' $((hpa + 0x3000))) dpa 0x3000 count 100;"
	"mem0 chmu0.0 enabled 1 mode 0 threshold 5 unit_shift 12 epoch_us 1000000;mem0 chmu0.0 enabled 0 mode 0 threshold 5 unit_shift 12 epoch_us 1000000;"
)
for i in "${!lines[@]}"; do
	prog=$(sed "s/^bpftrace -e '\\(.*\\)'$/\\1/" <<<"${lines[$i]}")
	bt /tmp/bt.out -e "$prog"
	got=$(grep -v -E '^(Attaching.*|@nr: *|@counts: *|)$' /tmp/bt.out |
		sed 's/^\(\[[0-9, ]*)\) *\([0-9]*\) .*/\1 \2/' | tr '\n' ';')
	expect_eq "$got" "${expect[$i]}" "one-liner $((i + 1))"
done
