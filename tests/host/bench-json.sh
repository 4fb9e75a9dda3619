# bench/results-json.sh writes valid JSON, the shape docs/bench.md gives:
# each section's value from the pieces its guest boots leave (rows that
# end with a newline or without one, several files per array, a scale
# file of several rows), and the document from the sections a store
# keeps (a section never measured holds its key's empty value).
. tests/lib.sh
command -v jq >/dev/null || fail "jq missing (lab/deps.sh installs it)"
r=$(mktemp -d)
trap 'rm -rf "$r"' EXIT
sec() { bench/results-json.sh section "$1" "$r/$1"; }
mkdir -p "$r"/memory/base "$r"/cost/{m0,m1} "$r"/drain/drain "$r"/attribution/attr "$r"/accuracy/{a0,a1} \
	"$r"/shift/{f0,f1} "$r"/scale/{s0,s1} "$r"/promotion
echo '{"dram_read":1,"dram_write":2,"cxl_read":3,"cxl_write":4}' >"$r/memory/base/section.json"
for i in 0 1; do
	printf '{"tracker":"t%s","rounds":5,"disabled":10,"enabled":9,"ratio":0.900,"ratio_min":0.8,"ratio_max":1.1}' "$i" >"$r/cost/m$i/row.json"
	printf ',"epoch_hot":%s,"epoch_posted":1023,"epoch_end_ns":107000}' $((16384 - i)) >"$r/cost/m$i/epoch.json"
done
printf '[{"consumer":"chmutop","rounds":5,"entries":5,"drain_ns_per_entry":1.5}]' >"$r/drain/drain/drain.json"
printf '[{"consumer":"chmuheat","rounds":5,"entries":5,"drain_ns_per_entry":2},{"consumer":"chmuheat --by cgroup","rounds":5,"entries":5,"drain_ns_per_entry":3}]\n' >"$r/attribution/attr/attrib.json"
printf '%s\n%s\n' '{"monitor":"CHMU, exact (chmutop)","recall64":1.000,"ratio64":1.000}' \
	'{"monitor":"DAMON paddr, default attributes","recall64":0.016,"ratio64":0.022}' >"$r/accuracy/a0/rows.json"
printf '%s' '{"monitor":"CHMU, cms (chmutop)","recall64":0.390,"ratio64":0.700}' >"$r/accuracy/a1/rows.json"
printf '%s\n' '{"monitor":"exact","share_before":1,"epochs_to_90":1,"share_first_epoch":0.95,"share_best":1}' >"$r/shift/f0/rows.json"
printf '%s\n' '{"monitor":"cms","share_before":0.9,"epochs_to_90":-1,"share_first_epoch":0.5,"share_best":0.8}' >"$r/shift/f1/rows.json"
printf '%s' '{"hotlist_size":64,"instances":1},{"hotlist_size":64,"instances":2}' >"$r/scale/s0/scale.json"
printf '%s\n' '{"hotlist_size":1024,"instances":1}' >"$r/scale/s1/scale.json"
printf '%s\n%s\n' '{"policy":"dram","t90_ms":500}' '{"policy":"chmu","t90_ms":2000}' >"$r/promotion/promote.json"

expect_eq "$(sec memory | jq -c '.cxl_write')" 4 "memory"
expect_eq "$(sec cost | jq -r '"\(length) \(.[1] | "\(.tracker) \(.ratio) \(.epoch_hot) \(.epoch_end_ns)")"')" \
	"2 t1 0.9 16383 107000" "a chmu row with its epoch-end fields"
expect_eq "$(sec drain | jq -r '.[0].consumer')" chmutop "drain"
expect_eq "$(sec attribution | jq -c '[.[] | [.consumer, .drain_ns_per_entry]]')" \
	'[["chmuheat",2],["chmuheat --by cgroup",3]]' "attribution rows"
