# Host test of the shipped Prometheus rules: promtool (Debian's, unpacked
# into the cache by lab/deps.sh) checks tools/prometheus/chmu.rules.yml and
# runs tests/host/promtool/chmu.rules.test.yml: recording rules give the
# exact rates, each alert fires when and only when its series say so.
. tests/lib.sh
promtool=${CHMU_CACHE:-$HOME/.cache/chmu}/prometheus/usr/bin/promtool
[ -x "$promtool" ] || fail "no promtool at $promtool: run 'make deps'"
out=$("$promtool" check rules tools/prometheus/chmu.rules.yml 2>&1) ||
	fail "promtool check rules: $out"
expect_eq "$(grep -o 'SUCCESS: [0-9]* rules found' <<<"$out")" "SUCCESS: 7 rules found" "rules checked"
out=$(cd tests/host/promtool && "$promtool" test rules chmu.rules.test.yml 2>&1) ||
	fail "promtool test rules: $out"
grep -q SUCCESS <<<"$out" || fail "promtool test rules: $out"
echo "ok: rule unit tests pass"
