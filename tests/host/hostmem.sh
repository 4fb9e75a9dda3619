# bench/hostmem.c, the host memory probe docs/bench.md quotes: it builds
# without warnings, refuses bad arguments with its usage (exit 2), and a
# one-second run over 1 MiB says how much of it is in huge pages and
# prints one rate per half second.
. tests/lib.sh
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
cc -O2 -Wall -Wextra -Werror -o "$T/hostmem" bench/hostmem.c || fail "bench/hostmem.c does not build cleanly"
for args in "" "512M 1 4k" "3 1 4k" "0 1 4k" "1 0 4k" "1 1 2m" "1 x thp" "1 1 4k serial extra" "1 1 4k fast"; do
	# shellcheck disable=SC2086
	"$T/hostmem" $args >"$T/out" 2>"$T/err" && fail "hostmem $args: accepted"
	rc=$?
	expect_eq "$rc $(head -c 14 "$T/err")" "2 usage: hostmem" "hostmem '$args': exit status and message"
	[ ! -s "$T/out" ] || fail "hostmem $args: printed a rate"
done
for mode in serial parallel; do
	"$T/hostmem" 1 1 4k $mode >"$T/out" 2>"$T/err" || fail "hostmem 1 1 4k $mode: exit status $?"
	grep -Eq '^hostmem: AnonHugePages: +[0-9]+ kB$' "$T/err" || fail "no AnonHugePages line: $(cat "$T/err")"
	n=$(grep -Ec '^[0-9]+\.[0-9]$' "$T/out")
	[ "$n" -ge 1 ] && [ "$n" -eq "$(wc -l <"$T/out")" ] || fail "rates: $(cat "$T/out")"
	awk '$1 <= 0 { exit 1 }' "$T/out" || fail "a rate of 0: $(cat "$T/out")"
	echo "ok: $mode: $n rates"
done
