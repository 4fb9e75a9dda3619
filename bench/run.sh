#!/bin/bash
# make bench: boot the guest once per device configuration, run
# bench/guest-bench.sh in it, and write build/bench/results.md (table) and
# build/bench/results.json. Every ratio compares figures measured in the
# same guest, one after the other.
#
#   bench/run.sh            make bench: every section, or those BENCH_SECTIONS
#                           names (memory,cost,...: bench/sections.sh)
#   bench/run.sh --goals    make bench-goals: only what the goals table reads,
#                           into build/bench/goals.md and goals.json
#   bench/run.sh --check [--goals]
#                           only check BENCH_SECTIONS (the Makefile, first)
#
# Each section is kept in its own directory of the store
# ($CHMU_CACHE/bench-results; bench-goals: bench-goals): its boots, its
# text (section.md), its rows (section.json), its goals (goals.json) and
# its stamp (stamp.json: when, on which commit, the host's load). Its new
# boots go to .run/NAME and replace NAME once the section is complete, so
# a run that fails or is interrupted loses nothing; after each section the
# results are written again from every section the store holds.
# BENCH_RESUME=1 keeps what an interrupted run finished: its sections, and
# the boots of the section it was in.
# A busy host (bench/hostload.sh, sampled all along) marks the goals of the
# sections it disturbed unreliable (bench/results-json.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/sections.sh

mode=bench check=0
for a in "$@"; do
	case "$a" in
	--goals) mode=goals ;;
	--check) check=1 ;;
	*) echo "usage: bench/run.sh [--goals] [--check]" >&2; exit 1 ;;
	esac
done
# A wrong name stops here, before anything is booted or removed.
sections=$(bench_sections "${BENCH_SECTIONS-}" "$mode") || exit 1
[ "$check" = 0 ] || exit 0
# the tiering section's PostgreSQL (lab/deps.sh --bench)
if tr ' ' '\n' <<<"$sections" | grep -qx tiering && [ -z "${BENCH_GUEST-}" ]; then
	lab/deps.sh --bench || exit 1
fi
. lab/lib.sh

out=${BENCH_OUT:-build/bench}
if [ "$mode" = goals ]; then
	store=$CHMU_CACHE/bench-goals report=goals
	# the drain goals read these consumers only (and the bare drain)
	export BENCH_DRAIN_CONSUMERS=${BENCH_DRAIN_CONSUMERS-chmutop,chmuheat,bpftrace one-liner}
else
	store=$CHMU_CACHE/bench-results report=results
fi
mkdir -p "$out" "$store/.run"
# What an older make bench left (its boots side by side, no stamps) is
# not a section: it goes.
all=$(bench_section_names)
for d in "$store"/*; do
	[ -e "$d" ] || continue
	n=${d##*/}
	if ! grep -qxF -- "$n" <<<"$all" || [ ! -e "$d/stamp.json" ]; then
		rm -rf "$d"
	fi
done

# The guest sees the host's BENCH_* settings (bench/guest-bench.sh), not
# those of the host side.
genv=
for v in $(compgen -v BENCH_); do
	case "$v" in
	BENCH_RESUME | BENCH_SECTIONS | BENCH_OUT | BENCH_GUEST | BENCH_BUSY_* | BENCH_HOST_SECS) ;;
	*) genv+="$v=$(printf %q "${!v}") " ;;
	esac
done
# settings: those BENCH_* settings as a JSON object (the stamps keep them)
sargs=()
for v in $(compgen -v BENCH_); do sargs+=(--arg "$v" "${!v}"); done
settings=$(jq -nc '$ARGS.named' "${sargs[@]}")

# boot DIR CMD: one guest boot writing into DIR (CHMU_PROPS as set);
# BENCH_GUEST replaces qemu/run-guest.sh (tests/host/bench-sections.sh)
boot() {
	if [ "${BENCH_RESUME:-0}" = 1 ] && [ "$(cat "$1/status" 2>/dev/null)" = 0 ]; then
		msg BENCH "  (kept from the interrupted run)"
		return 0
	fi
	local t0=$SECONDS
	CHMU_RESULTS=$1 "${BENCH_GUEST:-qemu/run-guest.sh}" "$genv$2" >/dev/null
	echo $((SECONDS - t0)) >"$1/seconds"
}

# The research hardware's trackers (M5): in the cost and accuracy sections
research_models=(
	"Count-Min 4 x 32768 x 14 bit, top-25 (M5)|chmu-tracker=cms"
	"Count-Min 4 x 2048 x 14 bit, top-25|chmu-tracker=cms,chmu-cms-width=2048"
	"Space-Saving, 50 entries (M5)|chmu-tracker=space-saving"
	"Space-Saving, 50 entries, lossy ingest|chmu-tracker=space-saving,chmu-lossy=on"
)
# label|CHMU_PROPS for each tracker model (bench-goals: the exact one,
# whose target is a goal)
models=(
	"exact|"
	"limited (4096 counters)|chmu-counters=4096"
	"exact + modelled LLC (1 MiB)|chmu-llc-size=1M"
	"${research_models[@]}"
)
[ "$mode" = bench ] || models=("exact|")
# Accuracy: the same Zipf run per tracker model; DAMON watches the exact
# model's run. 4096 units of 4 KiB, so 512 counters are a real limit.
acc_models=(
	"exact|"
	"limited (512 counters)|chmu-counters=512"
	"exact + modelled LLC (1 MiB)|chmu-llc-size=1M"
	"${research_models[@]}"
)

# Each sec_NAME DIR: the section's boots into DIR, then DIR/section.md
# (its text: headings, explanation, tables; written now, with the
# settings it ran with), and whatever "results-json.sh section NAME" and
# bench/goal-rows.sh read.

sec_memory() {
	msg BENCH "memory throughput, DRAM vs CXL"
	boot "$1/base" 'bench/guest-bench.sh memory'
	# the guest's page starts with the title; results-md.sh writes it
	sed '1{/^# /d}' "$1/base/section.md" | sed '1{/^$/d}' >"$1/section.md"
}

