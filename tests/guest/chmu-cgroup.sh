# Attribution by cgroup and by process (chmutop -G, --by cgroup, -p,
# --by process; chmuheat and chmualert --by cgroup; chmu-exporter
# --cgroups). The region is system RAM on its own node; two cgroups
# each run a workload bound to that node that reads its own units a known
# number of times and holds its memory. Epoch mode at threshold 1 with
# reads only counts every read exactly once, whichever epoch it lands in:
# every unit of a workload shows under its cgroup and its process with
# its exact sum, the sums per cgroup and per process are the workloads'
# totals, and once a workload exits its units show as free (and mapped by
# no process), not as its cgroup's any more. Then 2 MiB units, in base
# pages and in a THP: each unit's owners page by page, as the kernel's
# own /proc/kpagecgroup has them.
. tests/lib.sh
hmu_setup
CG=/sys/fs/cgroup
wa=
wb=
top=
grp=
ptop=
pgrp=
heat=
alert=
exp=
exp1=
cleanup() {
	for p in $wa $wb $top $grp $ptop $pgrp $heat $alert $exp $exp1; do kill "$p" 2>/dev/null || true; done
	wait 2>/dev/null || true
	rmdir $CG/chmu-a/nomem $CG/chmu-a $CG/chmu-b 2>/dev/null || true
	chmu_cleanup
}
trap cleanup EXIT
eval "$(chmu-region create -m mem0 --ram)"
grep -qw memory $CG/cgroup.subtree_control || echo +memory >$CG/cgroup.subtree_control
mkdir $CG/chmu-a $CG/chmu-b

# run WHO ARGS...: the workload in cgroup chmu-WHO, its output in
# /tmp/cg.WHO; it starts once /tmp/cg.go.WHO is written (its PID, the
# shell's that execs it, is known before: for -p)
run() {
	local who=$1
	shift
	rm -f /tmp/cg.go.$who
	mkfifo /tmp/cg.go.$who
	sh -c 'echo $$ >'$CG/chmu-$who'/cgroup.procs && read _ </tmp/cg.go.'$who' && exec chmu-workload "$@"' sh \
		touch --node "$NODE" --no-thp --size 1M --hold "$@" >/tmp/cg.$who &
}
# a: unit 1 read 80 times, 2 and 3 40 times; b: unit 5 90 times, 6 30 times
run a --units 1,2,3,1 --count 40
wa=$!
run b --units 5,6,5,5 --count 30
wb=$!

hmu_cfg mode=epoch threshold=1 epoch_us=200000 unit_shift=12 access=1 fill_threshold=0 poll_ms=100 enable=1
start_tool top /tmp/cg.units chmutop -b -j -G -r 1000 1
start_tool grp /tmp/cg.groups chmutop -b -j --by cgroup 1
start_tool ptop /tmp/cg.punits chmutop -b -j -p $wa,$wb -r 1000 1
start_tool pgrp /tmp/cg.pgroups chmutop -b -j --by process 1
start_tool heat /tmp/cg.heat chmuheat -j --by cgroup 1
start_tool alert /tmp/cg.alert chmualert -j -c 1 --by cgroup
URL=http://127.0.0.1:9853/metrics
start_tool exp /tmp/cg.exp chmu-exporter --cgroups -l 127.0.0.1:9853
# and one that gives a single owner a series: the other is "other"
URL1=http://127.0.0.1:9854/metrics
start_tool exp1 /tmp/cg.exp1 chmu-exporter --by cgroup --max-cgroups 1 -l 127.0.0.1:9854
echo go >/tmp/cg.go.a
echo go >/tmp/cg.go.b
wait_for "workload a did not hold" grep -q '^held=' /tmp/cg.a
wait_for "workload b did not hold" grep -q '^held=' /tmp/cg.b
oa=$(cat /tmp/cg.a)
ob=$(cat /tmp/cg.b)
echo "$oa"
echo "$ob"

