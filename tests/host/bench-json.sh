# bench/results-json.sh writes valid JSON, the shape docs/bench.md gives,
# from the pieces the guest boots leave: rows that end with a newline or
# without one, several files per array, a scale file of several rows.
. tests/lib.sh
command -v jq >/dev/null || fail "jq missing (lab/deps.sh installs it)"
r=$(mktemp -d)
trap 'rm -rf "$r"' EXIT
mkdir -p "$r"/{base,m0,m1,drain,attr,a0,a1,f0,f1,s0,s1}
echo '{"dram_read":1,"dram_write":2,"cxl_read":3,"cxl_write":4}' >"$r/base/section.json"
for i in 0 1; do
	printf '{"tracker":"t%s","rounds":5,"disabled":10,"enabled":9,"ratio":0.900,"ratio_min":0.8,"ratio_max":1.1}' "$i" >"$r/m$i/row.json"
	printf ',"epoch_hot":%s,"epoch_posted":1023,"epoch_end_ns":107000}' $((16384 - i)) >"$r/m$i/epoch.json"
done
printf '[{"consumer":"chmutop","rounds":5,"entries":5,"drain_ns_per_entry":1.5}]' >"$r/drain/drain.json"
printf '[{"consumer":"chmuheat","rounds":5,"entries":5,"drain_ns_per_entry":2},{"consumer":"chmuheat --by cgroup","rounds":5,"entries":5,"drain_ns_per_entry":3}]\n' >"$r/attr/attrib.json"
printf '%s\n%s\n' '{"monitor":"CHMU, exact (chmutop)","recall64":1.000,"ratio64":1.000}' \
	'{"monitor":"DAMON paddr, default attributes","recall64":0.016,"ratio64":0.022}' >"$r/a0/rows.json"
printf '%s' '{"monitor":"CHMU, cms (chmutop)","recall64":0.390,"ratio64":0.700}' >"$r/a1/rows.json"
printf '%s\n' '{"monitor":"exact","share_before":1,"epochs_to_90":1,"share_first_epoch":0.95,"share_best":1}' >"$r/f0/rows.json"
printf '%s\n' '{"monitor":"cms","share_before":0.9,"epochs_to_90":-1,"share_first_epoch":0.5,"share_best":0.8}' >"$r/f1/rows.json"
printf '%s' '{"hotlist_size":64,"instances":1},{"hotlist_size":64,"instances":2}' >"$r/s0/scale.json"
printf '%s\n' '{"hotlist_size":1024,"instances":1}' >"$r/s1/scale.json"

printf '%s\n%s\n' '{"policy":"dram","t90_ms":500}' '{"policy":"chmu","t90_ms":2000}' >"$r/promote.json"

out=$(bench/results-json.sh "$r") || fail "results-json.sh failed"
jq -e . >/dev/null <<<"$out" || fail "not valid JSON: $out"
expect_eq "$(jq -c '[.version, (.chmu | length), (.accuracy | length), (.shift | length), (.scale | length)]' <<<"$out")" \
	"[1,2,3,2,3]" "version and rows per array"
expect_eq "$(jq -c '[.shift[].epochs_to_90]' <<<"$out")" "[1,-1]" "shift rows"
expect_eq "$(jq -c '[.attribution[] | [.consumer, .drain_ns_per_entry]]' <<<"$out")" \
	'[["chmuheat",2],["chmuheat --by cgroup",3]]' "attribution rows"
rm "$r/attr/attrib.json"
expect_eq "$(bench/results-json.sh "$r" | jq -c .attribution)" "[]" "no attribution boot: an empty array"
expect_eq "$(jq -c '[.promotion[] | [.policy, .t90_ms]]' <<<"$out")" '[["dram",500],["chmu",2000]]' "promotion rows"
expect_eq "$(jq -r '.chmu[1] | "\(.tracker) \(.ratio) \(.epoch_hot) \(.epoch_end_ns)"' <<<"$out")" \
	"t1 0.9 16383 107000" "a chmu row with its epoch-end fields"
expect_eq "$(jq -r '[.accuracy[].monitor] | join("|")' <<<"$out")" \
	"CHMU, exact (chmutop)|DAMON paddr, default attributes|CHMU, cms (chmutop)" "accuracy rows in order"
expect_eq "$(jq -r '.memory.cxl_write, .drain[0].consumer, .scale[2].hotlist_size' <<<"$out" | tr '\n' ' ')" \
	"4 chmutop 1024 " "memory, drain and scale"
# No rows at all (a section not run): an empty array, still valid.
rm -rf "$r"/f0 "$r"/f1
out=$(bench/results-json.sh "$r") || fail "results-json.sh failed on an empty array"
expect_eq "$(jq -c '.shift' <<<"$out")" "[]" "an empty shift array"
# A piece that is not JSON makes the document invalid, and run.sh stops.
echo '{"monitor":' >"$r/a1/rows.json"
out=$(bench/results-json.sh "$r")
jq -e . >/dev/null 2>&1 <<<"$out" && fail "a broken row still made valid JSON"
grep -q 'jq . "$out/results.json" >/dev/null || die' bench/run.sh || fail "run.sh does not check its JSON"
echo ok
