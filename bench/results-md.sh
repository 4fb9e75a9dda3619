#!/bin/bash
# results-md.sh JSON STORE: build/bench/results.md (or goals.md) from the
# document bench/results-json.sh wrote (JSON) and the sections' own text
# kept in STORE (NAME/section.md): a table of the sections (when and on
# which commit each was measured, how busy the host was, stale or not),
# each section's text with its stamp under its first heading, and the
# goals table last.
# results-md.sh --goals JSON: the goals table alone (what make bench-goals
# prints last).
set -euo pipefail
here=$(dirname "$0")
. "$here/sections.sh"

# jq helpers: a stamp's time as "YYYY-MM-DD HH:MM UTC", seconds as XmYYs,
# how stale a section is
JQDEFS='def when: sub("T"; " ") | sub(":[0-9]+Z$"; " UTC");
	def dur: "\(. / 60 | floor)m\(. % 60 | tostring | if length < 2 then "0" + . else . end)s";
	def behind: if .commits_behind then "\(.commits_behind) commit\(if .commits_behind > 1 then "s" else "" end) behind HEAD" else "not an ancestor of HEAD" end;'

# goals JSON: the goals table, from results.json's goals
goals() {
	cat <<'MD'
## Goals

Each goal as its section's table states it, with the figure of the run
that measured the section. "unreliable" replaces met or not met when the
host was busy during the section's boots (its stamp line above says how
busy), or when the rounds the figure is the median of do not all give
its verdict on their own (docs/bench.md, "A busy host"); "stale"
sections were measured on an older commit than HEAD.

| goal | this run | met | section |
|---|---|---|---|
MD
	jq -r "$JQDEFS"'.goals[] |
		"| \(.goal) | \(.measured) | \(.verdict)\(if .unreliable then " (\(.unreliable | sub("^host busy: .*"; "host busy")))" elif .note then " (\(.note))" else "" end) | \(.section), \(.measured_at | when)\(if .stale then ", stale" else "" end) |"' "$1"
}

if [ "${1-}" = --goals ]; then
	goals "${2:?usage: results-md.sh --goals JSON}"
	exit
fi
json=${1:?usage: results-md.sh JSON STORE}
store=${2:?usage: results-md.sh JSON STORE}

# stampline NAME: the sentence under the section's first heading
stampline() {
	jq -r --arg s "$1" "$JQDEFS"'[.goals[] | select(.section == $s)] as $g | ($g | length) as $goals | .sections[$s] |
		"_Section `\($s)`: measured \(.measured_at | when) on commit \(.commit[0:12])\(if .dirty then " (tree dirty)" else "" end), in \(.seconds | dur)" +
		(if .stale then "; **stale**: \(behind)" else "" end) +
		(if .host.busy then "; host **busy** (other processes up to \(.host.others_cpus_max) CPUs, \(.host.heaviest); steal up to \(.host.steal_max * 1000 | round / 10)%): its figures may be off" + (if $goals > 0 then ", its goals are marked unreliable" else "" end) else "" end) +
		(if .mode == "goals" then "; only what the goals read (make bench-goals)" else "" end) + "._"' "$json"
}

cat <<'MD'
# CHMU lab benchmarks

Every figure is a ratio or count from one guest boot. Each section below
is stamped with the run that measured it; `make bench BENCH_SECTIONS=...`
reruns some sections and keeps the others (docs/bench.md).

| section | measured | commit | took | host | state |
|---|---|---|---|---|---|
MD
for name in $(bench_section_names); do
	jq -r --arg s "$name" "$JQDEFS"'.sections[$s] as $t |
		if $t == null then "| \($s) | - | - | - | - | not measured |" else
		"| \($s) | \($t.measured_at | when) | \($t.commit[0:12])\(if $t.dirty then " (dirty)" else "" end) | \($t.seconds | dur) | " +
		(if $t.host.busy == true then "busy: others up to \($t.host.others_cpus_max) CPUs (\($t.host.heaviest))"
		 elif $t.host.busy == false then "quiet (others up to \($t.host.others_cpus_max) CPUs)" else "not sampled" end) + " | " +
		(if $t.stale then "stale (\($t | behind))" else "current" end) + " |" end' "$json"
done
for name in $(bench_section_names); do
	[ -e "$store/$name/section.md" ] || continue
	[ "$(jq --arg s "$name" '.sections[$s] != null' "$json")" = true ] || continue
	echo
	awk -v stamp="$(stampline "$name")" '{ print } !done && /^## / { print ""; print stamp; done = 1 }' "$store/$name/section.md"
done
echo
goals "$json"