# epoch_end DIR: "hot posted ns" medians of the epoch ends QEMU traced
# (cxl_chmu_epoch_end) while the guest touched 16384 units per epoch:
# those after the last enable (cxl_chmu_enable), which starts the touch
# rounds, that saw any hot unit.
epoch_end() {
	awk '/cxl_chmu_enable / { n = 0; next }
		/cxl_chmu_epoch_end / { line[n++] = $0 }
		END { for (i = 0; i < n; i++) print line[i] }' "$1/qemu.log" |
		sed -n 's/.*cxl_chmu_epoch_end instance [0-9]* hot \([0-9]*\) posted \([0-9]*\) dropped [0-9]* in [0-9]* steps, took \([0-9]*\) ns.*/\1 \2 \3/p' |
		awk '$1 > 0' >"$1/epoch-end.txt"
	[ -s "$1/epoch-end.txt" ] || die "${1##*/}: QEMU traced no epoch end of the touch rounds"
	local c
	for c in 1 2 3; do
		cut -d' ' -f$c "$1/epoch-end.txt" | sort -g |
			awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'
	done | paste -sd' '
}
i=0
sec_cost() {
	local i=0 m hot posted ns
	for m in "${models[@]}"; do
		msg BENCH "CHMU cost: ${m%%|*}"
		CHMU_PROPS=${m#*|} QEMU_EXTRA='-trace cxl_chmu_epoch_end -trace cxl_chmu_enable' \
			boot "$1/m$i" "bench/guest-bench.sh chmu '${m%%|*}'"
		# epoch_end's die ends only its subshell: stop here too
		r=$(epoch_end "$1/m$i") || exit 1
		read -r hot posted ns <<<"$r"
		printf ' %s | %s | %.0f |\n' "$hot" "$posted" "$((ns / 1000))" >"$1/m$i/epoch.md"
		printf ',"epoch_hot":%s,"epoch_posted":%s,"epoch_end_ns":%s}' "$hot" "$posted" "$ns" >"$1/m$i/epoch.json"
		i=$((i + 1))
	done
	{
	cat <<MD

## Cost of the CHMU on guest accesses to CXL memory

Each row is one guest boot with that tracker model: the same stream of
8-byte loads over a device-DAX mapping with the instance disabled, then
enabled (epoch mode, 1 s epochs, threshold 1, 4 KiB units, all ranges,
reads and writes), in ${BENCH_ROUNDS:-5} alternating rounds. The rates are the medians
of the rounds; the ratio is the median of the rounds' ratios, with their
range. Target: enabled/disabled >= 0.90 for the exact tracker.

Epoch end, in the same boot: 100 ms epochs, threshold 1, and
$((${BENCH_ROUNDS:-5} * 2)) rounds that each touch 16384 units (64 MiB) once, then drain the
list. QEMU's \`cxl_chmu_epoch_end\` trace times each epoch end on the
host, under the BQL: the hot units it saw (the limited tracker holds at
most its counters), the entries it posted (what the list and the
backlog could take, the hottest selected with a bounded heap) and the
time it took; medians over the epoch ends of those rounds.

| tracker | disabled (accesses/s) | enabled (accesses/s) | enabled / disabled | range | epoch end: hot units | posted | µs |
|---|---|---|---|---|---|---|---|
MD
	for d in "$1"/m*; do
		printf '%s%s\n' "$(cat "$d/row.md")" "$(cat "$d/epoch.md")"
	done
	} >"$1/section.md"
}

# Epoch ends as the touched units grow: the exact tracker, one boot.
sec_epochs() {
	msg BENCH "epoch ends: the exact tracker, ${BENCH_EPOCH_UNITS:-4096 .. 1048576} units touched"
	QEMU_EXTRA='-trace cxl_chmu_epoch_end -trace cxl_chmu_enable' \
		boot "$1/e0" 'bench/guest-bench.sh epochend'
	bench/epochend-rows.sh "$1/e0"
	{
	cat <<'MD'

## Epoch end against the units touched

One boot, the exact tracker: for each size, the instance is enabled
(epoch mode, 1 s epochs, threshold 1, 256-byte units), the guest loads
once at the base of that many units (`chmu-workload touch` on device
DAX), and the epochs that counted them end. QEMU's `cxl_chmu_epoch_end`
trace gives each end's hot units, its steps (at most 65,536 counters
each, one per µs of guest time) and the host time its steps took under
the BQL. Per size: the epoch ends that saw hot units, their hot units
and steps in all (fewer hot units than touched when loads fell between
the steps of an end, which counts nothing), their host time in all and
per hot unit; then the largest end: its hot units, its steps, and its
host time per step, the longest the model keeps the BQL for one end's
work at a time, on average over its steps. Goal: the time per step
stays flat as the touched units grow past one step.

| touched units | epoch ends | hot units | steps | host time (µs) | ns per hot unit | largest end: hot units | steps | µs per step |
|---|---|---|---|---|---|---|---|---|
MD
	cat "$1/e0/rows.md"
	} >"$1/section.md"
}

