#!/bin/bash
# epochend-rows.sh DIR: the rows of the epoch-end boot (bench/guest-bench.sh
# epochend wrote DIR/sizes.txt, one size per enable, and QEMU traced
# cxl_chmu_enable and cxl_chmu_epoch_end into DIR/qemu.log), computed on
# the host: DIR/rows.md and DIR/rows.json (schema: docs/bench.md).
#
# Per size (the units the guest touched after one enable): the epoch ends
# between that enable and the next that saw hot units, the hot units
# they saw in all (fewer than touched when some loads fell between the
# steps of an end, which counts nothing), the steps and the host time
# they took in all; then the largest of those ends: its hot units, its
# steps and its host time per step, the longest the model held the BQL
# for one end's work at once, on average over its steps.
set -euo pipefail
R=${1:?usage: epochend-rows.sh DIR}
die() { echo "epochend-rows: $R: $*" >&2; exit 1; }
[ -s "$R/sizes.txt" ] || die "no sizes.txt"
[ -s "$R/qemu.log" ] || die "no qemu.log"
awk -v sizes="$R/sizes.txt" '
BEGIN {
	while ((getline n <sizes) > 0)
		size[++nsizes] = n
	seg = 0
}
/cxl_chmu_enable / { seg++; next }
/cxl_chmu_epoch_end / {
	if (!match($0, /hot [0-9]+ posted [0-9]+ dropped [0-9]+ in [0-9]+ steps, took [0-9]+ ns/))
		next
	split(substr($0, RSTART, RLENGTH), f, " ")
	hot = f[2]; steps = f[8]; ns = f[11]
	if (!seg || hot == 0)
		next
	ends[seg]++; hots[seg] += hot; stepss[seg] += steps; nss[seg] += ns
	if (hot > bighot[seg]) {
		bighot[seg] = hot; bigsteps[seg] = steps; bigns[seg] = ns
	}
}
END {
	if (seg != nsizes) {
		printf "epochend-rows: %d enables traced for %d sizes\n", seg, nsizes >"/dev/stderr"
		exit 1
	}
	for (i = 1; i <= nsizes; i++) {
		if (!ends[i]) {
			printf "epochend-rows: no epoch end with hot units for %d units\n", size[i] >"/dev/stderr"
			exit 1
		}
		printf "%d %d %d %d %.0f %d %d %.0f\n", size[i], ends[i], hots[i], stepss[i], nss[i],
			bighot[i], bigsteps[i], bigns[i]
	}
}' "$R/qemu.log" >"$R/epochend.txt" || die "the trace does not match the sizes"
awk '{
	printf "| %d | %d | %d | %d | %.0f | %.1f | %d | %d | %.0f |\n", $1, $2, $3, $4, $5 / 1000,
		$3 ? $5 / $3 : 0, $6, $7, $8 / $7 / 1000
}' "$R/epochend.txt" >"$R/rows.md"
awk '{
	printf "{\"touched\":%d,\"epoch_ends\":%d,\"hot\":%d,\"steps\":%d,\"ns\":%.0f,\"ns_per_unit\":%.1f,\"largest_hot\":%d,\"largest_steps\":%d,\"largest_ns_per_step\":%.0f}\n",
		$1, $2, $3, $4, $5, $3 ? $5 / $3 : 0, $6, $7, $8 / $7
}' "$R/epochend.txt" >"$R/rows.json"
