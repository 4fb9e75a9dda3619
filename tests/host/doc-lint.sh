# Every fenced block of README.md and docs/*.md says what it is, so no
# command on those pages escapes a test (tests/doc/doctest.sh, run in the
# guest by tests/guest/docs.sh, runs console and sh blocks):
#   console | sh         run by tests/guest/docs.sh
#   sh tests/X.sh        run by that test, which must name the page
#   sh host              host commands: each "make TARGET" is a target
#   text                 output samples and synopses
. tests/lib.sh
bad=0
n=0
for page in README.md docs/*.md; do
	while IFS=: read -r ln info; do
		n=$((n + 1))
		case "$info" in
		console | sh | text) ;;
		"sh host")
			# the make targets the block names exist
			for t in $(awk -v l="$ln" 'NR > l && /^```/ { exit } NR > l' "$page" |
				grep -o '^make [a-z-]*' | cut -d' ' -f2); do
				grep -q "^$t:" Makefile || { echo "FAIL: $page:$ln: no make target '$t'"; bad=1; }
			done
			;;
		"sh tests/"*)
			t=${info#sh }
			[ -f "$t" ] || { echo "FAIL: $page:$ln: $t does not exist"; bad=1; continue; }
			grep -q "$page" "$t" || { echo "FAIL: $page:$ln: $t does not use $page"; bad=1; }
			;;
		*) echo "FAIL: $page:$ln: fence '$info' is not console, sh, sh host, sh tests/..., text"; bad=1 ;;
		esac
	done < <(awk '/^```/ { if (!inb) { print NR ":" substr($0, 4); inb = 1 } else inb = 0 }' "$page")
done
[ $bad -eq 0 ] || fail "unclassified or unchecked blocks"
echo "ok: $n fenced blocks classified"
