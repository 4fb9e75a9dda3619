# The BPF tools' argument parsing, on the host (nothing is loaded: every
# case fails before the environment check): exit status 1 and a one-line
# reason naming the tool for each bad command line; -h and -V exit 0.
. tests/lib.sh
PATH=$PWD/build/bin:$PATH

usage() { # usage TOOL "ARGS" "first line of stderr"
	local rc=0 out
	# shellcheck disable=SC2086
	out=$($1 $2 2>&1 >/dev/null) || rc=$?
	expect_eq "$rc:$(head -n 1 <<<"$out")" "1:$3" "$1 $2"
}
for t in chmutop chmuheat; do
	usage $t "0" "$t: invalid number '0' (1..86400)"
	usage $t "1 0" "$t: invalid number '0' (1..1000000)"
	usage $t "1 1 1" "$t: unexpected argument '1'"
	usage $t "-m 0" "$t: memdev must be memN, not '0'"
	usage $t "-i 1" "$t: instance must be BLOCK.INSTANCE, not '1'"
	usage $t "-t 5" "$t: configuration options need --enable"
	usage $t "--enable -u 3K" "$t: unit size must be a power of two >= 256, not '3K'"
	usage $t "--enable -M sometimes" "$t: mode must be epoch or always-on, not 'sometimes'"
	usage $t "--enable -d 16" "$t: invalid number '16' (0..15)"
	usage $t "--bogus" "$t: unrecognized option '--bogus'"
	expect_eq "$($t -V)" "$t 0.1" "$t -V"
	$t -h | grep -q -- '--instance=CHMU.INST' || fail "$t -h lacks the shared options"
done
usage chmutop "-s hot" "chmutop: sort key must be count, rate, seen or addr, not 'hot'"
usage chmutop "-r 0" "chmutop: invalid number '0' (1..10000)"
usage chmutop "-g 3K" "chmutop: granularity must be a power of two >= 256, not '3K'"
usage chmuheat "-R 3M" "chmuheat: region size must be a power of two >= 4K, not '3M'"
usage chmuheat "-j --csv" "chmuheat: -j and --csv exclude each other"
usage chmuheat "-g 0" "chmuheat: invalid number '0' (1..4096)"
