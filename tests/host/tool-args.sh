# The BPF tools' argument parsing, on the host (nothing is loaded: every
# case fails before the environment check): exit status 1 and a one-line
# reason naming the tool for each bad command line; -h and -V exit 0.
. tests/lib.sh
PATH=$PWD/build/bin:$PATH

usage() { # usage TOOL "ARGS" "first line of stderr" (ARGS word-split by eval)
	local rc=0 out
	out=$(eval "$1 $2" 2>&1 >/dev/null) || rc=$?
	expect_eq "$rc:$(head -n 1 <<<"$out")" "1:$3" "$1 $2"
}
parses() { # parses TOOL "ARGS": no usage error (on the host: exit 2, no CHMU)
	local rc=0 out
	out=$(eval "$1 $2" 2>&1 >/dev/null) || rc=$?
	expect_eq "$rc" 2 "$1 $2 parses ($(head -n 1 <<<"$out"))"
}
for t in chmutop chmuheat chmualert; do
	# chmualert needs a threshold first: give it one where the case is another
	a=; [ $t = chmualert ] && a="-c 5 "
	usage $t "${a}0" "$t: interval: invalid number '0' (1..86400)"
	usage $t "${a}1 0" "$t: count: invalid number '0' (1..1000000)"
	usage $t "${a}1 1 1" "$t: unexpected argument '1'"
	usage $t "${a}-m 0" "$t: memdev must be memN, not '0'"
	usage $t "${a}-i 1" "$t: instance must be BLOCK.INSTANCE, not '1'"
	usage $t "${a}-t 5" "$t: configuration options need --enable"
	usage $t "${a}--enable -t 0" "$t: -t/--threshold: invalid number '0' (1..4294967295)"
	usage $t "${a}--enable -u 3K" "$t: unit size must be a power of two >= 256, not '3K'"
	usage $t "${a}--enable -M sometimes" "$t: mode must be epoch or always-on, not 'sometimes'"
	usage $t "${a}--enable -d 16" "$t: -d/--downsample: invalid number '16' (0..15)"
	usage $t "${a}--enable -e 0" "$t: -e/--epoch: invalid number '0' (1..40950000000)"
	usage $t "${a}-g 3K" "$t: granularity must be a power of two >= 256, not '3K'"
	usage $t "${a}--bogus" "$t: unrecognized option '--bogus'"
	# numbers are decimal: no octal (017 is seventeen), no hex
	usage $t "${a}--enable -d 017" "$t: -d/--downsample: invalid number '017' (0..15)"
	usage $t "${a}0x10" "$t: interval: invalid number '0x10' (1..86400)"
	usage $t "${a}1 010x" "$t: count: invalid number '010x' (1..1000000)"
	usage $t "${a}' 5'" "$t: interval: invalid number ' 5' (1..86400)"
	usage $t "${a}--enable -u 0x1000" "$t: unit size must be a power of two >= 256, not '0x1000'"
	parses $t "${a}--enable -d 09 -t 010 -u 0256 -e 08 09 010"
	expect_eq "$($t -V)" "$t 0.1" "$t -V"
	$t -h | grep -q -- '--instance=CHMU.INST' || fail "$t -h lacks the shared options"
	# the same letters mean the same thing in every tool
	$t -h | grep -q -- '-v, --verbose' || fail "$t -h lacks -v, --verbose"
	$t -h | grep -q -- '-g, --granularity=SIZE' || fail "$t -h lacks -g, --granularity"
