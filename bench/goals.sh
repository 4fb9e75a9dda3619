#!/bin/bash
# goals.sh ROWS.json...: the accuracy goals' table rows (markdown), from
# the accuracy rows of bench/accuracy-rows.sh, on the per-epoch
# access-count ratio at K = 25: Count-Min at M5's sizes within 5% of the
# exact tracker; every CHMU model at least 1.47x the better DAMON. A
# comparison with a DAMON that scores below twice what 25 units picked at
# random would (random25) is not assessable: it would divide by noise.
set -euo pipefail
cat "$@" | jq -rs '
	def r(m): map(select(.monitor == m))[0].ratio25_epoch_mean;
	def yn(c): if c then "yes" else "no" end;
	def f3: . * 1000 | round / 1000 | tostring;
	(r("CHMU, exact (chmutop)")) as $exact |
	(r("CHMU, Count-Min 4 x 32768 x 14 bit, top-25 (M5) (chmutop)")) as $cms |
	([.[] | select(.monitor | startswith("DAMON")) | .ratio25_epoch_mean] | max) as $damon |
	(map(.random25 // empty) | first) as $rnd |
	(if $exact and $cms and $exact > 0 then
		"| Count-Min (M5) / exact >= 0.95 | \($cms | f3) / \($exact | f3) = \($cms / $exact | f3) | \(yn($cms / $exact >= 0.95)) |"
	else empty end),
	(if $damon then
		(.[] | select(.monitor | startswith("CHMU")) |
		(.monitor | sub("^CHMU, "; "") | sub(" \\(chmutop\\)$"; "")) as $m |
		if $damon <= 0 or ($rnd and $damon < 2 * $rnd) then
			"| \($m) / DAMON >= 1.47 | \(.ratio25_epoch_mean | f3) against DAMON'"'"'s \($damon | f3), below twice a random pick'"'"'s \($rnd // 0 | f3) | not assessable |"
		else
			"| \($m) / DAMON >= 1.47 | \(.ratio25_epoch_mean | f3) / \($damon | f3) = \(.ratio25_epoch_mean / $damon * 100 | round / 100)x | \(yn(.ratio25_epoch_mean / $damon >= 1.47)) |"
		end)
	else empty end)'
