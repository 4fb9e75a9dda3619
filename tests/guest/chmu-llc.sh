# guest-env: CHMU_PROPS=chmu-llc-size=64K
# A modelled 64 KiB last-level cache (64 sets of 16 lines) in front of the
# counters, with the device counting 64-byte requests (the default): only
# line fills and dirty write-backs reach it. touch_units loads unit 3's
# first word 100 times: one fill. stream then stores to word 0 of each
# 4 KiB unit (a fill, read for ownership, for every unit but 3, whose line
# is cached) and reads all 2 MiB: every line is filled, each unit's first
# line again (lines at a 4 KiB stride share a set, and 16 stores later it
# was evicted), and every stored line is written back when it is evicted:
# 1 + 64 + 1 = 66 requests per unit. Always-on mode makes that exact
# without depending on epochs: at threshold 66 each unit posts once, at
# 67 none does (each enable starts with an empty cache).
. tests/lib.sh
chmu_setup

run() { # run THRESHOLD: the entries of the workload
	chmu-regs enable -m always-on -t "$1" -u 12 >/dev/null
	touch_units 3 100
	chmu-workload stream --dax "$DEV" --size 2M --passes 1 >/dev/null
	entries
	chmu-regs disable >/dev/null
}
out=$(run 66)
echo "$out"
expect_eq "$(tr ' ' '\n' <<<"$out" | sort -n | tr '\n' ' ' | sed 's/ $//')" \
	"$(seq -s ' ' -f '%g:66' 0 511)" "each of the 512 units posted once at 66"
expect_eq "$(run 67)" "" "entries at threshold 67"