# frame_rows FILE TYPE KEY NAME: "KEY NAME SUM" for each row of TYPE in
# FILE's last frame (last_frame's choice), with one jq for the lot: a jq
# start costs a quarter of a second of guest CPU under TCG, and these
# run in polls
frame_rows() {
	head -n "$(wc -l <"$1")" "$1" | jq -r --slurp --arg t "$2" --arg k "$3" --arg v "$4" \
		'map(select(.interval != null)) | (map(.interval) | max) as $m |
		map(select(.interval == $m - 1 and .type == $t)) | .[] | "\(.[$k]) \(.[$v]) \(.sum)"' 2>/dev/null
}
# sums_of FILE TYPE NAME...: the last frame's sum for each NAME (0 if none)
sums_of() {
	local f=$1 t=$2 rows n
	shift 2
	rows=$(frame_rows "$f" "$t" "$t" "$t")
	for n in "$@"; do
		awk -v n="$n" '$1 == n { s += $3 } END { printf "%d\n", s }' <<<"$rows"
	done | tr '\n' ' ' | sed 's/ $//'
}
# group_sum NAME: the last frame's sum for cgroup NAME (0 if none)
group_sum() { sums_of /tmp/cg.groups cgroup "$1"; }
sums_are() { [ "$(sums_of /tmp/cg.groups cgroup /chmu-a /chmu-b)" = "$1" ]; }
wait_for "per-cgroup sums did not reach 160 120: $(group_sum /chmu-a) $(group_sum /chmu-b)" sums_are "160 120"

# rows_at FILE TYPE NAME PHYS...: the last frame's "NAME-field sum" of the
# unit at each PHYS, ';'-separated
rows_at() {
	local f=$1 t=$2 v=$3 rows p
	shift 3
	rows=$(frame_rows "$f" "$t" hpa "$v")
	for p in "$@"; do
		awk -v h="$((p))" '$1 == h { print $2, $3 }' <<<"$rows"
	done | tr '\n' ';' | sed 's/;$//'
}
# unit_of PHYS: the last frame's "cgroup sum" of the unit at PHYS
unit_of() { rows_at /tmp/cg.units unit cgroup "$1"; }
# chmutop -G has its own frame clock: wait for its frames to have them all
units_reached() {
	[ "$(rows_at /tmp/cg.units unit cgroup "$(kv phys0 "$oa")" "$(kv phys1 "$oa")" "$(kv phys2 "$oa")" \
		"$(kv phys0 "$ob")" "$(kv phys1 "$ob")")" = \
		"/chmu-a 80;/chmu-a 40;/chmu-a 40;/chmu-b 90;/chmu-b 30" ]
}
wait_for "chmutop -G: the units' sums not all reached" units_reached
expect_eq "$(unit_of "$(kv phys0 "$oa")")" "/chmu-a 80" "a's unit 1"
expect_eq "$(unit_of "$(kv phys1 "$oa")")" "/chmu-a 40" "a's unit 2"
expect_eq "$(unit_of "$(kv phys2 "$oa")")" "/chmu-a 40" "a's unit 3"
expect_eq "$(unit_of "$(kv phys0 "$ob")")" "/chmu-b 90" "b's unit 5"
expect_eq "$(unit_of "$(kv phys1 "$ob")")" "/chmu-b 30" "b's unit 6"
# each unit one page, all of it its cgroup's
expect_eq "$(last_frame /tmp/cg.units | jq -r --argjson h "$(($(kv phys0 "$oa")))" \
	'select(.type == "unit" and .hpa == $h) | .owners | map("\(.cgroup):\(.pages)") | join(",")')" \
	"/chmu-a:1" "a's unit 1 owners"
last_frame /tmp/cg.groups | jq -r 'select(.type == "cgroup") | "\(.cgroup) \(.units) \(.sum)"'
expect_eq "$(last_frame /tmp/cg.groups | jq -r 'select(.type == "cgroup" and (.cgroup | startswith("/chmu-"))) | "\(.cgroup) \(.units) \(.pages) \(.sum)"' | sort | tr '\n' ';')" \
	"/chmu-a 3 3 160;/chmu-b 2 2 120;" "per-cgroup units, pages and sums"

