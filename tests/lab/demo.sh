# make demo, as a user runs it: exit 0, a summary in which every tool
# found every phase of the moving hot set, the heatmap image it names on
# the host, and the promotion act: chmutop's promoter line, the rate
# before and after, the hot set on DRAM.
. tests/lib.sh
out=$(make -s demo 2>&1) || { echo "$out" | tail -n 40; fail "make demo failed"; }
echo "$out" | tail -n 20
grep -q '^every tool found every phase of the hot set$' <<<"$out" || fail "summary"
grep -q '^the hot set reached DRAM: [0-9]* of its 256 pages on node 0$' <<<"$out" || fail "promotion verdict"
grep -q '^workload rate before promotion: [0-9]* loads/s; after: [0-9]* loads/s ([0-9.]*x)$' <<<"$out" ||
	fail "promotion: no rate before and after"
grep -q '^  promote on -> nearest top tier: ' <<<"$out" || fail "promotion: chmutop shows no promoter line"
expect_eq "$(grep -c ': found$' <<<"$out")" 9 "tools x phases found"
img=$(sed -n 's/^  DEMO    heatmap image: //p' <<<"$out")
[ -n "$img" ] && [ -s "$img" ] || fail "no heatmap image ($img)"
grep -q '<svg xmlns="http://www.w3.org/2000/svg" width="890" height="366"' "$img" || fail "$img is not the 16 x 10 heatmap"
grep -q '^  DEMO    guest done in [0-9]* s' <<<"$out" || fail "no elapsed time"
