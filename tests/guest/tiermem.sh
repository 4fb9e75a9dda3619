# guest-env: TIERMEM=1 TIERMEM_PAGES=1
# The tiermem instrument (qemu/plugins/tiermem.c, loaded by run-guest.sh)
# against known accesses, with chmu-workload's marker around them
# (--mark TAG: a reset just before the accesses, a dump just after):
# loads and stores from user mode to the CXL window are exactly the
# workload's, on the window's 256 MiB chunk, per page where pages=on;
# the Zipf workload's loads exactly its --accesses; loads to DRAM are
# classed as ram, not cxl; a reset and a dump by the marker alone count
# an unmarked workload the same. The examples of docs/tiering.md are
# these commands (tests/host/tierstat.sh: the marker is a no-op outside
# QEMU).
. tests/lib.sh
chmu_setup
T=$CHMU_RESULTS/tiermem.txt
[ -f "$T" ] || fail "no $T: the guest was not started with TIERMEM=1"

# tm TAG KEY...: the sum over the dump TAG's lines that have every KEY
# (key=value words) of the value of the last word's field, e.g.
# tm 11 mode=user class=cxl loads
tm() {
	local tag=$1 field=${*: -1}
	local keys=("${@:2:$#-2}")
	awk -v tag="tag=$tag" -v f="$field" -v keys="${keys[*]}" '
		$1 == "tiermem" && $2 == tag {
			n = split(keys, k, " ")
			for (i = 1; i <= n; i++) {
				hit = 0
				for (j = 3; j <= NF; j++) if ($j == k[i]) hit = 1
				if (!hit) next
			}
			for (j = 3; j <= NF; j++) if (index($j, f "=") == 1) s += substr($j, length(f) + 2)
		}
		END { print s + 0 }' "$T"
}
dumped() { grep -c "^tiermem end tag=$1\$" "$T"; }

# Units 3 and 7 read 1000 times each: 2000 loads from user mode to CXL.
chmu-workload touch --dax "$DEV" --size 4M --units 3,7 --count 1000 --mark 11 >/dev/null
expect_eq "$(dumped 11)" 1 "one dump tagged 11"
expect_eq "$(tm 11 mode=user class=cxl loads) $(tm 11 mode=user class=cxl stores)" "2000 0" \
	"touch 3,7 x 1000: user loads and stores to CXL"
chunk=$(printf 'chunk=0x%x' $((HPA & ~((1 << 28) - 1))))
expect_eq "$(tm 11 "$chunk" user_loads)" 2000 "the region's chunk ($chunk)"
# pages_in TAG LO HI: the dump's pages in [LO, HI), as "OFFSET accesses=N;"
pages_in() {
	local _t _tag page acc a
	while read -r _t _tag page acc; do
		a=$((${page#page=}))
		[ "$a" -ge "$2" ] && [ "$a" -lt "$3" ] && printf '0x%x %s;' $((a - $2)) "$acc"
	done < <(grep "^tiermem tag=$1 page=" "$T")
	return 0
}
expect_eq "$(pages_in 11 $((HPA)) $((HPA + 4 * 1048576)))" \
	"0x3000 accesses=1000;0x7000 accesses=1000;" "per page: the two units' pages"
insns=$(tm 11 insns)
[ "$insns" -gt 2000 ] || fail "instructions counted: $insns"
echo "ok: $insns instructions between the marks"

# Stores: unit 5 written 300 times.
chmu-workload touch --dax "$DEV" --size 4M --units 5 --count 300 --write --mark 12 >/dev/null
expect_eq "$(tm 12 mode=user class=cxl loads) $(tm 12 mode=user class=cxl stores)" "0 300" \
	"touch --write 5 x 300: user stores to CXL"

# The Zipf workload: its loads to the CXL window are its --accesses.
chmu-workload zipf --dax "$DEV" --size 4M --accesses 100000 --mark 13 >/tmp/tm.zipf
expect_eq "$(tm 13 mode=user class=cxl loads)" \
	"$(awk -F= '$1 == "accesses" { print $2 }' /tmp/tm.zipf)" "zipf: user loads to CXL = its accesses"
expect_eq "$(tm 13 mode=user class=cxl loads)" 100000 "zipf: 100000 loads"

# DRAM: anonymous memory on node 0 is ram, never cxl.
chmu-workload touch --node 0 --size 1M --units 2 --count 700 --mark 14 >/dev/null
expect_eq "$(tm 14 mode=user class=cxl loads)" 0 "node 0: no load to CXL"
ram=$(tm 14 mode=user class=ram loads)
[ "$ram" -ge 700 ] || fail "node 0: $ram user loads from ram, fewer than the workload's 700"
echo "ok: node 0: $ram user loads from ram (the workload's 700 and its own)"

# The marker alone: a reset, the workload unmarked, a dump: the same sums.
chmu-workload mark reset 0
chmu-workload touch --dax "$DEV" --size 4M --units 9 --count 50
chmu-workload mark dump 15
expect_eq "$(tm 15 mode=user class=cxl loads)" 50 "mark reset, touch, mark dump"
rc=0; out=$(chmu-workload mark dump x 2>&1) || rc=$?
expect_eq "$rc:$(head -n 1 <<<"$out")" "1:chmu-workload: invalid tag 'x' (a decimal number)" "bad tag"