# chmu-exporter: the counts per cgroup, read at the drains
counts() {
	curl -sf "$URL" | awk -v c="$1" '$1 ~ /^chmu_cgroup_counts_total\{/ && index($1, "cgroup=\"" c "\"") { s += $2 } END { print s + 0 }'
}
expect_eq "$(counts /chmu-a) $(counts /chmu-b)" "160 120" "chmu-exporter: chmu_cgroup_counts_total per cgroup"
expect_eq "$(curl -sf "$URL" | awk '$1 ~ /^chmu_exporter_cgroup_series_limit/ { print $2 }')" 64 "chmu-exporter: the cgroup series limit"
# --max-cgroups 1: the owner seen first keeps its series, the other's
# entries are "other"; nothing is lost
series=$(curl -sf "$URL1" | awk '$1 ~ /^chmu_cgroup_counts_total\{/' | sed 's/.*cgroup="\([^"]*\)".* /\1 /' | sort)
echo "$series"
expect_eq "$(awk '{ s += $2 } END { print s }' <<<"$series")" 280 "chmu-exporter --max-cgroups 1: all counts kept"
expect_eq "$(awk '{ print $1 }' <<<"$series" | tr '\n' ' ')" \
	"$(grep -q '^/chmu-a 160$' <<<"$series" && echo "/chmu-a other " || echo "/chmu-b other ")" \
	"chmu-exporter --max-cgroups 1: one cgroup's series and other"
expect_eq "$(awk '$1 == "other" { print $2 }' <<<"$series")" \
	"$(grep -q '^/chmu-a 160$' <<<"$series" && echo 120 || echo 160)" "chmu-exporter --max-cgroups 1: other is the second cgroup"
# chmualert: one alert per cgroup (count 1 reached once, while it stays armed)
alerted() { [ "$(jq -r 'select(.type == "alert") | .cgroup' /tmp/cg.alert 2>/dev/null | sort -u | tr '\n' ' ')" = "$1" ]; }
wait_for "chmualert --by cgroup did not alert for both cgroups: $(cat /tmp/cg.alert)" alerted "/chmu-a /chmu-b "
expect_eq "$(alerted "/chmu-a /chmu-b " && echo yes)" yes "chmualert --by cgroup: an alert for each cgroup"

# the same by process
proc_of() { rows_at /tmp/cg.punits unit process "$1"; }
psum() { sums_of /tmp/cg.pgroups process "$1"; }
pa="chmu-workload[$wa]"
pb="chmu-workload[$wb]"
psums_are() { [ "$(sums_of /tmp/cg.pgroups process "$pa" "$pb")" = "$1" ]; }
wait_for "per-process sums did not reach 160 120: $(psum "$pa") $(psum "$pb")" psums_are "160 120"
procs_reached() {
	[ "$(rows_at /tmp/cg.punits unit process "$(kv phys0 "$oa")" "$(kv phys2 "$oa")" "$(kv phys0 "$ob")")" = \
		"$pa 80;$pa 40;$pb 90" ]
}
wait_for "chmutop -p: the units' sums not all reached" procs_reached
expect_eq "$(proc_of "$(kv phys0 "$oa")")" "$pa 80" "a's unit 1 by process"
expect_eq "$(proc_of "$(kv phys2 "$oa")")" "$pa 40" "a's unit 3 by process"
expect_eq "$(proc_of "$(kv phys0 "$ob")")" "$pb 90" "b's unit 5 by process"
expect_eq "$(last_frame /tmp/cg.punits | jq -r --argjson h "$(($(kv phys1 "$ob")))" \
	'select(.type == "unit" and .hpa == $h) | "\(.processes | map("\(.pid):\(.pages)") | join(",")) \(.unmapped_pages) \(.shared_pages)"')" \
	"$wb:1 0 0" "b's unit 6: its process's page, not shared"
expect_eq "$(last_frame /tmp/cg.pgroups | jq -r 'select(.type == "process" and (.process | startswith("chmu-workload"))) | "\(.process) \(.units) \(.sum)"' | sort | tr '\n' ';')" \
	"$(printf '%s\n' "$pa 3 160" "$pb 2 120" | sort | tr '\n' ';')" "per-process units and sums"