done
usage chmutop "-s hot" "chmutop: sort key must be count, sum, rate, seen or addr, not 'hot'"
usage chmutop "-r 0" "chmutop: -r/--rows: invalid number '0' (1..10000)"
usage chmutop "--max-units 0" "chmutop: --max-units: invalid number '0' (1..4194304)"
usage chmutop "--direct-slots 4194305" "chmutop: --direct-slots: invalid number '4194305' (0..4194304)"
usage chmutop "--direct-slots 010x" "chmutop: --direct-slots: invalid number '010x' (0..4194304)"
usage chmuheat "-j --csv" "chmuheat: -j and --csv exclude each other"
usage chmuheat "--heatmap-rows 0" "chmuheat: --heatmap-rows: invalid number '0' (1..4096)"
usage chmuheat "-r 0" "chmuheat: --heatmap-rows: invalid number '0' (1..4096)"
usage chmuheat "--heatmap-intervals 0" "chmuheat: --heatmap-intervals: invalid number '0' (1..100000)"
usage chmuheat "--window 0" "chmuheat: --heatmap-intervals: invalid number '0' (1..100000)"
usage chmuheat "--region-size 3M" "chmuheat: granularity must be a power of two >= 256, not '3M'"
parses chmuheat "-g 256"
# attribution (--by, -p): the keys each tool knows, and what excludes what
usage chmutop "--by dpa" "chmutop: --by must be unit, cgroup or process, not 'dpa'"
usage chmutop "-p 1,x" "chmutop: -p/--pid: a list of at most 64 process ids (PID,PID,...), not '1,x'"
usage chmutop "-p 1," "chmutop: -p/--pid: a list of at most 64 process ids (PID,PID,...), not '1,'"
usage chmuheat "--by dpa" "chmuheat: --by must be unit or cgroup, not 'dpa'"
parses chmuheat "--by unit"
parses chmuheat "--by instance"
usage chmu-exporter "--by process" "chmu-exporter: --by must be unit or cgroup, not 'process'"
parses chmu-exporter "--by unit -j"
usage chmuheat "--csv --by cgroup" "chmuheat: --by cgroup has no CSV form (-j has it)"
usage chmuheat "--by cgroup --csv" "chmuheat: --by cgroup has no CSV form (-j has it)"
usage chmualert "-c 5 --by region" "chmualert: --by must be unit or cgroup, not 'region'"
usage chmualert "-c 5 -g 2M --by cgroup" "chmualert: -g and --by cgroup exclude each other: a key is a region or a cgroup"
# the drain's attribution budget: the same option in the three tools that attribute there
usage chmuheat "--max-attr-pages 0" "chmuheat: --max-attr-pages: invalid number '0' (1..16777216)"
usage chmualert "-c 5 --max-attr-pages 16777217" "chmualert: --max-attr-pages: invalid number '16777217' (1..16777216)"
usage chmu-exporter "--max-attr-pages x" "chmu-exporter: --max-attr-pages: invalid number 'x' (1..16777216)"
usage chmutop "--max-attr-pages 5" "chmutop: unrecognized option '--max-attr-pages'"
usage chmu-exporter "--max-cgroups 0" "chmu-exporter: --max-cgroups: invalid number '0' (1..4096)"
chmuheat -h | grep -q -- 'region-size' && fail "chmuheat -h shows the hidden --region-size"
usage chmualert "" "chmualert: give a threshold: -c/--count N or -R/--rate N"
usage chmualert "-c 0" "chmualert: -c/--count: invalid number '0' (1..4294967295)"
usage chmualert "-c 5 -R 5" "chmualert: give one of -c/--count and -R/--rate"
usage chmualert "-c 10 -L 20" "chmualert: the re-arm level must not exceed the threshold"
usage chmualert "-c 5 -w 0" "chmualert: -w/--window: invalid seconds '0' (0.001..86400)"
usage chmualert "-c 5 -H -1" "chmualert: -H/--holdoff: invalid seconds '-1' (0..86400)"
usage chmualert "-c 5 -w 0x10" "chmualert: -w/--window: invalid seconds '0x10' (0.001..86400)"
usage chmualert "-c 5 -w 1e3" "chmualert: -w/--window: invalid seconds '1e3' (0.001..86400)"
usage chmualert "-c 5 -H inf" "chmualert: -H/--holdoff: invalid seconds 'inf' (0..86400)"
parses chmualert "-c 010 -w 010 -H 0.5"
usage chmu-exporter "--threads 0x10" "chmu-exporter: --threads: invalid number '0x10' (1..64)"
usage chmu-exporter "-g 0x100" "chmu-exporter: granularity must be a power of two >= 256, not '0x100'"
usage chmualert "-c 5 --exec-max 0" "chmualert: --exec-max: invalid number '0' (1..1024)"
usage chmualert "-c 5 --ringbuf-size 3K" "chmualert: ring buffer size must be a power of two >= 4K, not '3K'"
chmualert -h | grep -q -- '-L, --rearm=N' || fail "chmualert -h lacks -L, --rearm"

# chmu-exporter: a daemon, so no interval; its own options named.
usage chmu-exporter "5" "chmu-exporter: unexpected argument '5' (the exporter runs until SIGTERM)"
usage chmu-exporter "-l host:0" "chmu-exporter: -l/--listen: invalid address 'host:0' (ADDR:PORT, :PORT or [V6ADDR]:PORT)"
usage chmu-exporter "-l ::1" "chmu-exporter: -l/--listen: invalid address '::1' (ADDR:PORT, :PORT or [V6ADDR]:PORT)"
usage chmu-exporter "-g 3K" "chmu-exporter: granularity must be a power of two >= 256, not '3K'"
usage chmu-exporter "--max-regions 0" "chmu-exporter: --max-regions: invalid number '0' (1..262144)"
usage chmu-exporter "--threads 65" "chmu-exporter: --threads: invalid number '65' (1..64)"
usage chmu-exporter "-t 5" "chmu-exporter: configuration options need --enable"
usage chmu-exporter "-m 0" "chmu-exporter: memdev must be memN, not '0'"
expect_eq "$(chmu-exporter -V)" "chmu-exporter 0.1" "chmu-exporter -V"
chmu-exporter -h | grep -q -- '--listen=ADDR:PORT' || fail "chmu-exporter -h lacks --listen"

