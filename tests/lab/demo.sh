# make demo, as a user runs it: exit 0, a summary in which every tool
# found every phase of the moving hot set, the heatmap image it names on
# the host, and the promotion act: chmutop's promoter line, the rate
# before and after, the hot set on DRAM.
. tests/lib.sh
out=$(make -s demo 2>&1) || {
	sed -n '/^== summary$/,/^== promotion/p' <<<"$out"
	echo "$out" | tail -n 40
	fail "make demo failed"
}
echo "$out" | tail -n 20
grep -q '^every tool found every phase of the hot set$' <<<"$out" || fail "summary"
grep -q '^the hot set reached DRAM: [0-9]* of its 256 pages on node 0$' <<<"$out" || fail "promotion verdict"
grep -q '^workload rate before promotion: [0-9]* loads/s; after: [0-9]* loads/s ([0-9.]*x)$' <<<"$out" ||
	fail "promotion: no rate before and after"
grep -q '^  promote on -> nearest top tier: ' <<<"$out" || fail "promotion: chmutop shows no promoter line"
expect_eq "$(grep -c ': found$' <<<"$out")" 9 "tools x phases found"
img=$(sed -n 's/^  DEMO    heatmap image: //p' <<<"$out")
[ -n "$img" ] && [ -s "$img" ] || fail "no heatmap image ($img)"
# the heatmap holds the whole run (a rolled one says "the last N
# intervals"): at least the phases' 9 s of columns, in 16 rows, the
# image's cells as many as the text's
grep -q '^mem0.0.0 hotness: 32 MiB per row, 1 s per column$' <<<"$out" ||
	fail "the heatmap's title is not that of the whole run in 32 MiB rows"
cols=$(awk -F'|' '$1 ~ /^ *0x0 *$/ && NF == 3 { print length($2); exit }' <<<"$out")
[ -n "$cols" ] && [ "$cols" -ge 9 ] || fail "the text heatmap has ${cols:-no} columns, not one per interval of the run"
expect_eq "$(grep -c '^<rect x="[0-9]*" y="[0-9]*" width="16" height="16"' "$img")" $((16 * cols)) "heatmap image cells"
grep -q '^  DEMO    guest done in [0-9]* s' <<<"$out" || fail "no elapsed time"