# b exits: its pages go back to the allocator
kill -USR1 $wb
wait $wb || fail "workload b failed"
wb=
free_b() {
	[ "$(rows_at /tmp/cg.units unit cgroup "$(kv phys0 "$ob")" "$(kv phys1 "$ob")")" = "free 90;free 30" ]
}
wait_for "b's units not free after its exit: $(unit_of "$(kv phys0 "$ob")")" free_b
expect_eq "$(unit_of "$(kv phys0 "$ob")");$(unit_of "$(kv phys1 "$ob")")" "free 90;free 30" "b's units after its exit"
expect_eq "$(unit_of "$(kv phys0 "$oa")")" "/chmu-a 80" "a's unit 1 after b's exit"
wait_for "cgroup b still has a sum" sums_are "160 0"
expect_eq "$(sums_are "160 0" && echo yes)" yes "per-cgroup sums after b's exit"
# -p filters: b's units, which neither named process maps now, are left
# out of the frames and counted
nomap_b() { [ -z "$(proc_of "$(kv phys0 "$ob")")" ]; }
wait_for "b's unit 5 still shown after its exit: $(proc_of "$(kv phys0 "$ob")")" nomap_b
expect_eq "$(proc_of "$(kv phys0 "$ob")");$(proc_of "$(kv phys1 "$ob")")" ";" "b's units by process after its exit: not shown"
expect_eq "$(last_frame /tmp/cg.punits | jq -r 'select(.type == "instance") | .unmapped_units')" 2 \
	"chmutop -p: the units none of them maps, counted"
expect_eq "$(proc_of "$(kv phys0 "$oa")")" "$pa 80" "a's unit 1 by process after b's exit"

kill -INT $top $grp $ptop $pgrp $heat $alert
kill -TERM $exp $exp1
wait $heat || fail "chmuheat --by cgroup: $(cat /tmp/cg.heat.err)"
heat=
# chmuheat: the run's histograms per cgroup, attributed at the drains
# (before b's exit): a's and b's sums whole
expect_eq "$(jq -r 'select(.type == "cgroup_total" and (.cgroup | startswith("/chmu-"))) | "\(.cgroup) \(.sum) \(.mixed)"' /tmp/cg.heat | sort | tr '\n' ';')" \
	"/chmu-a 160 0;/chmu-b 120 0;" "chmuheat --by cgroup: the run's sums per cgroup"
expect_eq "$(jq -s '[.[] | select(.type == "cgroup_hist" and .cgroup == "/chmu-a") | .sum] | add' /tmp/cg.heat)" 160 \
	"chmuheat --by cgroup: a's interval sums add up"
wait $alert || fail "chmualert --by cgroup: $(cat /tmp/cg.alert.err)"
alert=
wait $exp || fail "chmu-exporter --cgroups: $(cat /tmp/cg.exp.err)"
wait $exp1 || fail "chmu-exporter --max-cgroups 1: $(cat /tmp/cg.exp1.err)"
exp=
exp1=
wait $top || fail "chmutop -G: $(cat /tmp/cg.units.err)"
wait $grp || fail "chmutop --by cgroup: $(cat /tmp/cg.groups.err)"
wait $ptop || fail "chmutop -p: $(cat /tmp/cg.punits.err)"
wait $pgrp || fail "chmutop --by process: $(cat /tmp/cg.pgroups.err)"
top=
grp=
ptop=
pgrp=
kill -USR1 $wa
wait $wa || fail "workload a failed"
wa=

# Units of 2 MiB: c (cgroup a) 3 MiB in base pages, so that a unit is
# half its own, d (cgroup b) in THPs where the kernel gives them; each
# unit's owners against /proc/kpagecgroup
hmu_cfg enable=0 unit_shift=21 enable=1
start_tool top /tmp/cg.big chmutop -b -j -G -r 100 1
run a --size 3M --no-thp --unit-size 1M --units 0,2 --count 10
wa=$!
echo go >/tmp/cg.go.a
sh -c 'echo $$ >'$CG/chmu-b'/cgroup.procs && exec chmu-workload "$@"' sh \
	touch --node "$NODE" --size 4M --unit-size 2M --units 0,1 --count 10 --hold >/tmp/cg.d &