expect_eq "$(sec accuracy | jq -r '[.[].monitor] | join("|")')" \
	"CHMU, exact (chmutop)|DAMON paddr, default attributes|CHMU, cms (chmutop)" "accuracy rows in order, from two files"
expect_eq "$(sec shift | jq -c '[.[].epochs_to_90]')" "[1,-1]" "shift rows"
expect_eq "$(sec scale | jq -c '[.[].hotlist_size]')" "[64,64,1024]" "scale rows: a file of two rows and one of one"
expect_eq "$(sec promotion | jq -c '[.[] | [.policy, .t90_ms]]')" '[["dram",500],["chmu",2000]]' "promotion rows"
mkdir -p "$r/tiering"
expect_eq "$(sec tiering)" "[]" "tiering never measured: no rows"
printf '[%s,\n%s]\n' '{"ratio":4,"policy":"none","x_dram_steady":0.3}' '{"ratio":4,"policy":"chmu","x_dram_steady":0.6}' >"$r/tiering/tier.json"
expect_eq "$(sec tiering | jq -c '[.[] | [.policy, .x_dram_steady]]')" '[["none",0.3],["chmu",0.6]]' "tiering rows"
rm -rf "$r/tiering"
mkdir -p "$r/tierblocks"
expect_eq "$(sec tierblocks)" "null" "tiering blocks never measured: null"
echo '{"arms":["chmu","none"],"runs":[],"contrasts":[],"drift":[]}' >"$r/tierblocks/blocks.json"
expect_eq "$(sec tierblocks | jq -c .arms)" '["chmu","none"]' "tiering blocks"
rm -rf "$r/tierblocks"
rm "$r/attribution/attr/attrib.json"
expect_eq "$(sec attribution)" "[]" "no attribution boot: an empty array"
rm -r "$r"/shift/f0 "$r"/shift/f1
expect_eq "$(sec shift)" "[]" "no rows at all: an empty array"

# The document: the sections the store keeps (those with a stamp), each
# section's value as run.sh kept it; the others empty.
s=$r/store
for n in memory cost scale; do
	mkdir -p "$s/$n"
	sec "$n" >"$s/$n/section.json"
	printf '{"section":"%s","commit":"unknown","measured_at":"2026-12-06T01:00:00Z","seconds":1,"host":{"busy":false}}' "$n" >"$s/$n/stamp.json"
done
mkdir -p "$s/drain"
sec drain >"$s/drain/section.json"	# no stamp: not a section kept
out=$(bench/results-json.sh "$s") || fail "results-json.sh failed"
jq -e . >/dev/null <<<"$out" || fail "not valid JSON: $out"
expect_eq "$(jq -c '[.version, .kind, .memory.dram_read, (.chmu | length), (.scale | length), .epoch_end, .drain, .attribution, .accuracy, .shift, .promotion, .goals]' <<<"$out")" \
	'[1,"bench",1,2,3,[],[],[],[],[],[],[]]' "version, kind, the kept sections' rows, the others empty"
expect_eq "$(jq -c '[.sections | to_entries[] | [.key, .value.stale]]' <<<"$out")" \
	'[["memory",true],["cost",true],["epochs",null],["drain",null],["attribution",null],["accuracy",null],["shift",null],["scale",true],["promotion",null],["tiering",null],["tierblocks",null]]' \
	"every section in sections: null when not kept; stale when not measured on HEAD"
rm -r "$s/memory"
expect_eq "$(bench/results-json.sh "$s" | jq -c .memory)" null "memory never measured: null"
# A piece that is not JSON makes the document invalid, and run.sh stops.
echo '{"monitor":' >"$s/scale/section.json"
out=$(bench/results-json.sh "$s")
jq -e . >/dev/null 2>&1 <<<"$out" && fail "a broken row still made valid JSON"
grep -q 'jq . "$out/$report.json.new" >/dev/null || die' bench/run.sh || fail "run.sh does not check its JSON"
echo ok
