# make bench's sections. Sourced by bench/run.sh, bench/results-json.sh
# and bench/results-md.sh.
# shellcheck shell=bash
#
# One line per section, in the order the boots run and results.md and
# results.json show them: NAME|KEY|EMPTY|GOALS
#   NAME   what BENCH_SECTIONS names
#   KEY    its key in results.json
#   EMPTY  what KEY holds until the section has been measured once
#   GOALS  "goals" when the goals table reads it: make bench-goals runs it
#          (reduced to what the goals need: bench/run.sh); "optin" for a
#          section make bench runs only when BENCH_SECTIONS names it
# A new section (tiering, say): a line here; a sec_NAME function in
# bench/run.sh (its boots, then section.md and the pieces below); a case
# in "results-json.sh section"; if it has goals, a case in
# bench/goal-rows.sh; a row in docs/bench.md's table of sections.
bench_section_table=(
	"memory|memory|null|"
	"cost|chmu|[]|goals"
	"epochs|epoch_end|[]|"
	"drain|drain|[]|goals"
	"attribution|attribution|[]|"
	"accuracy|accuracy|[]|goals"
	"shift|shift|[]|"
	"scale|scale|[]|"
	"promotion|promotion|[]|goals"
	"tiering|tiering|[]|optin"
	"tierblocks|tiering_blocks|null|optin"
)

# bench_section_names [goals]: every section's name (with goals: those of
# make bench-goals), in order, one per line
bench_section_names() {
	local l
	for l in "${bench_section_table[@]}"; do
		[ "${1-}" != goals ] || [ "${l##*|}" = goals ] || continue
		echo "${l%%|*}"
	done
}

# bench_section_field NAME N: field N (2 KEY, 3 EMPTY, 4 GOALS) of NAME's line
bench_section_field() {
	local l
	for l in "${bench_section_table[@]}"; do
		[ "${l%%|*}" = "$1" ] || continue
		echo "$l" | cut -d'|' -f"$2"
		return 0
	done
	return 1
}

# bench_sections SPEC [goals]: the sections SPEC names (comma-separated,
# as BENCH_SECTIONS; empty: all), in the table's order, one per line. A
# name that is not a section (with goals: not one of bench-goals') is a
# one-line error on stderr and status 1, before anything is printed.
bench_sections() {
	local spec=$1 mode=${2-} known want=" " n
	local -a names
	known=$(bench_section_names "$mode")
	IFS=, read -ra names <<<"$spec"
	for n in "${names[@]}"; do
		n=${n// /}
		[ -n "$n" ] || continue
		if ! grep -qxF -- "$n" <<<"$known"; then
			if [ "$mode" = goals ] && grep -qxF -- "$n" <<<"$(bench_section_names)"; then
				echo "error: BENCH_SECTIONS: '$n' is not a section of make bench-goals ($(paste -sd, <<<"$known" | sed 's/,/, /g'))" >&2
			else
				echo "error: BENCH_SECTIONS: unknown section '$n' (sections: $(bench_section_names | paste -sd, | sed 's/,/, /g'))" >&2
			fi
			return 1
		fi
		want+="$n "
	done
	for n in $known; do
		if [ "$want" = " " ]; then
			# all: but the opt-in sections, which run only when named
			[ "$(bench_section_field "$n" 4)" != optin ] || continue
		else
			[[ "$want" == *" $n "* ]] || continue
		fi
		echo "$n"
	done
}
