# Attribution at the drain is bounded per drain (issue 35, defect 5): the
# tools that attribute in their drain program (chmuheat and chmualert
# --by cgroup, chmu-exporter --by cgroup) read at most --max-attr-pages
# struct pages per drain; the entries of units met after that are not
# attributed, counted and said so. A workload in one cgroup reads six
# 4 KiB units of a RAM region (one struct page each); with a budget of 2
# a drain of N entries attributes min(N, 2) of them and leaves N - 2
# unattributed: the tools' counts equal that sum over the drains the
# driver traced, however the reads fell into epochs. With the default
# budget nothing is left unattributed.
. tests/lib.sh
hmu_setup
CG=/sys/fs/cgroup
w=
heat=
heat0=
alert=
exp=
cleanup() {
	for p in $w $heat $heat0 $alert $exp; do kill "$p" 2>/dev/null || true; done
	wait 2>/dev/null || true
	rmdir $CG/chmu-c 2>/dev/null || true
	chmu_cleanup
}
trap cleanup EXIT
eval "$(chmu-region create -m mem0 --ram)"
grep -qw memory $CG/cgroup.subtree_control || echo +memory >$CG/cgroup.subtree_control
mkdir $CG/chmu-c

rc=0; out=$(chmuheat --by cgroup --max-attr-pages 0 2>&1) || rc=$?
expect_eq "$rc:$(head -n 1 <<<"$out")" "1:chmuheat: --max-attr-pages: invalid number '0' (1..16777216)" "a budget of 0"

hmu_cfg mode=epoch threshold=1 epoch_us=200000 unit_shift=12 access=1 fill_threshold=0 poll_ms=100 enable=1
start_tool heat /tmp/ab.heat chmuheat -j --no-heatmap --by cgroup --max-attr-pages 2 1
start_tool heat0 /tmp/ab.heat0 chmuheat -j --no-heatmap --by cgroup 1
start_tool alert /tmp/ab.alert chmualert -j -c 1 --by cgroup --max-attr-pages 2
URL=http://127.0.0.1:9855/metrics
start_tool exp /tmp/ab.exp chmu-exporter --by cgroup --max-attr-pages 2 -l 127.0.0.1:9855
echo >$TRACE/trace	# the drains from now on, all seen by the tools
e0=$(cat $HMU/entries)
rm -f /tmp/ab.go
mkfifo /tmp/ab.go
sh -c 'echo $$ >'$CG/chmu-c'/cgroup.procs && read _ </tmp/ab.go && exec chmu-workload "$@"' sh \
	touch --node "$NODE" --no-thp --size 1M --hold --units 1-6 --count 10 >/tmp/ab.w &
w=$!
echo go >/tmp/ab.go
wait_for "the workload did not hold" grep -q '^held=' /tmp/ab.w
hmu_drained $((e0 + 6))
nrs=$(trace_events chmu_hotlist_batch nr | sed 's/nr=//' | tr '\n' ' ')
echo "batch sizes: $nrs"
total=0; skipped=0
for n in $nrs; do
	total=$((total + n))
	[ "$n" -gt 2 ] && skipped=$((skipped + n - 2))
done
[ "$skipped" -gt 0 ] || fail "no drain of more than 2 entries: $nrs"

metric() { curl -sf "$URL" | awk -v m="$1" '$1 == m { print $2 }'; }
expect_eq "$(metric chmu_exporter_unattributed_entries_total)" "$skipped" "chmu-exporter: unattributed entries"
cg_counts() {
	curl -sf "$URL" | awk -v c="$1" '$1 ~ /^chmu_cgroup_entries_total\{/ && index($1, "cgroup=\"" c "\"") { s += $2 } END { print s + 0 }'
}
expect_eq "$(cg_counts /chmu-c) $(cg_counts unattributed)" "$((total - skipped)) $skipped" "chmu-exporter: entries per owner"

kill -INT $heat $heat0 $alert
kill -TERM $exp
wait $heat || fail "chmuheat: $(cat /tmp/ab.heat.err)"
wait $heat0 || fail "chmuheat: $(cat /tmp/ab.heat0.err)"
wait $alert || fail "chmualert: $(cat /tmp/ab.alert.err)"
wait $exp || fail "chmu-exporter: $(cat /tmp/ab.exp.err)"
heat= heat0= alert= exp=
expect_eq "$(jq -r 'select(.type == "summary") | "\(.entries) \(.unattributed)"' /tmp/ab.heat)" "$total $skipped" \
	"chmuheat --max-attr-pages 2: entries, unattributed"
expect_eq "$(jq -r 'select(.type == "cgroup_total") | "\(.cgroup) \(.entries)"' /tmp/ab.heat | sort | tr '\n' ';')" \
	"/chmu-c $((total - skipped));unattributed $skipped;" "chmuheat --max-attr-pages 2: entries per owner"
expect_eq "$(cat /tmp/ab.heat.err)" "chmuheat: $skipped entries not attributed: each drain reads 2 struct pages at most (--max-attr-pages)" \
	"chmuheat says what it left unattributed"
expect_eq "$(jq -r 'select(.type == "summary") | "\(.entries) \(.unattributed)"' /tmp/ab.heat0)" "$total 0" \
	"chmuheat, default budget: entries, unattributed"
expect_eq "$(jq -r 'select(.type == "summary") | "\(.entries) \(.unattributed)"' /tmp/ab.alert)" "$total $skipped" \
	"chmualert --max-attr-pages 2: entries, unattributed"
kill -USR1 $w
wait $w || fail "the workload failed"
w=
hmu_cfg enable=0
echo ok