# docs/options.md: one row per option, one meaning, a column per tool.
# Each tool's --help and man page (docs/man/) list exactly its "yes"
# rows; its "old" spellings parse; an option of an empty cell is refused.
OPTS=docs/options.md
col=4
for t in chmutop chmuheat chmualert chmu-exporter; do
	col=$((col + 1))
	# "-r,--rows" or "--by" per option line of --help
	helped=$($t --help | sed -nE 's/^ +(-(.), )?(--[a-z][a-z-]*).*/\2 \3/p' |
		awk '{ print NF == 2 ? "-" $1 "," $2 : $1 }' | sort)
	table=$(awk -F'|' -v c="$col" '$2 ~ /^ `-/ && $c ~ /^ *yes *$/ {
		o = $2; gsub(/[` ]/, "", o); print o }' "$OPTS" | sort)
	expect_eq "$helped" "$table" "$t --help against $OPTS"
	# and its man page's OPTIONS
	manned=$(LC_ALL=C MANWIDTH=200 man -l "docs/man/$t.8" 2>/dev/null | sed -n '/^OPTIONS/,/^[A-Z]/p' |
		sed -nE 's/^ +(-(.), )?(--[a-z][a-z-]*).*/\2 \3/p' |
		awk '{ print NF == 2 ? "-" $1 "," $2 : $1 }' | sort)
	expect_eq "$manned" "$table" "docs/man/$t.8 against $OPTS"
	# every other row: "SPELLINGS|ARG|CELL"
	while IFS='|' read -r spell arg cell; do
		case "$arg" in
		N) val=4 ;; SIZE) val=4K ;; SECS) val=5 ;; KEY) val=cgroup ;; "") val= ;; *) val=x ;;
		esac
		a=; [ $t = chmualert ] && a="-c 5 "
		if [ -z "$cell" ]; then
			for o in ${spell//,/ }; do
				rc=0; out=$($t $a$o $val 2>&1 >/dev/null) || rc=$?
				case "$(head -n 1 <<<"$out")" in
				"$t: unrecognized option '$o'" | "$t: invalid option -- '${o#-}'") echo "ok: $t refuses $o" ;;
				*) fail "$t $o: not refused as $OPTS says ('$(head -n 1 <<<"$out")')" ;;
				esac
			done
		else
			only=$(sed -nE 's/^old (--?[a-z-]+):.*/\1/p' <<<"$cell")
			for o in ${only:-${spell//,/ }}; do
				parses $t "$a$o $val"
			done
		fi
	done < <(awk -F'|' -v c="$col" '$2 ~ /^ `-/ && $c !~ /^ *yes *$/ {
		o = $2; gsub(/[` ]/, "", o); a = $3; gsub(/ /, "", a)
		v = $c; gsub(/^ +| +$/, "", v); gsub(/`/, "", v); print o "|" a "|" v }' "$OPTS")
done

# The bench helpers: chmu-workload zipf and move, and chmu-score.
usage chmu-workload "zipf --anon --zipf -1" "chmu-workload: invalid Zipf exponent '-1' (0 to 16)"
usage chmu-workload "zipf --anon --accesses 0" "chmu-workload: invalid access count '0'"
usage chmu-workload "stream --anon --truth x" "chmu-workload: --truth is for zipf"
usage chmu-workload "stream --anon --shift" "chmu-workload: --shift is for zipf"
usage chmu-workload "zipf --anon --unit-size 8K --truth x" "chmu-workload: --truth on anonymous memory needs --unit-size of one page"
usage chmu-workload "move --pid 1 --size 4K --node 0" "chmu-workload: move needs --pid, --addr, --size and --node only"
usage chmu-workload "move --pid 1 --addr 1001 --size 4K --node 0" "chmu-workload: invalid address '1001' (hex, a page boundary)"
usage chmu-workload "move --pid 0 --addr 1000 --size 4K --node 0" "chmu-workload: invalid PID '0'"
usage chmu-workload "move --pid 1 --addr 1000 --size 5000 --node 0" "chmu-workload: move: --size is not a whole number of pages"
usage chmu-workload "touch --node 0 --units 1 --pid 3" "chmu-workload: --pid and --addr are for move"
usage chmu-workload "balloon --size 4K" "chmu-workload: balloon needs --node and --size only"
usage chmu-workload "balloon --node 0 --anon --size 4K" "chmu-workload: balloon needs --node and --size only"
usage chmu-workload "pin" "chmu-workload: pin needs a FILE"
usage chmu-workload "pin --node 0 /etc/hostname" "chmu-workload: pin takes FILE... only"
usage chmu-workload "touch --anon --units 1 x" "Usage: chmu-workload [OPTION...] MODE"
usage chmu-workload "zipf --anon --window-from 50" "chmu-workload: --window-from needs --progress"
usage chmu-workload "zipf --node 0 --progress 100 --window-from 100" "chmu-workload: invalid window start '100' (a percent, 0-99)"
usage chmu-workload "zipf --node 0 --progress 100 --fast-node x" "chmu-workload: invalid fast node 'x'"
usage chmu-workload "verify --anon --mark 1" "chmu-workload: --mark is for touch, stream and zipf"
usage chmu-workload "zipf --anon --mark x" "chmu-workload: invalid tag 'x' (a decimal number)"
usage chmu-workload "mark" "chmu-workload: mark needs reset or dump"
usage chmu-workload "mark flush" "chmu-workload: mark takes reset or dump, then a TAG"
usage chmu-workload "mark dump 1 --size 4K" "chmu-workload: mark takes reset or dump and a TAG only"
usage chmu-score "-k 0 a b" "chmu-score: invalid K '0'"
usage chmu-score "a" "chmu-score: give TRUTH and REPORT files"
tmp=$(mktemp -d)
# 10000 draws over 16 units, s = 1, the default seed: the truth sums to
# 10000, unit 7 is the hottest with 2968 (P(rank 0) = 1/H(16) = 0.296).
out=$(chmu-workload zipf --anon --size 64K --accesses 10000 --truth "$tmp/truth")
expect_eq "$(kv hottest_unit "$out"):$(kv hottest_count "$out")" "7:2968" "zipf hottest"
expect_eq "$(awk '!/^#/ { s += $2; n++ } END { print s, n }' "$tmp/truth")" "10000 16" "zipf truth total"
# --shift: the whole run is still the truth; TRUTH.after holds the second
# half alone (5000 draws), hottest on another unit than before.
out=$(chmu-workload zipf --anon --size 64K --accesses 10000 --shift --truth "$tmp/st")
expect_eq "$(awk '!/^#/ { s += $2 } END { print s }' "$tmp/st"):$(awk '!/^#/ { s += $2 } END { print s }' "$tmp/st.after")" \
	"10000:5000" "zipf --shift truth totals"
[ -n "$(kv shift_ns "$out")" ] || fail "zipf --shift prints no shift_ns"
out2=$(chmu-workload zipf --anon --size 64K --accesses 10000 --shift --truth "$tmp/st2")
expect_eq "$(kv hottest_unit "$out2")" "$(kv hottest_unit "$out")" "zipf --shift repeats"
# the first half's hottest unit (whole run minus second half) is not the
# second half's
hot() { grep -v '^#' "$1" | sort -k2 -n -r | head -n 1 | cut -d' ' -f1; }
awk 'FNR == NR { if (!/^#/) a[$1] = $2; next } !/^#/ { print $1, $2 - a[$1] }' \
	"$tmp/st.after" "$tmp/st" >"$tmp/st.before"
[ "$(hot "$tmp/st.before")" != "$(hot "$tmp/st.after")" ] ||
	fail "the hottest unit of the second half did not move"
# The same truth reported back scores 1; a region over all 16 units
# cannot tell them apart; a bad line names file and line.
grep -v '^#' "$tmp/truth" >"$tmp/same"
out=$(chmu-score -k 4 "$tmp/truth" "$tmp/same")
expect_eq "$(kv recall "$out"):$(kv precision "$out"):$(kv tied "$out")" "1.000:1.000:1" "score of the truth"
expect_eq "$(kv ratio "$out")" "1.000" "ratio of the truth"
for u in $(seq 0 15); do echo "$((u * 4096)) $((100 - u))"; done >"$tmp/lin"
echo "0 $((16 * 4096)) 20" >"$tmp/region"
out=$(chmu-score -k 4 "$tmp/lin" "$tmp/region")
expect_eq "$(kv reported "$out"):$(kv tied "$out"):$(kv captured "$out")" "4:16:0.247" "score of one region (4 of 16 tied units)"
expect_eq "$(kv ideal "$out")" "$(awk 'BEGIN { printf "%.3f", 394 / 1480 }')" "ideal share"
printf '0x1000 5\nnot a line\n' >"$tmp/bad"
usage chmu-score "$tmp/truth $tmp/bad" "chmu-score: $tmp/bad:2: expected ADDR SCORE or START END SCORE (START < END)"
rm -rf "$tmp"
