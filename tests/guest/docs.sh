# Every example on the documentation pages runs as written and prints what
# the page shows (tests/doc/doctest.sh: console and sh blocks; the fence
# classes are checked on the host by tests/host/doc-lint.sh). Each page
# starts from a clean guest state: no region, the driver not loaded, the
# chmu events off and the trace empty.
. tests/lib.sh
T=/sys/kernel/tracing
reset() {
	chmu-region destroy all >/dev/null 2>&1 || true
	modprobe -r cxl_hmu 2>/dev/null || true
	[ ! -e $T/events/chmu/enable ] || echo 0 >$T/events/chmu/enable
	echo >$T/trace
}
trap reset EXIT
bad=0
pages=(README.md docs/*.md)
for page in "${pages[@]}"; do
	reset
	tests/doc/doctest.sh "$page" || bad=1
done
[ $bad -eq 0 ] || fail "documentation examples differ from what they do"
echo "ok: ${#pages[@]} pages"