sec_drain() {
	msg BENCH "drain cost per entry and toolkit CPU, per consumer${BENCH_DRAIN_CONSUMERS:+ (bare drain, $BENCH_DRAIN_CONSUMERS)}"
	boot "$1/drain" 'bench/guest-bench.sh drain'
	{
	cat <<MD

## Drain cost per hotlist entry, per consumer

One guest boot; the same load under each consumer in turn: a stream over
2 MiB of device DAX with the instance in always-on mode, threshold 4,
4 KiB units, fill threshold 256 (over a hundred thousand entries per
run). Each consumer is attached (its BPF links or perf attachments seen)
before the load starts. The driver's own \`drain_ns\` counter (time spent
draining, tracepoints and AUX output included) divided by its \`entries\`
counter. ${BENCH_DRAIN_ROUNDS:-5} rounds, each running every consumer once in this order; the
median per consumer, and the range over the rounds. Ratios are against
"tracepoints disabled". chmualert runs with a threshold no unit reaches
and a 4 MiB ring buffer: the cost of handing every entry to user space.
chmu-exporter runs unscraped: its per-entry cost is all in its BPF
programs (a scrape costs per series, not per entry).
The tools (chmutop, chmuheat, chmualert, chmu-exporter) attach to the
batch tracepoint only: one program run per drain walks its decoded
entries; the entry tracepoint is not enabled for them. The bpftrace rows
use the entry tracepoint, one program run per entry.

| consumer | entries | ns per entry | range | vs disabled |
|---|---|---|---|---|
MD
	cat "$1/drain/drain.md"
	cat <<'MD'

## Toolkit CPU per hotlist entry

During the same runs: BPF run time (kernel BPF statistics, all programs)
and the tool's own time on a CPU (perf's task-clock event), per entry drained,
in ns (= ms per million entries); medians over the rounds. "bpftrace,
chmutop's equivalent" is bench/chmutop-equivalent.bt: the per-unit and
per-instance state chmutop keeps, a map per field, and a top-10 frame
every second. Target: chmutop at most a third of that script.

| tool | entries | BPF ns/entry | process ns/entry | total ns/entry |
|---|---|---|---|---|
MD
	cat "$1/drain/cpu.md"
	cat <<'MD'

Goals of the batch path, from the medians above: chmutop at most 1.3x
the bare drain per entry, chmuheat at most 1.5x, chmutop's CPU per entry
(BPF and process) at most a third of the bpftrace one-liner's. Under TCG
the bare drain is the noisiest row (its range above): the ratios move
with it from boot to boot.

| goal | measured | met |
|---|---|---|
MD
	bench/drain-goals.sh "$1/drain/drain.json"
	} >"$1/section.md"
}

sec_attribution() {
	msg BENCH "attribution by cgroup and process: cost per entry, per tool"
	boot "$1/attr" 'bench/guest-bench.sh attrib'
	{
	cat <<MD

## Attribution: who owns the hot memory, cost per entry

One boot; the region is system RAM on its own node and the load a
stream over 2 MiB of anonymous memory bound to it (base pages), the
instance as in the drain section above (always-on, threshold 4, 4 KiB
units, fill threshold 256). Each tool runs without and with attribution
(${BENCH_DRAIN_ROUNDS:-5} rounds, every row once per round, medians).
chmuheat, chmualert and chmu-exporter attribute in the drain: every
entry's unit pages are looked up through their \`struct page\` (one page
per 4 KiB unit here). chmutop attributes when it draws a frame (here
every unit of its map, once a second; \`--by process\` also reads every
process's pagemap): its rows are what its frames cost, spread over the
entries. "extra" is the tool's CPU per entry (BPF and process) with
attribution less without.

| consumer | entries | drain ns/entry | vs disabled | BPF ns/entry | process ns/entry | extra ns/entry |
|---|---|---|---|---|---|---|
MD
	cat "$1/attr/attrib.md"
	} >"$1/section.md"
}

# each_model PREFIX MODE WHAT: one boot per accuracy model, in PREFIX0..,
# running guest-bench.sh MODE LABEL (DAMON in the first model's boot);
# the rows are computed here, from what the boot left
each_model() {
	local i=0 m
	for m in "${acc_models[@]}"; do
		msg BENCH "$3: ${m%%|*}"
		CHMU_PROPS=${m#*|} boot "$1$i" "bench/guest-bench.sh $2 '${m%%|*}' $([ "$i" = 0 ] && echo damon)"
		PATH=$PWD/build/bin:$PATH bench/accuracy-rows.sh "$2" "${m%%|*}" "$1$i" ||
			die "${1##*/}$i: no rows"
		i=$((i + 1))
	done
}

sec_accuracy() {
	local i m
	each_model "$1/a" accuracy "accuracy on a Zipf workload"
	{
	cat <<MD

## Accuracy: top-K hot units of a Zipf workload, CHMU vs DAMON

One boot per tracker model; the CXL memory is system RAM on its own node.
\`chmu-workload zipf\` makes $(sed -n 's/^accesses=//p' "$1/a0/workload.txt") loads to
$(sed -n 's/^units=//p' "$1/a0/workload.txt") 4 KiB units (Zipf exponent 1, hot units scattered by a seeded
permutation, a random word in the unit) and writes the exact count per
physical page: the ground truth. chmutop (epoch mode, 1 s epochs,
threshold 1, 4 KiB units; the hotlist keeps the hottest 1088 units of an
epoch, the rest overflow) ranks units by the sum of their counts. In the
exact model's boot two DAMON contexts watch the same run (physical
address operations on the region, through sysfs; a stat scheme's
tried_regions read after every second of the run, about every 2 s under
TCG, and summed per page over the snapshots inside the run). \`chmu-score\`
takes each monitor's K hottest units (ties in no address order) and
compares them with the truth's K hottest: recall = precision when the
monitor names K units. "tied" is how many units share the score at the
monitor's K-th place: a region-based monitor cannot rank inside a region.
"captured" is the share of all accesses that go to the monitor's top 64
(beside the best possible). "ratio@64" over the run: the true accesses
of the 64 units the monitor picks over those of the truly hottest 64
(captured / best possible; it is M5's average access-count ratio when
the monitor names 64 units, and lower when it names fewer). "ratio per
epoch" is M5's ratio per epoch: the units the monitor posted most of in
that epoch among the 512 chmutop shows, up to 64 (for DAMON, the 64
hottest of a snapshot; a snapshot that names nothing scores 0), against
as many truly hottest units; the mean over the full epochs
(those wholly inside the run), and the worst. "@25" is the same at up
to 25 units, the size of M5's top-K table, so that Count-Min is compared
with the others at its own K. A frame is placed by the drains it
holds (chmutop's \`first_batch_ns\` and \`last_batch_ns\`): it is a full
epoch when they all follow one epoch end that no other frame has drains
of, inside the run; a DAMON snapshot is placed by its aggregation window
(bench/accuracy-rows.sh). CPU: for the CHMU, the
driver's drain time plus chmutop's BPF and process time, from the start
of the run to 2.5 s after its end (the last epoch drained); for DAMON,
its kdamond thread from the start to the end; "CPU % of run" divides
both by the run's timed span.

| monitor | recall@16 | recall@64 | recall@256 | precision@16 | precision@64 | tied@64 | captured@64 | ratio@64 | ratio per epoch | ratio per epoch @25 | CPU ms | CPU % of run |
|---|---|---|---|---|---|---|---|---|---|---|---|---|
MD
	cat "$1"/a*/rows.md
	echo
	echo "The CHMU rows' CPU, split: the driver's drain time and chmutop's BPF"
	echo "programs (the kernel side), and chmutop's process (reading the unit"
	echo "map and writing 512 NDJSON rows every second to a file on the"
	echo "guest's tmpfs):"
	echo
	echo "| tracker | drain ms | BPF ms | chmutop process ms |"
	echo "|---|---|---|---|"
	i=0
	for m in "${acc_models[@]}"; do
		sed 's/[a-z_]*=//g' "$1/a$i/cpu.txt" |
			awk -v t="${m%%|*}" '{ printf "| %s | %.0f | %.0f | %.0f |\n", t, $1 / 1e6, $2 / 1e6, $3 / 1e6 }'
		i=$((i + 1))
	done
	# the issue's goals, from the accuracy rows: every monitor at K = 25
	cat <<'MD'

Goals, on the per-epoch access-count ratio at K = 25 (every monitor
picking as many units as M5's top-K table holds): Count-Min at M5's
sizes within 5% of the exact tracker; every CHMU model at least 1.47x
DAMON's (the better of its two settings; M5 picked pages 47% hotter than
the best CPU-driven method). Against a DAMON that scores below twice what
25 units picked at random would (random25 in results.json), the ratio
would divide by noise: such a row says "not assessable".

| goal | measured | met |
|---|---|---|
MD
	bench/goals.sh "$1"/a*/rows.json
	} >"$1/section.md"
}

# Following a change: the same models, the hot set moved halfway.
sec_shift() {
	each_model "$1/f" shift "following a moved hot set"
	{
	cat <<'MD'

## Following a moved hot set

One boot per tracker model: the accuracy section's Zipf run, whose hot
set moves halfway (a new permutation of the units; the exact counts of
each half are the truth of its hot set); in the exact model's boot the
two DAMON contexts watch it too. Per epoch (placed as in the accuracy
section; offset 0 is the epoch that holds the moment of the shift, 1 the
first full one after): the share of a hot set's K hottest units among
the monitor's K (K = as many as it posted, up to 64: Count-Min posts 25,
Space-Saving 50; DAMON's is 64). "share before": the mean share of the
old hot set over the full epochs before the shift's, the monitor's own
steady state. "epochs back": the first epoch from the shift's whose share
of the new hot set is 90% of that; n/a when the steady share is below
the noise floor (five times the share 64 units picked at random would
hold, 5 x 64 / the units: 0.078 for 4096), where "90% of it" says
nothing. "epochs to
90%": the first whose share of the new hot set is 0.9 itself. "ratio per
epoch": M5's access-count ratio of each full epoch's K against the truth
of its half (the shift's own epoch, which holds both, left out). Over
the run: recall@64 and ratio@64 against the whole run's counts (both hot
sets). chmutop ranks every unit (-r 4096) so that new units are not
hidden behind old sums.

| monitor | share before | epochs back | epochs to 90% | share, first full epoch after | best share after | ratio per epoch, before | ratio per epoch, after | recall@64, run | ratio@64, run | CPU ms |
|---|---|---|---|---|---|---|---|---|---|---|
MD
	cat "$1"/f*/rows.md
	} >"$1/section.md"
}

# Scale: hotlist sizes (one boot each, 4 instances), instances and rate.
# (4096 is the largest power of two an instance's 16-bit length holds:
# QEMU refuses more than 8143 entries at 512 MiB.)
sec_scale() {
	local i=0 hs
	for hs in 64 1024 4096; do
		msg BENCH "scale: hotlist of $hs entries, 1/2/4 instances, thresholds 4/16/64"
		CHMU_PROPS="chmu-instances=4,chmu-hotlist-size=$hs" boot "$1/s$i" "bench/guest-bench.sh scale $hs"
		i=$((i + 1))
	done
	{
	cat <<'MD'

## Scale: drain cost per entry with chmutop attached

One boot per hotlist size, each device with 4 instances (all monitoring
the whole device); in each boot the same stream over 2 MiB in always-on
mode, 4 KiB units, fill threshold a quarter of the list: 1, 2 and 4
instances enabled at threshold 4 (every access counted by each enabled
instance, so entries grow with instances), then 1 instance at thresholds
16 and 64 (fewer entries for the same accesses). chmutop watches all the
enabled instances. ns per entry: the driver's drain_ns / entries summed
over the instances; entries/s: over the load and the drain after it.
The interrupt's cost: the drain runs in steps of at most 1024 entries
(one batch each) in a work item, and the handler only queues it; its
time per interrupt (irq_ns / irqs) is what the interrupt holds a CPU
(and, on a chip that is not one-shot safe, the vector masked) for. The
drain's time per batch beside it is what one step costs; before the
steps, a fill's whole drain ran in the interrupt's thread.

| hotlist size | instances | threshold | entries | entries/s | drain ns/entry | batches | drain us/batch | interrupts | handler ns/interrupt |
|---|---|---|---|---|---|---|---|---|---|
MD
	cat "$1"/s*/scale.md
	} >"$1/section.md"
}

# Promotion: the same workload under each policy in one boot; the
# promoter on a limited tracker in a second (its counters are a device
# property; not in bench-goals: no goal reads it). A larger list, so that
# a 100 ms epoch's hot set fits.
sec_promotion() {
	msg BENCH "promotion: none, CHMU promoter, NUMA balancing, DAMON, all DRAM"
	CHMU_PROPS=chmu-hotlist-size=4096 boot "$1/p0" "bench/guest-bench.sh promote 'exact tracker' dram none chmu numab damon"
	if [ "$mode" = bench ]; then
		msg BENCH "promotion: CHMU promoter on a limited tracker (and all DRAM, its reference)"
		CHMU_PROPS=chmu-hotlist-size=4096,chmu-counters=512 boot "$1/p1" "bench/guest-bench.sh promote 'limited tracker (512 counters)' dram chmu"
	fi
	bench/promote-rows.sh "$1" "$1"/p[0-9] || die "promotion: no rows"
	{
	cat <<MD

## Promotion: CHMU promoter vs NUMA balancing vs DAMON

The CXL memory is system RAM on node $(sed -n 's/^node=//p' "$1/p0/tiers.txt") ($(awk '!/^node=/ { printf "%snode %s in %s", (n++ ? ", " : ""), $2, $1 }' "$1/p0/tiers.txt"):
a lower tier than node 0's). One workload, the same seed in every run:
\`chmu-workload zipf\` over ${BENCH_PROMOTE_SIZE:-64M} in 4 KiB base pages allocated on the CXL
node, 90% of its loads to a hot set of ${BENCH_PROMOTE_HOT:-1024} pages (Zipf exponent 1, scattered
at random), 10% uniform over all; the hot set moves (new pages) halfway
through a ${BENCH_PROMOTE_SECS:-40} s run. Policies, each switched on once the memory is
allocated and off at the end: none; the driver's promoter (epoch mode,
100 ms epochs, threshold 16, 4 KiB units; target the nearest top-tier
node) on the exact tracker, and in a second boot on a tracker of 512
counters; NUMA balancing in tiering mode (\`kernel.numa_balancing=2\`,
defaults); DAMON, physical addresses of the region, default attributes
(5 ms samples, 100 ms aggregation), a \`migrate_hot\` scheme to node 0
for regions accessed in at least ${BENCH_PROMOTE_DAMON_MIN:-2} of 20 samples; and the all-DRAM
reference (the memory on node 0), in each boot: every ratio is against
the all-DRAM run of its own boot. Throughput over 500 ms intervals from
the workload's own counts; its share of loads that went to pages on the
CXL node from a \`move_pages\` query at each interval's end (a page
moved during an interval counts where it ended up: the share errs low).
A time is the end of the first of two intervals in a row that qualify;
"from the move" counts once throughput fell below 90% (or the CXL share
rose above 10%) after the move, and says "no drop" when it never did;
"not reached" when the run never got there. Pages migrated: the
workload's pages on node 0 at the end (nothing demotes); beside it the
mechanism's own count (the promoter's \`promoted\`, \`pgpromote_success\`,
DAMON's \`sz_applied\` in pages). CPU: the promoter's work item and the
driver's drain (ktime around them, an upper bound of their time on a
CPU), kdamond's time on a CPU (\`sched_switch\`), NUMA balancing's scans
and the workload's page faults, every one a hint fault (ktime in kprobes,
an upper bound); the same probes run in every run.

Under TCG a load from CXL memory costs about 70 times one from DRAM
(the memory section; in this workload, whose loop mostly draws random
numbers, the no-promotion run makes about half the all-DRAM rate), and
a hint fault, a TLB shootdown or a page copy from CXL memory (each load
under QEMU's big lock) far more than on hardware: throughput fractions
and CPU times are TCG's. The CXL share and its time to fall to 10% are
the hardware-independent figures.

| policy | steady before move (x DRAM) | steady after (x DRAM) | to 90% of DRAM | from the move | to CXL share 10% | from the move | CXL share before / after | pages migrated | its own count | in hot set | hot sets on DRAM at end (before / after) | CPU ms | CPU % of run |
|---|---|---|---|---|---|---|---|---|---|---|---|---|---|
MD
	cat "$1/promote.md"
	echo
	echo "Throughput over time: [promote.svg](promote.svg)."
	echo
	cat "$1/promote-goals.md"
	} >"$1/section.md"
}

# Tiering under pressure: node 0 holds 1/3 (1:2) or 1/5 (1:4) of a Zipf
# working set, demotion on; one boot per ratio with every policy, and in
# make bench a boot with the promoter on a limited tracker at 1:4. Not in
# bench-goals: its goals are reported in its own table.
sec_tiering() {
	local r
	for r in 2 4; do
		msg BENCH "tiering 1:$r: all DRAM, none, CHMU monitoring, CHMU promoter, NUMA balancing, DAMON tiering"
		GUEST_TIMEOUT=2400 CHMU_PROPS=chmu-hotlist-size=4096 boot "$1/t$r" \
			"bench/guest-bench.sh tier 'exact tracker' $r dram none watch chmu numab damon-tier"
	done
	msg BENCH "tiering 1:4: CHMU promoter on a limited tracker (and all DRAM)"
	GUEST_TIMEOUT=2400 CHMU_PROPS=chmu-hotlist-size=4096,chmu-counters=512 boot "$1/u4" \
		"bench/guest-bench.sh tier 'limited tracker (512 counters)' 4 dram chmu"
	for r in 2 4; do
		msg BENCH "tiering 1:$r, PostgreSQL and pgbench: all DRAM, none, CHMU monitoring, CHMU promoter, NUMA balancing, DAMON tiering"
		GUEST_TIMEOUT=2400 CHMU_PROPS=chmu-hotlist-size=4096 boot "$1/p$r" \
			"bench/guest-bench.sh tier-pg 'exact tracker' $r dram none watch chmu numab damon-tier"
	done
	bench/tier-rows.sh "$1" "$1"/t2 "$1"/t4 "$1"/u4 "$1"/p2 "$1"/p4 || die "tiering: no rows"
	{
	cat <<MD

## Tiering under pressure: which pages deserve DRAM when DRAM is full

Node 0 keeps only a share of the working set: a balloon (\`chmu-workload
balloon --node 0\`: pipe buffers, kernel pages on no LRU list, which
nothing reclaims, demotes or migrates; an mlocked balloon was migrated to
the CXL node by DAMON's \`migrate_cold\`) takes node 0's room (per zone,
free pages above the high watermark and the reserve the zone keeps from
allocations that could use a higher one: the DMA zone's) but for 1/(1 +
R) of the working set (fast:slow ratios 1:2 and 1:4, R = 2, 4) and 16 MiB
for the processes a run starts. Each run starts its workload (whose own
stack, heap and libraries' data land on node 0, as for a process started
before the node filled up: under TCG a hot stack page on the CXL node
slowed a run 50-fold), takes back with a second balloon what its
processes left of their 16 MiB, and fills all but 1 MiB of the room with
cold memory (\`chmu-workload touch --node 0 --movable\`, never read
again, its accessed bits cleared through \`/proc/PID/clear_refs\` so that
reclaim's first pass does not find it referenced; up to four fillers, until at most 2 MiB is left: an allocation
takes a zone down to its low watermark, not to the high one the room is
counted from, and one filler left the DMA zone's 7 MiB of room free, for
promotions to take without a demotion; so the fillers, \`filler_kb\`,
take more than the share, and kswapd demotes the difference before a
zone is balanced again): the fast share, \`share_kb\` in each run's costs, is 1/(1 + R) of
the working set within 1 MiB under and 2 MiB over it (less only where the processes took
more), for every policy alike;
demotion is on (\`/sys/kernel/mm/numa/demotion_enabled\`), so every
promotion needs a demotion. The workload: \`chmu-workload
zipf\` over ${BENCH_TIER_SIZE:-48M} of 4 KiB base pages allocated on the CXL node, every load
from a Zipf (exponent ${BENCH_TIER_ZIPF:-0.99}) over all its pages scattered at random, for
${BENCH_TIER_SECS:-60} s; the best placement keeps the hottest share on node 0. Policies,
switched on once the memory is allocated: none; CHMU monitoring alone
(the promoter's instance configuration below, its hotlist drained,
nothing promoted: what watching costs the workload, under TCG the
device model's counting of every CXL access, its epoch ends, interrupts
and the drains); the driver's promoter
(epoch mode, 100 ms epochs, threshold 16, 4 KiB units, a latency target
of one epoch: promote/max_latency_ms 100, older reports expire), gated
by node 0's watermark, the rate limit and ping-pong (its own back-off); NUMA
balancing in tiering mode (\`kernel.numa_balancing=2\`, defaults); DAMON
tiering as its author's recipe for Linux 6.16 (the damo command behind
samples/damon/mtier.c) with what 6.12 offers: a kdamond over the CXL
region with \`migrate_hot\` to node 0 for an access rate of 5% or more,
and one over node 0 with \`migrate_cold\` to the CXL node for 0%, each
applied every second, quotas of ${BENCH_TIER_DAMON_MBPS:-4} MiB/s (DAMON 6.12 charges a region's
bytes tried, before its page filters), coldest or hottest first by
access rate and age, with young-page filters
(promote only pages found accessed, demote none), the demotion side
limited to the experiment's memory cgroup (the recipe's per-cgroup
form; see below);
6.12 has neither the
recipe's quota goals on node 0's use (6.16) nor its auto-tuned intervals
(6.15: default 5 ms / 100 ms instead). The recipe's quota is 200 MiB/s,
a few percent of what hardware migrates in a second; under TCG this
guest migrates about 2.4 MiB/s, and at 200 one application of the
demotion scheme took all of node 0's cold memory at once and held its
kdamond for minutes: the quota here is scaled to the guest. And all DRAM (no balloon, the
memory on node 0: the reference of its boot).

The real application: PostgreSQL ($(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 | cut -d/ -f4), Debian's server) in the guest,
its data on tmpfs, \`shared_buffers\` ${BENCH_TIER_PG_SB:-64MB}, a pgbench database of scale
${BENCH_TIER_PG_SCALE:-3} (${BENCH_TIER_PG_SCALE:-3}00,000 accounts) read into it by \`pg_prewarm\`; the working set is
the server's shared memory (the buffers, their descriptors, the lock
tables: its resident pages), moved to the CXL node before each run by
\`chmu-workload move\` (move_pages(2) on the server's processes, no memory
policy: every mechanism may move it back), back from wherever the last
run's policy left it. The client: pgbench, ${BENCH_TIER_PG_CLIENTS:-2} clients, connected (their
backends' memory placed) before the filler, measured over the ${BENCH_TIER_SECS:-60} s from
the policy's start; each transaction one
\`SELECT\` of an account drawn by \`permute(random_zipfian(1, N,
${BENCH_TIER_PG_ZIPF:-1.01}), N)\` (Zipf keys scattered over the table); throughput is its
transactions per second, and its per-transaction log gives the clients'
p99 latency. Node 0 keeps 1/(1 + R) of the working set free, as above.

Code stays out of the experiment: before the balloon, each boot locks its
programs' code on node 0 (\`chmu-workload pin\` on chmu-workload, or on
postgres, pgbench and psql, and the libraries they link). Under TCG an
instruction fetched from the CXL node goes through the device model,
about a thousand times slower than from DRAM where hardware is a few
times slower, so one hot code page demoted there (kswapd demotes file
pages too) decided a whole run: a no-promotion run went at 0.0004x DRAM
before the pin. mlock does not stop migration, though: DAMON's
\`migrate_cold\` can still move a rarely run code page, and each run's
\`pinned_off_node0\` counts the pinned pages not on node 0 at its end.

So do the processes' own memory (stacks, heaps, their libraries' data,
the server's backends'): two memory cgroups split the experiment's
memory from the rest. \`/chmu-bench\` holds the working set and the
filler (\`chmu-workload --cgroup\` charges the area there and nothing
else of the process; PostgreSQL's shared buffers, as the backend that
reads the table into them with \`pg_prewarm\` is there while it does;
the server is restarted after pgbench's load for this, and the parts of
its shared memory the postmaster initialises stay with the processes);
it is all DAMON's demotion side may take and all kswapd may demote. \`/chmu-bench-procs\`, with
\`memory.min\` at max, holds every process of the run and the pinned code,
out of reclaim's reach. Without the split, NUMA balancing's and DAMON's
runs had a workload's heap, stack and library data on the CXL node (up
to 128 pages, and 287 of a pgbench backend) and ran at 0.02-0.2x DRAM:
reclaim and DAMON judge coldness by the accessed bits, which under TCG
stay clear on pages a process keeps hitting (below). Every policy's run
has the same split.

Columns: throughput over the whole run and over its second half (steady)
against the all-DRAM run's median; the share of the second half's loads
that went to the CXL node; the working set's pages on node 0 halfway
(its largest mapping in the workload's \`numa_maps\`) and, for the Zipf
workload, the best CXL share that many pages allow (the hottest of them
on node 0): a policy whose demotions went past the fillers' excess holds
more of node 0 than the nominal share, and its CXL share is to be read
against its own best; pages promoted (\`pgpromote_success\` over the
run's window, DAMON's \`sz_applied\` from its start to the stats command;
"-" if that command did not return) and demoted
(\`pgdemote_kswapd\` + \`pgdemote_direct\`, plus DAMON's cold scheme);
ping-pong (\`pgpromote_pingpong\`: pages promoted, by whichever mechanism,
that were migrated back down within 10 s) and its share of the promoted;
CPU of the mechanism (the promoter's work item and drain, wall time
around them, for monitoring alone the drains'; kdamonds' utime + stime; NUMA balancing's is not measured,
"-": no run carries bpftrace probes, which cannot start under the balloon
and would slow the all-DRAM reference alone); kswapd's CPU over the run
(kswapd0's utime + stime read before and after it: the demotions that
make room on node 0, for whichever policy asked); the promoter's p99
batch latency from the drain that queued a record to its migration
(\`chmu:chmu_promote\` \`latency_ns\`: batches migrated, not the records
that expired, whose share of the queued pages follows it); pgbench's
p99 transaction latency.
The CXL share is not known for pgbench (-). "Own on CXL": the workload's
own heap and stack pages (a pgbench backend's) off node 0 halfway
through, and the pinned code's pages off node 0 at the end; a run with
any is confounded, and a goal that compares it reads "unreliable": under
TCG such a page costs about 70 times a DRAM access (code about 1000),
where hardware pays a few times. A goal on throughput holds over the
whole run and over its second half; it also reads "unreliable" when the
boot's all-DRAM run varied by more than 10% (its second half against its
median), as much as a goal's margin. Policies that judge coldness by the
page tables' accessed bits (reclaim's LRU aging, which NUMA balancing's
tiering mode drives harder to keep the promotion watermark, and DAMON)
see a page that stays in QEMU's software TLB as idle, as QEMU sets the
bit only on a TLB fill (bench/young.sh measures it: pages a loop keeps
reading stayed idle half a second after their bits were cleared, 64 of
64 in one round of five, 103 of 1024 in another; a 48 MiB Zipf working
set's were all set again within 0.5 s in four rounds of five, all but
288 pages in the fifth): they can demote the workload's hottest pages. Under TCG a CXL load costs about 70
DRAM loads: the ratios overstate what hardware gains, the shares do not.

Every run also leaves a time series beside its workload's progress lines
(\`POLICY.samples\` in the boot's results: about every 500 ms, node 0's
free memory and (every 2 s) room, kswapd's pages scanned, stolen and
demoted and its CPU, pages promoted, NUMA hint faults, the CPUs' busy and
idle ticks, the promoter's pages tried, promoted and refused for the
watermark, its worker's time, and the sampler's own CPU), written by one
process started before the balloon with bash builtins alone, each /proc
file read in one pass, into the guest's /run until the run ends. It shows what a
full node 0 costs a policy that promotes under TCG: the fillers leave
node 0's main zone between its low and high watermarks, so the first
promotions are refused until kswapd has demoted it back above the high
one, and kswapd keeps going to the promotion watermark above it (a
zone's watermark gap, about 11 MiB here): a few thousand pages, every
one of them written into the emulated CXL memory beside the workload's
own accesses to it. A run is ${BENCH_TIER_SECS:-60} s so that its second half, the steady
figures, starts after that.

| workload | ratio | tracker | policy | x DRAM (run) | x DRAM (steady) | CXL share (steady) | on node 0 | promoted | demoted | ping-pong | CPU ms | kswapd ms | p99 latency | client p99 | own on CXL |
|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|
MD
	cat "$1/tier.md"
	echo
	echo "Throughput over time: [1:2](tier-2.svg), [1:4](tier-4.svg); pgbench:"
	echo "[1:2](tier-pgbench-2.svg), [1:4](tier-pgbench-4.svg)."
	} >"$1/section.md"
}

# Paired tiering blocks (docs/tiering.md): BENCH_TIER_BOOTS (2) boots of
# BENCH_TIER_BLOCKS (4) blocks each, every block running each arm of
# BENCH_TIER_ARMS once in its Williams order, on its own seed, bounded by
# BENCH_TIER_ACCESSES accesses; the first arm is the one the contrasts
# judge. The blocks in all must complete the Williams design (a multiple
# of the arms, twice the arms when odd), or the order is not balanced.
# make bench-tiering.
sec_tierblocks() {
	local r=${BENCH_TIER_RATIO:-4} arms=${BENCH_TIER_ARMS:-chmu,none,numab,damon-tier}
	local w=${BENCH_TIER_WORKLOAD:-zipf} nb=${BENCH_TIER_BLOCKS:-4} boots=${BENCH_TIER_BOOTS:-2} k
	local dirs=() na period
	[ "$w" = zipf ] ||
		die "tierblocks: BENCH_TIER_WORKLOAD=$w: only zipf runs in paired blocks so far (docs/tiering.md)"
	na=$(tr ',' '\n' <<<"$arms" | grep -c .)
	period=$((na % 2 ? 2 * na : na))
	[ $((nb * boots % period)) = 0 ] ||
		die "tierblocks: $boots boots of $nb blocks do not complete the Williams design of $na arms (a multiple of $period blocks)"
	for ((k = 0; k < boots; k++)); do
		msg BENCH "tiering blocks $((k * nb))-$((k * nb + nb - 1)) at 1:$r, arms ${arms//,/ } (all DRAM first and last)"
		GUEST_TIMEOUT=3600 CHMU_PROPS=chmu-hotlist-size=4096 boot "$1/k$k" \
			"bench/guest-bench.sh tier-blocks 'exact tracker' $r $((k * nb)) $nb ${arms//,/ }"
		dirs+=("$1/k$k")
	done
	bench/block-rows.sh "$1" "${dirs[@]}" || die "tierblocks: no rows"
	{
	cat <<MD

## Tiering verdicts: paired blocks

The design of [tiering.md](tiering.md): $boots boots of $nb blocks at
fast:slow 1:$r (the balloon and fillers of the tiering section below);
every block runs each arm once (${arms//,/, }) in the order of a
Williams design, on the block's seed, ${BENCH_TIER_ACCESSES:-8M}
accesses a run (the Zipf workload of ${BENCH_TIER_SIZE:-48M}); the
placement regret over the window from ${BENCH_TIER_WINDOW:-50}% of the
accesses, the capacity held over the nominal share, and the measured
and modelled throughput; an all-DRAM run first and last in each boot is
the drift check. The contrasts are the first arm's against each other
one but no promotion: the median of the paired differences, their
[min, max], and in how many blocks the first arm was lower, higher or
equal; the verdict is the decision rule of tiering.md on regret.

MD
	cat "$1/blocks.md"
	} >"$1/section.md"
}

# write: the results (or bench-goals') document and page, from the store
write() {
	bench/results-json.sh "$store" "$([ "$mode" = goals ] && echo bench-goals || echo bench)" >"$out/$report.json.new"
	jq . "$out/$report.json.new" >/dev/null || die "$out/$report.json.new is not valid JSON"
	mv "$out/$report.json.new" "$out/$report.json"
	bench/results-md.sh "$out/$report.json" "$store" >"$out/$report.md"
	[ ! -e "$store/promotion/promote.svg" ] || cp "$store/promotion/promote.svg" "$out/promote.svg"
	for f in "$store"/tiering/tier-*.svg; do [ ! -e "$f" ] || cp "$f" "$out/"; done
}

# The host's load, sampled every BENCH_HOST_SECS (5) seconds from before
# the first boot to the end (bench/hostload.sh).
# A run is known by its id (in its stamps): with BENCH_RESUME=1 the
# interrupted run's, whose complete sections are kept and whose host
# samples go on.
host=$store/.run/host.txt
if [ "${BENCH_RESUME:-0}" = 1 ] && [ -s "$store/.run/run-id" ]; then
	run_id=$(cat "$store/.run/run-id")
else
	run_id=$(date -u +%Y%m%dT%H%M%SZ)-$$
	echo "$run_id" >"$store/.run/run-id"
	: >"$host"
fi
n0=$(wc -l <"$host")
bench/hostload.sh watch $$ "$host" "${BENCH_HOST_SECS:-5}" >/dev/null 2>&1 &
watcher=$!
trap 'kill $watcher 2>/dev/null || true' EXIT
for _ in $(seq $((${BENCH_HOST_SECS:-5} * 10 + 20))); do [ "$(wc -l <"$host")" -gt "$n0" ] && break; sleep 0.1; done
read -r _ _ _ _ _ others steal load1 who who_cpus < <(tail -n 1 "$host") || die "bench/hostload.sh sampled nothing"
if [ "$(tail -n 1 "$host" | bench/hostload.sh summary | jq .busy)" = true ]; then
	msg BENCH "host busy before the boots: other processes use $others CPUs ($who $who_cpus), steal $steal, load $load1; the goals will be marked unreliable"
else
	msg BENCH "host quiet before the boots: other processes use $others CPUs, steal $steal, load $load1"
fi

t00=$SECONDS
for s in $sections; do
	if [ "${BENCH_RESUME:-0}" = 1 ] && [ -e "$store/$s/stamp.json" ] &&
		[ "$(jq -r '.run_id // empty' "$store/$s/stamp.json")" = "$run_id" ]; then
		msg BENCH "$s: kept from the interrupted run"
		continue
	fi
	# when and on what it started (a resumed section: its first start)
	dir=$store/.run/$s
	if [ "${BENCH_RESUME:-0}" = 1 ] && [ -s "$dir/start" ]; then
		read -r t0 started commit dirty <"$dir/start"
	else
		rm -rf "$dir"
		mkdir -p "$dir"
		t0=$(date +%s) started=$(date -u +%Y-%m-%dT%H:%M:%SZ)
		commit=$(git rev-parse HEAD 2>/dev/null || echo unknown)
		dirty=null
		[ "$commit" = unknown ] || dirty=$([ -n "$(git status --porcelain 2>/dev/null)" ] && echo true || echo false)
		echo "$t0 $started $commit $dirty" >"$dir/start"
	fi
	rm -f "$dir/host.state"
	bench/hostload.sh sample $$ "$dir/host.state" >/dev/null
	"sec_$s" "$dir"
	sed -i '1{/^$/d}' "$dir/section.md"
	bench/results-json.sh section "$s" "$dir" >"$dir/section.json"
	if [ "$(bench_section_field "$s" 4)" = goals ]; then
		bench/goal-rows.sh "$s" "$dir" >"$dir/goals.json" || die "$s: no goal rows"
	fi
	# the host over the section: the samples that overlap it, or when
	# there is none yet (a section shorter than a sample) the section's
	# own from start to end
	t1=$(date +%s)
	span=$(bench/hostload.sh sample $$ "$dir/host.state")
	rm -f "$dir/host.state" "$dir/start"
	# a section whose pieces are not JSON replaces nothing
	jq -e . "$dir/section.json" >/dev/null 2>&1 || die "$s: its results are not valid JSON ($dir/section.json)"
	[ ! -e "$dir/goals.json" ] || jq -se . "$dir/goals.json" >/dev/null 2>&1 ||
		die "$s: its goal rows are not valid JSON ($dir/goals.json)"
	awk -v a="$t0" -v b="$t1" '$1 > a && $1 - $2 < b' "$host" >"$dir/host.txt"
	[ -s "$dir/host.txt" ] || echo "$span" >"$dir/host.txt"
	hj=$(bench/hostload.sh summary "$dir/host.txt")
	jq -n --arg s "$s" --arg key "$(bench_section_field "$s" 2)" --arg mode "$mode" \
		--arg started "$started" --arg at "$(date -u -d "@$t1" +%Y-%m-%dT%H:%M:%SZ)" \
		--argjson seconds $((t1 - t0)) --arg commit "$commit" --argjson dirty "$dirty" \
		--argjson settings "$settings" --argjson host "$hj" --arg run "$run_id" \
		'{section: $s, key: $key, mode: $mode, run_id: $run, started_at: $started, measured_at: $at,
		  seconds: $seconds, commit: $commit, dirty: $dirty, settings: $settings, host: $host}' >"$dir/stamp.json"
	rm -rf "$store/$s.old"
	[ ! -e "$store/$s" ] || mv "$store/$s" "$store/$s.old"
	mv "$dir" "$store/$s"
	rm -rf "$store/$s.old"
	write
	if [ "$(jq .busy <<<"$hj")" = true ]; then
		msg BENCH "  $s: $((t1 - t0)) s; host busy: other processes up to $(jq -r '"\(.others_cpus_max) CPUs (\(.heaviest))"' <<<"$hj")"
	else
		msg BENCH "  $s: $((t1 - t0)) s; host quiet"
	fi
done
# complete: nothing is left for BENCH_RESUME=1 to keep
rm -f "$store/.run/run-id"
msg BENCH "done in $(((SECONDS - t00) / 60))m$(printf %02d $(((SECONDS - t00) % 60)))s: $out/$report.md, $out/$report.json"
if [ "$mode" = goals ]; then
	bench/results-md.sh --goals "$out/$report.json"
else
	cat "$out/$report.md"
fi
