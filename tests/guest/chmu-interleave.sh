# guest-env: CXL_DEVICES=2
# A region interleaved across two devices at 4 KiB granularity: each
# device's CHMU sees only its share of the region's pages, at its own
# DPAs. A workload in a cgroup reads sixteen pages of the region a known
# number of times (epoch mode, threshold 1, reads only: exact whichever
# epochs the reads fall in). The driver reports each read page on the
# memdev the interleave puts it on, at the DPA the interleave gives it,
# with the HPA the workload's pagemap has, and its exact count; chmutop -G
# and chmuheat --by cgroup (which attribute per frame and in the drain)
# put every unit under the workload's cgroup with its exact sum. With
# 2 MiB units, a unit's HPA is its first granule's and only that granule
# (one page) is walked for its owners, the rest counted unwalked.
. tests/lib.sh
hmu_setup
HMU0=$HMU
HMU1=/sys/bus/cxl/devices/hmu_mem1.0/hmu_mem1.0.0
[ -d $HMU1 ] || fail "no $HMU1 with two devices"
CG=/sys/fs/cgroup
GRAN=4096
wl=
top=
heat=
cleanup() {
	for p in $wl $top $heat; do kill "$p" 2>/dev/null || true; done
	wait 2>/dev/null || true
	rmdir $CG/chmu-il 2>/dev/null || true
	chmu_cleanup
}
trap cleanup EXIT
eval "$(chmu-region create -m mem0,mem1 -g $GRAN --ram)"
expect_eq "$(cat /sys/bus/cxl/devices/$REGION/interleave_ways) $(cat /sys/bus/cxl/devices/$REGION/interleave_granularity)" \
	"2 $GRAN" "the region's interleave"
# the region's interleave positions: the memdev and the DPA base of each
# (the endpoint decoder in target I, its endpoint's upstream port)
declare -a pos_md pos_base
for i in 0 1; do
	ed=$(cat /sys/bus/cxl/devices/$REGION/target$i)
	pos_md[i]=$(basename "$(readlink -f "$(dirname "$(readlink -f /sys/bus/cxl/devices/$ed)")/uport")")
	pos_base[i]=$(($(cat /sys/bus/cxl/devices/$ed/dpa_resource)))
	[ $((pos_base[i] % 0x200000)) -eq 0 ] || fail "$ed's DPA base $(printf %#x ${pos_base[i]}) is not 2 MiB aligned"
done
expect_eq "${pos_md[*]}" "mem0 mem1" "the region's targets"
# place HPA: "MEMDEV DPA" of the page at HPA, as the 2-way interleave at
# GRAN puts it
place() {
	local off=$(($1 - HPA)) w
	w=$(((off / GRAN) % 2))
	printf '%s %#x' "${pos_md[w]}" $((pos_base[w] + (off / (2 * GRAN)) * GRAN + off % GRAN))
}
grep -qw memory $CG/cgroup.subtree_control || echo +memory >$CG/cgroup.subtree_control
mkdir $CG/chmu-il

# both: hmu_cfg ATTR=VALUE... on both devices' instances
both() {
	local h
	for h in $HMU0 $HMU1; do HMU=$h hmu_cfg "$@"; done
}
both mode=epoch threshold=1 epoch_us=200000 unit_shift=12 access=1 fill_threshold=0 poll_ms=100 enable=1

start_tool top /tmp/il.top chmutop -b -j -G -r 1000 1
start_tool heat /tmp/il.heat chmuheat -j --no-heatmap --by cgroup 1
echo 0 >$TRACE/tracing_on
echo >$TRACE/trace
echo 1 >$TRACE/tracing_on

# sixteen pages (on both devices unless all their frames interleave to
# one), 0 and 3 read 20 times, the others 10 times: 180 reads
sh -c 'echo $$ >'$CG/chmu-il'/cgroup.procs && exec chmu-workload "$@"' sh \
	touch --node "$NODE" --no-thp --size 64K --unit-size 4K --units 0-15,0,3 --count 10 \
	--hold >/tmp/il.wl &
wl=$!
wait_for "the workload did not hold" grep -q '^held=' /tmp/il.wl
out=$(cat /tmp/il.wl)
echo "$out"

# The truth from the pagemap: "memN DPA HPA COUNT" per page read
PAGES=$(seq 0 15)
reads() { echo $(($1 == 0 || $1 == 3 ? 20 : 10)); }
declare -A want=()
for k in $PAGES; do
	p=$(($(kv phys$k "$out")))
	[ "$p" -ge $((HPA)) ] && [ "$p" -lt $((HPA + SIZE)) ] || fail "page $k at $(printf %#x $p), not in $REGION"
	want["$(place $p) $(printf %#x $p)"]=$(reads $k)
