#!/bin/bash
# goal-rows.sh SECTION DIR: the goals the section's boots in DIR decide,
# one JSON object per line, for results.json's "goals" (bench/run.sh
# keeps them in DIR/goals.json; bench/results-json.sh adds the section
# and judges whether a row is reliable):
#   goal      what is asked, as the section's own goals table says it
#   measured  the figure, as that table gives it
#   verdict   met, not met, not assessable or n/a
#   note      what the table adds in parentheses (null when nothing)
# A goal decided on the median of rounds also has goal_op (">=" or "<="),
# goal_value and rounds: the figure each round gives on its own (cost:
# the round's enabled/disabled ratio; drain: the round's consumer against
# the round's bare drain or one-liner).
set -euo pipefail
sec=${1:?usage: goal-rows.sh SECTION DIR}
dir=${2:?usage: goal-rows.sh SECTION DIR}
cd "$(dirname "$0")/.."

# md_rows: the "| goal | measured | verdict |" rows on stdin as JSON
md_rows() {
	jq -Rc 'select(test("^[|] ") and (test("^[|] goal [|]") | not)) |
		ltrimstr("| ") | rtrimstr(" |") | split(" | ") |
		(.[2] | capture("^(?<v>[^(]*[^( ])( [(](?<n>.*)[)])?$")) as $c |
		{goal: .[0], measured: .[1],
		 verdict: ({"yes": "met", "no": "not met"}[$c.v] // $c.v),
		 note: $c.n}'
}

# per_round FILE A B WHAT: per round, A's figure over B's, comma-separated,
# from a drain.txt (LABEL|entries|drain_ns|bpf_ns|process_ns per run, in
# rounds); WHAT drain: drain ns per entry; cpu: BPF and process ns per entry
per_round() {
	awk -F'|' -v a="$2" -v b="$3" -v what="$4" '
	$2 > 0 { k = ++n[$1]; V[$1, k] = (what == "drain" ? $3 : $4 + $5) / $2 }
	END {
		for (k = 1; k <= n[a] && k <= n[b]; k++)
			if (V[b, k] > 0) printf "%s%.4f", (m++ ? "," : ""), V[a, k] / V[b, k]
	}' "$1"
}

case "$sec" in
cost)
	# the target of the exact tracker's boot
	for d in "$dir"/m*/; do
		[ "$(jq -r .tracker "$d/row.json")" = exact ] || continue
		jq -c --argjson r "[$(awk '{ print $3 }' "$d/rounds.txt" | paste -sd,)]" '
			{goal: "exact tracker: accesses with the CHMU enabled / disabled >= 0.9",
			 measured: "\(.ratio) (\(.rounds) rounds: \(.ratio_min)-\(.ratio_max))",
			 verdict: (if .ratio >= 0.9 then "met" else "not met" end), note: null,
			 goal_op: ">=", goal_value: 0.9, rounds: $r}' "$d/row.json"
	done
	;;
drain)
	f=$dir/drain/drain.txt
	bench/drain-goals.sh "$dir/drain/drain.json" | md_rows |
		jq -c --argjson top "[$(per_round "$f" chmutop "tracepoints disabled" drain)]" \
			--argjson heat "[$(per_round "$f" chmuheat "tracepoints disabled" drain)]" \
			--argjson cpu "[$(per_round "$f" chmutop "bpftrace one-liner" cpu)]" '
			if (.goal | startswith("chmutop drain ")) then . + {goal_op: "<=", goal_value: 1.3, rounds: $top}
			elif (.goal | startswith("chmuheat drain ")) then . + {goal_op: "<=", goal_value: 1.5, rounds: $heat}
			elif (.goal | startswith("chmutop CPU ")) then . + {goal_op: "<=", goal_value: (1 / 3), rounds: $cpu}
			else . end'
	;;
accuracy)
	bench/goals.sh "$dir"/a*/rows.json | md_rows
	;;
promotion)
	md_rows <"$dir/promote-goals.md"
	;;
esac
