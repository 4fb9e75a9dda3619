# make demo, as a user runs it: exit 0, a summary in which every tool
# found every phase of the moving hot set, and the heatmap image it
# names on the host.
. tests/lib.sh
out=$(make -s demo 2>&1) || { echo "$out" | tail -n 40; fail "make demo failed"; }
echo "$out" | tail -n 20
grep -q '^every tool found every phase of the hot set$' <<<"$out" || fail "summary"
expect_eq "$(grep -c ': found$' <<<"$out")" 9 "tools x phases found"
img=$(sed -n 's/^  DEMO    heatmap image: //p' <<<"$out")
[ -n "$img" ] && [ -s "$img" ] || fail "no heatmap image ($img)"
grep -q '<svg xmlns="http://www.w3.org/2000/svg" width="890" height="366"' "$img" || fail "$img is not the 16 x 10 heatmap"
grep -q '^  DEMO    guest done in [0-9]* s' <<<"$out" || fail "no elapsed time"