done
truth=$(for k in "${!want[@]}"; do echo "$k ${want[$k]}"; done | sort | tr '\n' ';')
# traced: the same from the driver's entry events, counts summed per page
traced() {
	awk -v want="$truth" '/chmu_hotlist_entry:/ {
			m = $0; sub(/.*chmu_hotlist_entry: /, "", m); split(m, f, " ")
			d = f[5]; sub(/dpa=/, "", d); h = f[6]; sub(/hpa=/, "", h); c = f[8]; sub(/count=/, "", c)
			k = f[1] " " d " " h
			if (index(";" want, ";" k " ")) s[k] += c
		}
		END { for (k in s) print k, s[k] }' $TRACE/trace | sort | tr '\n' ';'
}
all_traced() { [ "$(traced)" = "$truth" ]; }
for _ in $(seq 600); do all_traced && break; sleep 0.1; done
if ! all_traced; then	# what the driver said instead
	grep -F chmu_hotlist_entry $TRACE/trace | tail -n 40 >&2
	fail "the reads not as expected after 60 s: $(traced) (expected $truth)"
fi
expect_eq "$(traced)" "$truth" "each page on its memdev, at its DPA and HPA, with its count"
expect_eq "$(awk '{ print $1 }' <<<"$(tr ';' '\n' <<<"$truth")" | sort -u | tr '\n' ' ')" "mem0 mem1 " \
	"pages on both devices"

# chmutop -G: each page's unit under the cgroup with its sum
units() {
	last_frame /tmp/il.top >/tmp/il.frame
	for k in $PAGES; do
		jq -r --argjson h "$(($(kv phys$k "$out")))" \
			'select(.type == "unit" and .hpa == $h) | "\(.cgroup):\(.owner_pages):\(.sum)"' /tmp/il.frame
	done | tr '\n' ' '
}
units_are() { [ "$(units)" = "$1" ]; }
w=$(for k in $PAGES; do echo "/chmu-il:1:$(reads $k)"; done | tr '\n' ' ')
wait_for "chmutop -G: the units not all shown with their sums" units_are "$w"
expect_eq "$(units)" "$w" "chmutop -G: every page's cgroup, pages and sum"
# chmuheat --by cgroup: the cgroup's sum over the run, attributed in the drain
kill -INT $heat
wait $heat || fail "chmuheat --by cgroup: $(cat /tmp/il.heat.err)"
heat=
expect_eq "$(jq -r 'select(.type == "cgroup_total" and .cgroup == "/chmu-il") | "\(.instance) \(.sum) \(.mixed)"' /tmp/il.heat | sort | tr '\n' ';')" \
	"$(tr ';' '\n' <<<"$truth" | awk 'NF { s[$1] += $4 } END { for (m in s) print m ".0.0", s[m], 0 }' | sort | tr '\n' ';')" \
	"chmuheat --by cgroup: the cgroup's sum on each device"
kill -INT $top
wait $top || fail "chmutop -G: $(cat /tmp/il.top.err)"
top=

# 2 MiB units: the unit of a page read 10 times, on its device, has the
# HPA of the unit's first granule; one page of it is walked, 511 are not
both enable=0 unit_shift=21 enable=1
start_tool top /tmp/il.top chmutop -b -j -G -r 1000 1
kill -USR1 $wl
wait $wl || fail "the workload failed"
wl=
rm -f /tmp/il.wl	# the first workload's held= is not this one's
sh -c 'echo $$ >'$CG/chmu-il'/cgroup.procs && exec chmu-workload "$@"' sh \
	touch --node "$NODE" --no-thp --size 64K --unit-size 4K --units 0 --count 10 --hold >/tmp/il.wl &
wl=$!
wait_for "the second workload did not hold" grep -q '^held=' /tmp/il.wl
out2=$(cat /tmp/il.wl)
p0=$(($(kv phys0 "$out2")))
off=$((p0 - HPA))
way=$(((off / GRAN) % 2))
# the unit's first DPA, relative to the position's base, and its HPA
ustart=$((((off / (2 * GRAN)) * GRAN + off % GRAN) & ~0x1fffff))
uhpa=$((HPA + ustart * 2 + way * GRAN))
big() {
	last_frame /tmp/il.top | jq -r --argjson h "$uhpa" 'select(.type == "unit" and .hpa == $h) |
		"\(.instance) \(.owner_pages) \(.owner_unwalked // 0)"'
}
seen_big() { [ -n "$(big)" ]; }
wait_for "chmutop: no 2 MiB unit at $(printf %#x $uhpa)" seen_big
expect_eq "$(big)" "${pos_md[way]}.0.0 1 511" "a 2 MiB unit of an interleaved region: its first granule walked"
kill -INT $top
wait $top || fail "chmutop -G, 2 MiB units: $(cat /tmp/il.top.err)"
top=
kill -USR1 $wl
wait $wl || fail "the second workload failed"
wl=
kernel_quiet
echo done
