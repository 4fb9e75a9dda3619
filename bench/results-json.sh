#!/bin/bash
# results-json.sh section NAME DIR: the value of section NAME's key in
# results.json (bench/sections.sh) from the pieces its boots left in DIR
# (bench/run.sh keeps it in DIR/section.json). Each piece is one JSON
# object per row; rows are joined here with commas, whatever newline the
# piece ends with.
#
# results-json.sh STORE [KIND]: build/bench/results.json (KIND bench, the
# default) or goals.json (bench-goals) from the sections kept in STORE,
# one JSON document on stdout. Schema: docs/bench.md. Per section its
# section.json (or the key's empty value when it was never measured),
# its stamp ("sections": when, on which commit, stale or not, the host's
# load) and its goal rows ("goals"), each judged reliable or not.
set -euo pipefail
here=$(dirname "$0")
. "$here/sections.sh"

# rows FILE...: the rows of the files, one per line, joined by commas
rows() {
	local f
	for f in "$@"; do
		[ -e "$f" ] || continue
		cat "$f"
		echo
	done | { grep . || true; } | paste -sd,
}

section() { # section NAME DIR
	local d=$2
	case "$1" in
	memory) cat "$d/base/section.json" ;;
	cost)
		printf '['
		for m in "$d"/m*; do
			[ -d "$m" ] || continue
			printf '%s%s\n' "$(sed 's/}$//' "$m/row.json")" "$(cat "$m/epoch.json")"
		done | paste -sd,
		printf ']'
		;;
	epochs) printf '[%s]' "$(rows "$d/e0/rows.json")" ;;
	drain) cat "$d/drain/drain.json" ;;
	attribution) if [ -e "$d/attr/attrib.json" ]; then cat "$d/attr/attrib.json"; else printf '[]'; fi ;;
	accuracy) printf '[%s]' "$(rows "$d"/a*/rows.json)" ;;
	shift) printf '[%s]' "$(rows "$d"/f*/rows.json)" ;;
	scale) printf '[%s]' "$(rows "$d"/s*/scale.json)" ;;
	promotion) printf '[%s]' "$(rows "$d/promote.json")" ;;
	tiering) if [ -e "$d/tier.json" ]; then cat "$d/tier.json"; else printf '[]'; fi ;;
	tierblocks) if [ -e "$d/blocks.json" ]; then cat "$d/blocks.json"; else printf 'null'; fi ;;
	*) echo "results-json.sh: no section $1" >&2; exit 1 ;;
	esac
}

if [ "${1-}" = section ]; then
	[ $# -eq 3 ] || { echo "usage: results-json.sh section NAME DIR" >&2; exit 1; }
	section "$2" "$3"
	exit
fi
store=${1:?usage: results-json.sh STORE [KIND] | section NAME DIR}
kind=${2:-bench}
head=$(git rev-parse HEAD 2>/dev/null || echo unknown)

# stamp NAME: the section's stamp, with stale (measured on another commit
# than HEAD) and commits_behind (how many commits HEAD has that it had
# not; null when its commit is not one of HEAD's ancestors)
stamp() {
	local c behind=null
	c=$(jq -r .commit "$store/$1/stamp.json")
	if [ "$c" != "$head" ] && [ "$head" != unknown ] &&
		git merge-base --is-ancestor "$c" HEAD 2>/dev/null; then
		behind=$(git rev-list --count "$c..HEAD")
	elif [ "$c" = "$head" ]; then
		behind=0
	fi
	jq -c --arg head "$head" --argjson behind "$behind" \
		'. + {stale: (.commit != $head), commits_behind: $behind}' "$store/$1/stamp.json"
}

printf '{"version":1,"kind":"%s","head":"%s"' "$kind" "$head"
for name in $(bench_section_names); do
	printf ',"%s":' "$(bench_section_field "$name" 2)"
	if [ -e "$store/$name/stamp.json" ]; then
		cat "$store/$name/section.json"
	else
		bench_section_field "$name" 3 | tr -d '\n'
	fi
done
printf ',"sections":{'
n=0
for name in $(bench_section_names); do
	printf '%s"%s":' "$([ $n = 0 ] || echo ,)" "$name"
	n=$((n + 1))
	if [ -e "$store/$name/stamp.json" ]; then stamp "$name"; else printf null; fi
done
printf '},"goals":'
# Every goal row of every section kept, judged: a row met or not met is
# "unreliable" instead when the host was busy during its section's boots,
# or when a round on its own gives the other verdict than the row (its
# rounds spread past the goal).
for name in $(bench_section_names); do
	[ -e "$store/$name/stamp.json" ] || continue
	[ -e "$store/$name/goals.json" ] || continue
	jq -c --arg s "$name" --argjson st "$(stamp "$name")" '
		def met($v): if .goal_op == ">=" then $v >= .goal_value else $v <= .goal_value end;
		def f3: . * 1000 | round / 1000 | tostring;
		. as $g |
		($st.host // {}) as $h |
		([(.rounds // [])[] as $v | $g | met($v)]) as $r |
		{section: $s, goal, measured, verdict, note, stale: $st.stale, measured_at: $st.measured_at,
		 commit: $st.commit, rounds: (.rounds // null), goal_op: (.goal_op // null),
		 goal_value: (.goal_value // null), unreliable: null, measured_verdict: .verdict} |
		if (.verdict == "met" or .verdict == "not met") | not then .
		elif $h.busy == true then
			.unreliable = "host busy: other processes used up to \($h.others_cpus_max) CPUs (\($h.heaviest)), steal up to \($h.steal_max * 1000 | round / 10)%" |
			.verdict = "unreliable"
		elif ($r | length) > 1 and ($r | map(select(. == ($g.verdict == "met"))) | length) < ($r | length) then
			.unreliable = "\($r | map(select(.)) | length) of \($r | length) rounds meet it on their own (\(.rounds | min | f3)-\(.rounds | max | f3) against \(.goal_op) \(.goal_value | f3))" |
			.verdict = "unreliable"
		else . end' "$store/$name/goals.json"
done | jq -cs .
printf '}\n'
