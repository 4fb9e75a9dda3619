# Soak: SOAK_SECS (default 120) of continuous high-rate draining with
# chmutop, chmuheat, chmualert and a bpftrace one-liner attached all
# along. At the end every consumer accounts for exactly the entries the
# driver drained (the device drops, if any, are its overflow count, never
# entries the driver read), the driver lost none, no tool leaked a file
# descriptor or grew without bound, and the kernel reports nothing
# (kernel-reports.sh runs after this test, with kmemleak).
. tests/lib.sh
hmu_setup
chmu_setup
SOAK_SECS=${SOAK_SECS:-120}
hmu_cfg mode=always-on threshold=4 unit_shift=12 fill_threshold=256 poll_ms=100
# Enabled first (the tools attach to an enabled instance); nothing touches
# the memory until they are all attached, so the driver's entries since
# enable are exactly what they must all see.
hmu_cfg enable=1
l0=$(bpf_links)
chmutop -b -j 5 >/tmp/soak.top 2>/tmp/soak.top.err &
top=$!
attached "$l0" $top
l0=$(bpf_links)
chmuheat -j --no-heatmap 5 >/tmp/soak.heat 2>/tmp/soak.heat.err &
heat=$!
attached "$l0" $heat
l0=$(bpf_links)
chmualert -c 4 -w 1 -j 5 >/tmp/soak.alert 2>/tmp/soak.alert.err &
alert=$!
attached "$l0" $alert
bpftrace -e 'tracepoint:chmu:chmu_hotlist_entry { @entries = count(); }' >/tmp/soak.bt 2>&1 &
bt=$!
bpftrace_attached $bt 1
# each tool's files, counted in its main loop (never while still loading)
fds() { quiet_fds "$1"; }
rss() { awk '/^VmRSS/ { print $2 }' /proc/$1/status; }
declare -A fd0 rss0
for p in $top $heat $alert; do fd0[$p]=$(fds $p); done
expect_eq "$(cat $HMU/entries)" 0 "entries before the load"
end=$((SECONDS + SOAK_SECS))
passes=0
warm=0
while [ $SECONDS -lt $end ]; do
	chmu-workload stream --dax "$DEV" --size 2M --passes 2 >/dev/null
	passes=$((passes + 1))
	# the tools' memory once warm (after the first minute's worth of units)
	if [ $warm = 0 ] && [ $SECONDS -gt $((end - SOAK_SECS + 20)) ]; then
		for p in $top $heat $alert; do rss0[$p]=$(rss $p); done
		warm=1
	fi
done
[ $warm = 1 ] || for p in $top $heat $alert; do rss0[$p]=$(rss $p); done
hmu_cfg enable=0
E=$(cat $HMU/entries)
echo "passes=$passes entries=$E overflows=$(cat $HMU/overflows) lost=$(cat $HMU/lost)"
[ "$E" -gt 100000 ] || fail "only $E entries in ${SOAK_SECS}s: not a high-rate soak"
expect_eq "$(cat $HMU/lost)" 0 "driver lost entries"
expect_eq "$(cat $HMU/bad_pointers)" 0 "bad pointers"
for p in $top $heat $alert; do
	expect_eq "$(fds $p)" "${fd0[$p]}" "open files of pid $p after the soak"
	growth=$(($(rss $p) - ${rss0[$p]}))
	[ $growth -lt 2048 ] || fail "pid $p grew by $growth KiB after warming up"
	echo "ok: pid $p memory grew $growth KiB after warming up"
done
sleep 6	# every tool's next interval has the last entries
for p in $top $heat $alert; do kill -INT $p; done
stop_bpftrace $bt || true
for p in $top $heat $alert; do wait $p || fail "pid $p: $(cat /tmp/soak.*.err)"; done
expect_eq "$(jq -s '[.[] | select(.type == "instance") | .entries] | add' /tmp/soak.top)" "$E" "chmutop entries"
expect_eq "$(jq -s '[.[] | select(.type == "instance") | .dropped] | max' /tmp/soak.top)" 0 "chmutop entries not counted"
expect_eq "$(jq -s '[.[] | select(.type == "hist") | .entries] | add' /tmp/soak.heat)" "$E" "chmuheat entries"
sum=$(jq -s '.[] | select(.type == "summary") | .entries + .dropped' /tmp/soak.alert)
expect_eq "$sum" "$E" "chmualert entries seen + dropped"
expect_eq "$(sed -n 's/^@entries: //p' /tmp/soak.bt)" "$E" "bpftrace entries"
echo ok
