# bench/drain-goals.sh: the cost goals from made-up drain medians, met and
# not met at their edges, and rows left out when a consumer is missing.
. tests/lib.sh
R=$(mktemp -d)
trap 'rm -rf "$R"' EXIT
drain() { # drain BARE TOP HEAT TOP_BPF TOP_PROC ONELINER_BPF
	printf '[{"consumer":"tracepoints disabled","drain_ns_per_entry":%s,"bpf_ns_per_entry":0,"process_ns_per_entry":0},' "$1"
	printf '{"consumer":"chmutop","drain_ns_per_entry":%s,"bpf_ns_per_entry":%s,"process_ns_per_entry":%s},' "$2" "$4" "$5"
	printf '{"consumer":"chmuheat","drain_ns_per_entry":%s,"bpf_ns_per_entry":50,"process_ns_per_entry":0},' "$3"
	printf '{"consumer":"bpftrace one-liner","drain_ns_per_entry":3000,"bpf_ns_per_entry":%s,"process_ns_per_entry":0}]\n' "$6"
}
verdicts() { bench/drain-goals.sh "$R/d.json" | awk -F' [|] ' '{ print $NF }' | tr -d ' |' | paste -sd,; }
drain 1000 1300 1500 100 100 600 >"$R/d.json"
expect_eq "$(verdicts)" "yes,yes,yes" "goals met at their edges"
expect_eq "$(bench/drain-goals.sh "$R/d.json" | head -n 1)" \
	"| chmutop drain / bare drain <= 1.3 | 1300 / 1000 ns = 1.3x | yes |" "chmutop's row"
expect_eq "$(bench/drain-goals.sh "$R/d.json" | tail -n 1)" \
	"| chmutop CPU / bpftrace one-liner CPU <= 1/3 | 200 / 600 ns = 0.33 | yes |" "the CPU row"
drain 1000 1301 1501 100 101 600 >"$R/d.json"
expect_eq "$(verdicts)" "no,no,no" "goals missed just past their edges"
jq '[.[] | select(.consumer != "bpftrace one-liner")]' "$R/d.json" >"$R/d2.json"
mv "$R/d2.json" "$R/d.json"
expect_eq "$(bench/drain-goals.sh "$R/d.json" | wc -l)" 2 "no CPU row without the one-liner"
echo ok
