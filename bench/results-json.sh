#!/bin/bash
# results-json.sh RES: build/bench/results.json from the guest boots'
# pieces under RES (bench/run.sh), one JSON document on stdout. Schema:
# docs/bench.md. Each piece is one JSON object per row; rows are joined
# here with commas, whatever newline the piece ends with.
set -euo pipefail
res=${1:?usage: results-json.sh RESULTS_DIR}

# rows FILE...: the rows of the files, one per line, joined by commas
rows() {
	local f
	for f in "$@"; do
		[ -e "$f" ] || continue
		cat "$f"
		echo
	done | { grep . || true; } | paste -sd,
}

printf '{"version":1,"memory":'
cat "$res/base/section.json"
printf ',"chmu":['
for d in "$res"/m*; do
	[ -d "$d" ] || continue
	printf '%s%s\n' "$(sed 's/}$//' "$d/row.json")" "$(cat "$d/epoch.json")"
done | paste -sd,
printf '],"drain":'
cat "$res/drain/drain.json"
printf ',"attribution":'
if [ -e "$res/attr/attrib.json" ]; then cat "$res/attr/attrib.json"; else printf '[]'; fi
printf ',"accuracy":['
rows "$res"/a*/rows.json
printf '],"shift":['
rows "$res"/f*/rows.json
printf '],"scale":['
rows "$res"/s*/scale.json
printf '],"promotion":['
rows "$res/promote.json"
printf ']}\n'