wb=$!
wait_for "workload c did not hold" grep -q '^held=' /tmp/cg.a
wait_for "workload d did not hold" grep -q '^held=' /tmp/cg.d
# truth HPA: the owners of the 512 pages from HPA, as /proc/kpagecgroup
# has them: "path:pages" sorted, the pages of no cgroup as "-:pages"
truth() {
	dd if=/proc/kpagecgroup bs=8 skip=$(($1 / 4096)) count=512 2>/dev/null | od -v -An -tu8 -w8 |
		sort -n | uniq -c | while read -r n ino; do
			if [ "$ino" = 0 ]; then
				echo "-:$n"
			else
				echo "$(find $CG -maxdepth 1 -type d -inum "$ino" | sed "s|^$CG||; s|^$|/|"):$n"
			fi
		done | sort | paste -sd,
}
# owners HPA: the same from a frame of chmutop's (/tmp/cg.frame; free
# and kernel as -)
owners() {
	jq -r --argjson h "$1" 'select(.type == "unit" and .hpa == $h) |
		.owners[] | "\(if .cgroup == "free" or .cgroup == "kernel" then "-" else .cgroup end) \(.pages)"' /tmp/cg.frame |
		awk '{ n[$1] += $2 } END { for (k in n) print k ":" n[k] }' | sort | paste -sd,
}
# the 2 MiB units the workloads read (their pages' placement decides
# how many: c's two pages may share one)
want=$(for k in phys0 phys1; do
	for f in /tmp/cg.a /tmp/cg.d; do echo $(($(kv $k "$(cat $f)") & ~0x1fffff)); done
done | sort -un | tr '\n' ' ')
# units_seen: a frame (kept in /tmp/cg.frame) that shows them all
units_seen() {
	local have
	last_frame /tmp/cg.big >/tmp/cg.frame
	have=$(jq -r 'select(.type == "unit" and .hpa != null) | .hpa' /tmp/cg.frame | sort -un | tr '\n' ' ')
	for h in $want; do [[ " $have" == *" $h "* ]] || return 1; done
}
wait_for "the 2 MiB units read ($want) not all shown" units_seen
n=0
for h in $(jq -r 'select(.type == "unit" and .hpa != null) | .hpa' /tmp/cg.frame); do
	expect_eq "$(owners "$h")" "$(truth "$h")" "the owners of the 2 MiB unit at $(printf %#x "$h"), page by page"
	n=$((n + 1))
done
[ "$n" -ge "$(wc -w <<<"$want")" ] || fail "only $n of the 2 MiB units ($want) checked"
# d's 4 MiB in THPs (the lab kernel: always; a mapping this large is
# aligned for them), so that the walk counted folios, not only pages
grep -H . /sys/kernel/mm/transparent_hugepage/enabled
thp=$(awk '$1 == "AnonHugePages:" { print $2 }' /proc/$wb/smaps_rollup)
[ "$thp" -ge 4096 ] || fail "workload d got no THPs ($thp kB): the folio path is untested"
expect_eq "$(last_frame /tmp/cg.big | jq -cs '[.[] | select(.type == "unit") | .owner_pages] | unique')" "[512]" \
	"every page of a 2 MiB unit looked at"
kill -INT $top
wait $top || fail "chmutop -G, 2 MiB units: $(cat /tmp/cg.big.err)"
top=
# From a cgroup without a memory controller of its own (its parent, a,
# does not enable one): its pages are charged to a, and the tools' check
# of their own page knows it
mkdir $CG/chmu-a/nomem
out=$(sh -c 'echo $$ >'$CG/chmu-a/nomem/cgroup.procs' && exec chmutop -b -G 1 1' 2>&1) ||
	fail "chmutop -G in a cgroup without a memory controller: $out"
expect_eq "$(grep -c 'CGROUP' <<<"$out")" 1 "chmutop -G in a cgroup without a memory controller: a frame"
rmdir $CG/chmu-a/nomem
kill -USR1 $wa $wb
wait $wa || fail "workload c failed"
wait $wb || fail "workload d failed"
wa=
wb=
echo done
