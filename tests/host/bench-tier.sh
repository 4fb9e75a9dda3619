# bench/tier-rows.sh computes the tiering section's figures exactly from
# runs whose numbers are known: 500 ms progress intervals over 4 s; each
# boot's all-DRAM run makes 2000 loads/s. Steady is the second half
# (intervals ending after 2 s), ratios against the all-DRAM median; the
# counters are /proc/vmstat's growth over the run, the promoter's own and
# DAMON's, kswapd's CPU read around the run (or from the sampler's first
# and last lines), the working set's pages on node 0 halfway; the goals table compares the exact tracker's figures over the
# run and in the second half, per workload (a pgbench boot: its
# transactions in the same form, its clients' p99 latency, its own plot),
# and calls a goal unreliable when a run it compares is confounded or the
# boot's all-DRAM run varied by more than 10%.
. tests/lib.sh
command -v jq >/dev/null || fail "jq missing (lab/deps.sh installs it)"
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
mkdir -p "$d/t2" "$d/t4" "$d/p2" "$d/p4" "$d/out"

run() { # run FILE "ACCESSES ON_NODE" x 8
	local f=$1 ms=0 acc=0 a on
	shift
	for x in "$@"; do
		read -r a on <<<"$x"
		ms=$((ms + 500)) acc=$((acc + a))
		echo "progress ms=$ms accesses=$acc on_node=$on"
	done >"$f"
}
vms() { # vms BOOT POLICY PROMOTED DEMOTED PINGPONG: the vmstat files
	printf 'pgpromote_success 100\npgdemote_kswapd 10\npgdemote_direct 0\npgpromote_pingpong 7\nthp_split_page 0\n' >"$1/$2.vm0"
	printf 'pgpromote_success %d\npgdemote_kswapd %d\npgdemote_direct 1\npgpromote_pingpong %d\nthp_split_page 0\n' \
		$((100 + $3)) $((10 + $4 - 1)) $((7 + $5)) >"$1/$2.vm1"
}
cost() { # cost BOOT POLICY KEY=VALUE...
	local f=$1/$2.cost
	shift 2
	printf 'probe_scan_ns=1000000\nprobe_fault_ns=2000000\nprobe_oncpu_ns=0\n' >"$f"
	[ $# -eq 0 ] || printf '%s\n' "$@" >>"$f"
}
for r in 2 4; do
	b=$d/t$r
	echo "exact tracker" >"$b/label"
	printf '%s\n' "ratio=$r" size=1048576 units=256 "fast_kb=$((1024 / (1 + r)))" zipf=0.99 secs=4 >"$b/setup.txt"
	run "$b/dram.txt" "1000 1000" "1000 1000" "1000 1000" "1000 1000" "1000 1000" "1000 1000" "1000 1000" "1000 1000"
	run "$b/none.txt" "500 500" "500 500" "500 500" "500 500" "500 400" "500 400" "500 400" "500 400"
	vms "$b" dram 0 0 0
	vms "$b" none 0 20 0
	cost "$b" dram
	cost "$b" none
done
# 1:4: the promoter 0.6 in the second half, NUMA balancing 0.5, DAMON 0.55
run "$d/t4/chmu.txt" "500 500" "500 400" "500 300" "500 200" "600 100" "600 100" "600 100" "600 100"
run "$d/t4/numab.txt" "400 400" "400 400" "400 300" "400 300" "500 200" "500 200" "500 200" "500 200"
run "$d/t4/damon-tier.txt" "450 450" "450 450" "450 300" "450 300" "550 200" "550 200" "550 200" "550 200"
vms "$d/t4" chmu 999 50 4
vms "$d/t4" numab 300 280 0
vms "$d/t4" damon-tier 0 5 0
cost "$d/t4" chmu promote_promoted=200 promote_worker_ns=3000000 drain_ns=4000000 \
	promote_latency_p99_ns=150000000 promote_throttles=1 promote_queued_pages=400 promote_expired_pages=100
cost "$d/t4" numab
# kswapd0's CPU: the promoter's run read it before and after (100 and
# 350 ticks: 2.5 s), its samples saw less (100 to 180: not used); NUMA
# balancing's run is one without those lines, its samples from 7 to 57
# ticks (0.5 s); DAMON's has one sample line only (unknown)
echo "kswapd_ticks 100" >>"$d/t4/chmu.vm0"
echo "kswapd_ticks 350" >>"$d/t4/chmu.vm1"
hdr="ms free_kb room_kb pgscan_kswapd pgsteal_kswapd pgdemote_kswapd pgpromote_success numa_hint_faults kswapd_ticks busy_ticks idle_ticks promote_tried promote_promoted promote_watermark promote_worker_ms sampler_ticks"
printf '%s\n' "$hdr" "500 100 0 0 0 0 0 0 100 5 5 0 0 0 0 1" "1000 100 0 0 0 0 0 0 180 9 5 0 0 0 0 2" >"$d/t4/chmu.samples"
printf '%s\n' "$hdr" "500 100 0 0 0 0 0 0 7 5 5 0 0 0 0 1" "1000 100 0 0 0 0 0 0 40 5 5 0 0 0 0 2" \
	"1500 100 0 0 0 0 0 0 57 5 5 0 0 0 0 3" >"$d/t4/numab.samples"
printf '%s\n' "$hdr" "500 100 0 0 0 0 0 0 7 5 5 0 0 0 0 1" >"$d/t4/damon-tier.samples"
cost "$d/t4" damon-tier damon_sz_applied=409600 damon_cold_sz_applied=819200 pinned_off_node0=3
# halfway placements: NUMA balancing's workload all on node 0; DAMON's
# with 5 heap and 2 stack pages on the CXL node (and 3 pinned code pages
# off node 0 above): confounded
printf '%s\n' "5561 default heap anon=49 dirty=49 N0=49 kernelpagesize_kB=4" \
	"7ffc default stack anon=4 dirty=4 N0=4 kernelpagesize_kB=4" \
	"7f00 default anon=4096 dirty=4096 N1=4096 kernelpagesize_kB=4" >"$d/t4/numab.numa_maps"
printf '%s\n' "5561 default heap anon=49 dirty=49 N0=44 N1=5 kernelpagesize_kB=4" \
	"7ffc default stack anon=4 dirty=4 N0=2 N1=2 kernelpagesize_kB=4" \
	"7f00 default anon=4096 dirty=4096 N0=96 N1=4000 kernelpagesize_kB=4" >"$d/t4/damon-tier.numa_maps"
# 1:2: monitoring alone at 0.45 throughout, its drains its CPU
run "$d/t2/watch.txt" "450 450" "450 450" "450 450" "450 450" "450 450" "450 450" "450 450" "450 450"
vms "$d/t2" watch 0 0 0
cost "$d/t2" watch drain_ns=7000000 entries=900 batches=40
# 1:2: the promoter as good as none in the second half, below it over
# the run (0.45 against 0.5): not met
run "$d/t2/chmu.txt" "300 300" "300 300" "500 500" "500 500" "500 400" "500 400" "500 400" "500 400"
vms "$d/t2" chmu 0 0 0
cost "$d/t2" chmu promote_promoted=0 promote_worker_ns=0 drain_ns=0 promote_latency_p99_ns=0 promote_throttles=0

pgboot() { # pgboot BOOT RATIO FAST_KB: a pgbench boot's label and setup
	echo "exact tracker" >"$1/label"
	printf '%s\n' workload=pgbench "ratio=$2" size=1048576 units=256 "fast_kb=$3" zipf=1.01 secs=4 >"$1/setup.txt"
}

# pgbench at 1:4: the promoter 0.8 steady, none 0.75
b=$d/p4
pgboot "$b" 4 204
run "$b/dram.txt" "1000 -1" "1000 -1" "1000 -1" "1000 -1" "1000 -1" "1000 -1" "1000 -1" "1000 -1"
run "$b/none.txt" "700 -1" "700 -1" "700 -1" "700 -1" "750 -1" "750 -1" "750 -1" "750 -1"
run "$b/chmu.txt" "700 -1" "700 -1" "700 -1" "700 -1" "800 -1" "800 -1" "800 -1" "800 -1"
run "$b/numab.txt" "700 -1" "700 -1" "700 -1" "700 -1" "700 -1" "700 -1" "700 -1" "700 -1"
run "$b/damon-tier.txt" "700 -1" "700 -1" "700 -1" "0 -1" "0 -1" "700 -1" "700 -1" "700 -1"
for p in dram none chmu numab damon-tier; do vms "$b" $p 0 0 0; done
printf 'probe_scan_ns=0\nprobe_fault_ns=0\nprobe_oncpu_ns=0\nclient_latency_p99_us=2000\n' >"$b/numab.cost"
printf 'probe_scan_ns=0\nprobe_fault_ns=0\nprobe_oncpu_ns=0\nkdamond_ticks=5\ndamon_timeout=update_schemes_stats\nclient_latency_p99_us=3000\n' \
	>"$b/damon-tier.cost"
cost "$b" dram client_latency_p99_us=900
cost "$b" none client_latency_p99_us=2500
cost "$b" chmu promote_promoted=60 promote_worker_ns=1000000 drain_ns=1000000 \
	promote_latency_p99_ns=90000000 promote_throttles=0 client_latency_p99_us=1800

# pgbench at 1:2: the promoter above none, but the all-DRAM run's second
# half at 850 on average against its median 1000 (0.85x): unreliable
b=$d/p2
pgboot "$b" 2 341
run "$b/dram.txt" "1000 -1" "1000 -1" "1000 -1" "1000 -1" "1000 -1" "1000 -1" "700 -1" "700 -1"
run "$b/none.txt" "500 -1" "500 -1" "500 -1" "500 -1" "500 -1" "500 -1" "500 -1" "500 -1"
run "$b/chmu.txt" "600 -1" "600 -1" "600 -1" "600 -1" "700 -1" "700 -1" "700 -1" "700 -1"
for p in dram none chmu; do vms "$b" $p 0 0 0; done
cost "$b" dram
cost "$b" none
cost "$b" chmu promote_promoted=10 promote_worker_ns=1000000 drain_ns=1000000 \
	promote_latency_p99_ns=90000000 promote_throttles=0

bench/tier-rows.sh "$d/out" "$d/t2" "$d/t4" "$d/p2" "$d/p4" || fail "tier-rows.sh failed"
J=$d/out/tier.json
q() { jq -c "$1" "$J"; }
expect_eq "$(q 'length')" 17 "one object per run"
expect_eq "$(q '[.[] | select(.policy == "watch") | [.ratio, .x_dram_run, .cxl_share_steady, .promoted, .cpu_ms, .latency_p99_ms]]')" \
	'[[2,0.45,1,0,10,null]]' "monitoring alone: its throughput, CXL share, the drains' CPU (and the probes'), no promotion"
grep -Fq '| zipf | 1:2 | exact tracker | CHMU monitoring, no promotion | 0.450 | 0.450 | 1.000 | - | 0 | 0 | 0 (0.0%) | 10 | - |' "$d/out/tier.md" ||
	{ cat "$d/out/tier.md"; fail "tier.md: the monitoring row"; }
expect_eq "$(q '[.[] | select(.workload == "pgbench" and .policy == "numab") | .cpu_ms]')" '[null]' \
	"NUMA balancing's CPU under the balloon: not measured, not 0"
expect_eq "$(q '[.[] | select(.workload == "pgbench" and .policy == "damon-tier") | [.promoted, .demoted, .cpu_ms, .x_dram_steady]]')" \
	'[[null,null,50,0.525]]' "DAMON's stats command timed out: its pages unknown; a stalled interval counts as 0"
expect_eq "$(q '[.[] | select(.workload == "pgbench" and .ratio == 4) | [.policy, .x_dram_steady, .cxl_share_steady, .client_p99_ms]]')" \
	'[["chmu",0.8,-1,1.8],["damon-tier",0.525,-1,3],["dram",1,-1,0.9],["none",0.75,-1,2.5],["numab",0.7,-1,2]]' \
	"pgbench: transactions against all DRAM, no CXL share, the clients' p99"
expect_eq "$(q '[.[] | select(.workload == "zipf") | .client_p99_ms] | unique')" '[null]' "zipf: no client latency"
expect_eq "$(q '[.[] | select(.ratio == 4 and .workload == "zipf") | [.policy, .x_dram_run, .x_dram_steady, .cxl_share_steady]]')" \
	'[["chmu",0.55,0.6,0.167],["damon-tier",0.5,0.55,0.364],["dram",1,1,1],["none",0.5,0.5,0.8],["numab",0.45,0.5,0.4]]' \
	"1:4: throughput against all DRAM (run, steady), steady CXL share"
expect_eq "$(q '[.[] | select(.workload == "zipf" and .ratio == 4 and .policy == "chmu") | [.promoted, .demoted, .pingpong, .pingpong_share, .cpu_ms, .latency_p99_ms, .expired_share, .throttles]]')" \
	'[[999,50,4,0.004,10,150,0.25,1]]' "the promoter: pgpromote_success in the run's window (not its own count), demotions, ping-pong, CPU, latency, expired share, back-offs"
expect_eq "$(q '[.[] | select(.policy != "chmu" or .ratio == 2) | .expired_share] | unique')" '[null]' "expired share: the promoter's, where its costs say"
grep -q "| 150 ms (25% expired) |" "$d/out/tier.md" || fail "tier.md: no '150 ms (25% expired)' cell"
expect_eq "$(q '[.[] | select(.workload == "zipf" and .ratio == 4) | [.policy, .kswapd_ms]]')" \
	'[["chmu",2500],["damon-tier",null],["dram",null],["none",null],["numab",500]]' \
	"kswapd's CPU: read around the run, else from the samples (none, or one line: unknown)"
grep -Fq '| 10 | 2500 | 150 ms (25% expired) |' "$d/out/tier.md" || { cat "$d/out/tier.md"; fail "tier.md: CPU, kswapd, latency cells"; }
# the working set on node 0 halfway: NUMA balancing's none of it (best
# share then 1), DAMON's 96 of 256 pages (the hottest 96 of a Zipf 0.99
# leave 0.164 of the loads on CXL); no numa_maps: unknown
expect_eq "$(q '[.[] | select(.workload == "zipf" and .ratio == 4) | [.policy, .ws_node0_pages, .best_cxl_share]]')" \
	'[["chmu",null,null],["damon-tier",96,0.164],["dram",null,null],["none",null,null],["numab",0,1]]' \
	"the working set's pages on node 0 and the best CXL share for them"
grep -Fq '| 0.364 | 96 (best 0.164) | 100 |' "$d/out/tier.md" || { cat "$d/out/tier.md"; fail "tier.md: the on node 0 cell"; }
expect_eq "$(q '[.[] | select(.workload == "zipf" and .ratio == 4 and .policy == "numab") | [.promoted, .demoted, .pingpong, .latency_p99_ms]]')" \
	'[[300,280,0,null]]' "NUMA balancing: pgpromote_success, its ping-pong"
expect_eq "$(q '[.[] | select(.workload == "zipf" and .ratio == 4 and .policy == "damon-tier") | [.promoted, .demoted]]')" \
	'[[100,205]]' "DAMON tiering: its schemes' pages (demoted: kswapd's plus its cold scheme's)"
M=$d/out/tier.md
grep -Fq '| zipf 1:4: promoter 10% above NUMA balancing | run 1.22x, steady 1.20x | >= 1.10x | not judged (one run per policy; this run alone: met) |' "$M" ||
	{ cat "$M"; fail "goal: NUMA balancing"; }
grep -Fq '| zipf 1:4: promoter 10% above DAMON tiering | run 1.10x, steady 1.09x | >= 1.10x | not judged (one run per policy; unreliable: a run is confounded) |' "$M" ||
	{ cat "$M"; fail "goal: DAMON (its run confounded)"; }
expect_eq "$(q '[.[] | select(.workload == "zipf" and .ratio == 4) | [.policy, .own_pages_off_node0, .pinned_off_node0, .confounded]]')" \
	'[["chmu",0,0,false],["damon-tier",7,3,true],["dram",0,0,false],["none",0,0,false],["numab",0,0,false]]' \
	"the workload's own heap and stack pages and the pinned code off node 0"
grep -Fq '| zipf 1:2: promoter not below no promotion | run 0.45 vs 0.5, steady 0.5 vs 0.5 | >= 1.00x | not judged (one run per policy; this run alone: not met) |' "$M" ||
	{ cat "$M"; fail "goal: 1:2 none (below it over the run)"; }
grep -Fq '| zipf 1:2: ping-pong of the promoter'"'"'s promotions | 0.0% | < 5% | met |' "$M" || { cat "$M"; fail "goal: 1:2 ping-pong (none)"; }
grep -Fq '| pgbench 1:2: promoter not below no promotion | run 0.65 vs 0.5, steady 0.7 vs 0.5 | >= 1.00x | not judged (one run per policy; unreliable: the all-DRAM run'"'"'s second half was 0.85x its median) |' "$M" ||
	{ cat "$M"; fail "goal: pgbench 1:2 (its all-DRAM run varied)"; }
grep -Fq '| zipf 1:4: ping-pong of the promoter'"'"'s promotions | 0.4% | < 5% | met |' "$M" || { cat "$M"; fail "goal: ping-pong"; }
grep -q '^<svg' "$d/out/tier-4.svg" && grep -q '^<svg' "$d/out/tier-2.svg" || fail "no plots"
expect_eq "$(grep -c '<polyline' "$d/out/tier-4.svg")" 5 "1:4 plot: a line per policy"
expect_eq "$(grep -c '<polyline' "$d/out/tier-2.svg")" 4 "1:2 plot: a line per policy (monitoring too)"
grep -Fq '| pgbench 1:4: promoter not below no promotion | run 0.75 vs 0.725, steady 0.8 vs 0.75 | >= 1.00x | not judged (one run per policy; this run alone: met) |' "$M" ||
	{ cat "$M"; fail "goal: pgbench none"; }
grep -q 'NUMA balancing' <(grep '^| pgbench 1:' "$M") && fail "pgbench: goals of the Zipf workload"
expect_eq "$(grep -c '<polyline' "$d/out/tier-pgbench-4.svg")" 5 "pgbench 1:4 plot: a line per policy"
grep -Fq 'pgbench transactions/s over time' "$d/out/tier-pgbench-4.svg" || fail "pgbench plot's title"
grep -Fq '| pgbench | 1:4 | exact tracker | CHMU promoter | ' "$M" || { cat "$M"; fail "pgbench row"; }
echo ok
