# make bench's guard against a busy host, on made-up samples: what
# bench/hostload.sh counts as other processes' CPU (a made-up /proc: our
# run's tree, a child it reaped, a make reaping compilers), which samples
# are busy at the bounds, and how bench/results-json.sh marks the goals of
# a section measured on a busy host (met and not met become unreliable,
# "not assessable" stays) while a quiet section's stay; results.md says
# so. bench/goal-rows.sh reads the accuracy and promotion goal tables.
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
# 1000 ticks later: 600 busy. Ours seem to go down (540 -> 470: a child
# read in both the stat of its own and of its parent the sample before),
# so the others are what their own stats grew by: the make 100 and a new
# process named a"b\c 150, 0.50 CPUs of 1.20 busy; the name is made safe
# for the sample line and JSON.
printf 'cpu  2150 0 800 8450 10 20 30 150 0 0\ncpu0 1 0 0 0 0 0 0 0 0 0\ncpu1 1 0 0 0 0 0 0 0 0 0\n' >"$P/stat"
echo "0.90 0.80 0.30 3/101 302" >"$P/loadavg"
proc 100 run.sh 1 10 10 0 0
proc 200 make 1 1 1 1400 0
proc 400 'a"b\c' 1 150 0 0 0
out=$(HOSTLOAD_PROC=$P bench/hostload.sh sample 100 "$T/state")
expect_eq "$(cut -d' ' -f3- <<<"$out")" "2 1.20 0.70 0.50 0.000 0.90 a_b_c 0.30" \
	"ours going down: the others from their own stats"
jq -e . >/dev/null <<<"$(bench/hostload.sh summary <<<"$out")" || fail "the summary of that sample is not JSON"

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

# Goal rows from the sections' own goal tables.
mkdir -p "$T/acc/a0" "$T/prom"
for m in "CHMU, exact (chmutop)|1" "DAMON paddr, default attributes|0.3" \
	"CHMU, Count-Min 4 x 32768 x 14 bit, top-25 (M5) (chmutop)|0.9"; do
	printf '{"monitor":"%s","ratio25_epoch_mean":%s,"random25":0.014}\n' "${m%|*}" "${m#*|}"
done >"$T/acc/a0/rows.json"
expect_eq "$(bench/goal-rows.sh accuracy "$T/acc" | jq -r '"\(.verdict)|\(.note)|\(.goal)|\(.measured)"')" \
	"not met|null|Count-Min (M5) / exact >= 0.95|0.9 / 1 = 0.9
met|null|exact / DAMON >= 1.47|1 / 0.3 = 3.33x
met|null|Count-Min 4 x 32768 x 14 bit, top-25 (M5) / DAMON >= 1.47|0.9 / 0.3 = 3x" "accuracy goals: yes and no as met and not met"
cat >"$T/prom/promote-goals.md" <<'EOF'

| goal | measured | met |
|---|---|---|
| promoter fast | 8.0 s vs 13.5 s, 11.5 s | not met (never reached) |
| in the hot set | 1.000 | met |
| CPU | n/a | n/a (a run is missing) |
EOF
expect_eq "$(bench/goal-rows.sh promotion "$T/prom" | jq -r '"\(.verdict)|\(.note)|\(.goal)|\(.measured)"')" \
	"not met|never reached|promoter fast|8.0 s vs 13.5 s, 11.5 s
met|null|in the hot set|1.000
n/a|a run is missing|CPU|n/a" "promotion goals, their notes apart"

# A store of two sections: accuracy measured on a busy host, promotion
# on a quiet one (both on HEAD of a repository of this test's own).
export GIT_DIR=$T/repo/.git GIT_WORK_TREE=$T/repo
git init -q "$T/repo"
git -c user.name=t -c user.email=t@t commit -q --allow-empty -m one
head=$(git rev-parse HEAD)
S=$T/store
mkdir -p "$S/accuracy" "$S/promotion"
busy_host=$(bench/hostload.sh summary "$T/quiet" "$T/busy")
quiet_host=$(bench/hostload.sh summary "$T/quiet")
for s in accuracy promotion; do
	h=$quiet_host
	[ $s = promotion ] || h=$busy_host
	jq -n --arg s $s --arg c "$head" --argjson h "$h" \
		'{section: $s, key: $s, mode: "bench", started_at: "2026-12-06T01:00:00Z", measured_at: "2026-12-06T01:10:00Z",
		  seconds: 600, commit: $c, dirty: false, settings: {}, host: $h}' >"$S/$s/stamp.json"
	echo "[]" >"$S/$s/section.json"
	printf '## %s\n\ntext\n' "$s" >"$S/$s/section.md"
done
{
	bench/goal-rows.sh accuracy "$T/acc"
	echo '{"goal":"limited / DAMON >= 1.47","measured":"0.1 against DAMON'\''s 0.008","verdict":"not assessable","note":null}'
} >"$S/accuracy/goals.json"
bench/goal-rows.sh promotion "$T/prom" >"$S/promotion/goals.json"
bench/results-json.sh "$S" >"$T/r.json" || fail "results-json.sh failed"
expect_eq "$(jq -r '.goals[] | "\(.section)|\(.verdict)|\(.unreliable)"' "$T/r.json")" \
	"accuracy|unreliable|host busy: other processes used up to 0.5 CPUs (qemu-system-x86), steal up to 9.9%
accuracy|unreliable|host busy: other processes used up to 0.5 CPUs (qemu-system-x86), steal up to 9.9%
accuracy|unreliable|host busy: other processes used up to 0.5 CPUs (qemu-system-x86), steal up to 9.9%
accuracy|not assessable|null
promotion|not met|null
promotion|met|null
promotion|n/a|null" "a busy section's goals unreliable, a quiet one's as measured"
expect_eq "$(jq -r '[.goals[] | .measured_verdict] | join(",")' "$T/r.json")" \
	"$(jq -r .verdict "$S/accuracy/goals.json" "$S/promotion/goals.json" | paste -sd,)" \
	"each goal keeps the verdict its figure gives, unreliable or not"
expect_eq "$(jq -c '[.sections.accuracy.host.busy, .sections.promotion.host.busy, .sections.memory]' "$T/r.json")" \
	'[true,false,null]' "the sections' host records"
bench/results-md.sh "$T/r.json" "$S" >"$T/r.md" || fail "results-md.sh failed"
expect_eq "$(grep '^| accuracy | 20' "$T/r.md")" \
	"| accuracy | 2026-12-06 01:10 UTC | $(cut -c1-12 <<<"$head") | 10m00s | busy: others up to 0.5 CPUs (qemu-system-x86) | current |" \
	"results.md: a busy section in the sections table"
expect_eq "$(grep '^_Section `accuracy`' "$T/r.md")" \
	"_Section \`accuracy\`: measured 2026-12-06 01:10 UTC on commit $(cut -c1-12 <<<"$head"), in 10m00s; host **busy** (other processes up to 0.5 CPUs, qemu-system-x86; steal up to 9.9%): its figures may be off, its goals are marked unreliable._" \
	"results.md: the busy section's stamp"
expect_eq "$(grep -c '| unreliable (host busy) |' "$T/r.md")" 3 "results.md: three goals unreliable, the host's figures in the stamp line"
expect_eq "$(tail -n 1 "$T/r.md")" "| CPU | n/a | n/a (a run is missing) | promotion, 2026-12-06 01:10 UTC |" "results.md: the goals table last"
echo ok
