# chmutop: a known hot set (units 3 and 7 read 100 and 300 times, unit 9
# 4 times, threshold 5) is exactly what the top rows show, in batch frames
# and in NDJSON; always-on labels; -g regions; a full unit map says how
# many entries it missed; each NDJSON frame's last batch time lies in
# its window; the interactive screen under tmux changes its
# sort, pauses and quits on keys and honours NO_COLOR; bad input exits 1
# or 2 with one line.
. tests/lib.sh
hmu_setup
eval "$(chmu-region create -m mem0 --devdax)"
trap 'tmux kill-server 2>/dev/null || true; chmu-region destroy all >/dev/null 2>&1 || true' EXIT
hpa=$((HPA))
# hot: units 3 and 7 read 100 and 300 times by one process (one epoch: one
# batch of two), unit 9 4 times (below the threshold)
hot() {
	local w="chmu-workload touch --dax $DEV --size 2M"
	$w --units 3,7,7,7 --count 100 >/dev/null
	$w --units 9 --count 4 >/dev/null
}
epoch() { hmu_cfg mode=epoch threshold=5 epoch_us=1000000 fill_threshold=0 unit_shift=12 enable=1; }
run() { # run ARGS...: chmutop in the background while the hot set runs
	l0=$(bpf_links)
	chmutop "$@" >/tmp/top.out 2>/tmp/top.err &
	local pid=$!
	attached "$l0" $pid
	hot
	wait $pid || { cat /tmp/top.err; fail "chmutop $* failed"; }
}
last_rows() { # the rows of the last frame: "HPA DPA NID INSTANCE COUNT SUM SEEN"
	awk '/^HPA / { n = 0; delete rows; next } /^0x|^- / { rows[++n] = $1 " " $2 " " $3 " " $4 " " $5 " " $6 " " $8 }
		END { for (i = 1; i <= n; i++) print rows[i] }' /tmp/top.out
}

rc=0; out=$(chmutop -b 1 1 2>&1) || rc=$?
expect_eq "$rc:$out" "2:chmutop: no selected CHMU instance is enabled: enable one through sysfs, perf, or --enable" "nothing enabled"
rc=0; out=$(chmutop -s hot 2>&1) || rc=$?
expect_eq "$rc:$(head -n 1 <<<"$out")" "1:chmutop: sort key must be count, sum, rate, seen or addr, not 'hot'" "bad sort key"
rc=0; out=$(chmutop -g 3K 2>&1) || rc=$?
expect_eq "$rc" 1 "bad granularity"

epoch
run -b --bpf-stats 1 3
cat /tmp/top.out
expect_eq "$(last_rows | tr '\n' ';')" \
	"$(printf '%#x' $((hpa + 0x7000))) 0x7000 - mem0.0.0 300 300 1;$(printf '%#x' $((hpa + 0x3000))) 0x3000 - mem0.0.0 100 100 1;" "top rows, batch mode"
expect_eq "$(grep -c '^chmutop ' /tmp/top.out)" 3 "three frames"
expect_eq "$(grep -m1 '^mem0.0.0 ' /tmp/top.out)" "mem0.0.0 on epoch 1s thr 5 unit 4 KiB ds 1/1 owner sysfs" "configuration line"
expect_eq "$(grep -c '^  batches [0-9.]*/s entries [0-9.]*/s overflows 0 lost 0 fill 2/1024 max 2$' /tmp/top.out)" 1 "health of the interval with the batch"
grep -q '^  drain [0-9.]* ms/batch [0-9.]* us/entry   bpf [0-9.]* ms/s ([1-9][0-9]* runs)$' /tmp/top.out || fail "no drain and BPF cost line"
grep -q '^chmutop [0-9:]*  every 1s  sort rate  [0-9]* units  BPF stats on$' /tmp/top.out || fail "the header does not say BPF stats are on"
[ "$(grep '^  drain ' /tmp/top.out | awk '$2 > 0 && $4 > 0 { n++ } END { print n + 0 }')" -ge 1 ] || fail "drain time not measured"
grep -q $'\033' /tmp/top.out && fail "terminal control codes in batch mode"
awk 'length($0) > 80 { bad = 1 } END { exit bad }' /tmp/top.out || fail "a line wider than 80 columns"

run -j -s addr 1 3
expect_eq "$(grep -c '"bpf_ns"' /tmp/top.out)" 0 "no BPF run time without --bpf-stats"
expect_eq "$(grep -c '"version":1' /tmp/top.out)" "$(wc -l </tmp/top.out)" "every NDJSON record has a version"
expect_eq "$(jq -r 'select(.type=="unit" and .interval==2) | "\(.rank) \(.dpa) \(.hpa - '$hpa') \(.count) \(.seen) \(.nid)"' /tmp/top.out | tr '\n' ';')" \
	"1 12288 12288 100 1 -1;2 28672 28672 300 1 -1;" "NDJSON top units by address"
expect_eq "$(jq -s '[.[] | select(.type=="instance") | .entries] | add' /tmp/top.out)" 2 "entries over the intervals"
expect_eq "$(jq -s '[.[] | select(.type=="unit") | .interval_sum] | add' /tmp/top.out)" 400 "interval sums add up"
# Each frame's first and last batch times: inside the frame's window
# when it holds batches; else no first, and the last is the previous one's.
expect_eq "$(jq -r 'select(.type=="instance") | "\(.time_ns) \(.batches) \(.first_batch_ns) \(.last_batch_ns)"' /tmp/top.out |
	awk '{ ok = $2 > 0 ? ($3 > t && $3 <= $4 && $4 <= $1) : ($3 == 0 && $4 == b)
		if (!ok) print "frame " NR - 1 ": " $0; t = $1; b = $4 }
		END { print "checked " NR }')" "checked 3" "batch times inside their frame"

# Without --bpf-stats the kernel's BPF statistics stay off; the cost line
# says how to get them.
run -b 1 2
grep -q '^  drain [0-9.]* ms/batch [0-9.]* us/entry   bpf: --bpf-stats$' /tmp/top.out || fail "no cost line without --bpf-stats"
expect_eq "$(sysctl -n kernel.bpf_stats_enabled)" 0 "BPF statistics off after chmutop"

# Regions of 2 MiB: both units in one row, seen twice; its count is the
# largest of its last batch and its HPA the hottest unit's, whether units
# 3 and 7 land in one epoch or two (7 is touched last and is hotter).
run -b -g 2M 1 3
expect_eq "$(last_rows)" "$(printf '%#x' $((hpa + 0x7000))) 0x0 - mem0.0.0 300 400 2" "2 MiB region row"

# The unit maps: a slot per unit of the device's capacity (or per -g
# region) in the direct map while they fit in --direct-slots, else the
# LRU hash; the same rows either way.
cap=$(cat /sys/bus/cxl/devices/mem0/ram/size)
direct_slots() { bpftool map show -j | jq '[.[] | select(.name == "direct") | .max_entries] | add // 0'; }
for args in "" "-g 2M" "--direct-slots 0" "--direct-slots $(((cap >> 12) - 1))"; do
	l0=$(bpf_links)
	# shellcheck disable=SC2086
	chmutop -b $args 1 3 >/tmp/top.out 2>/tmp/top.err &
	pid=$!
	attached "$l0" $pid
	slots=$(direct_slots)
	hot
	wait $pid || { cat /tmp/top.err; fail "chmutop $args failed"; }
	# the direct map evicts nothing: no frame may say it did
	case "$args" in --direct-slots*) ;; *) ! grep -q '^unit map full' /tmp/top.out || fail "chmutop $args: evictions reported without a hash in use" ;; esac
	case "$args" in
	"") expect_eq "$slots" $((cap >> 12)) "direct map: a slot per 4 KiB unit" ;;
	-g*) expect_eq "$slots" $((cap >> 21)) "direct map: a slot per 2 MiB region" ;;
	*) expect_eq "$slots" 1 "chmutop $args: no instance in the direct map (its one unused slot)" ;;
	esac
	[ "$args" = "-g 2M" ] && continue
	expect_eq "$(last_rows | tr '\n' ';')" \
		"$(printf '%#x' $((hpa + 0x7000))) 0x7000 - mem0.0.0 300 300 1;$(printf '%#x' $((hpa + 0x3000))) 0x3000 - mem0.0.0 100 100 1;" "top rows, chmutop $args"
done

# A unit map of 1 entry: the first unit makes room for the second.
run -b --direct-slots 0 --max-units 1 1 3
grep -q '^unit map full (1 entries): 1 least recently seen evicted$' /tmp/top.out || fail "map-full line missing"

# A full map stays live: 4 entries, units 0-3 drained, then units 4-7 in a
# later drain (each waits for the drain of its epoch). The kernel's LRU is
# approximate (it may free several entries at once, and keeps recently
# looked-up ones longer), so what is exact is: the newest unit (7) is in
# the view, every unit is either shown or counted evicted, none is lost.
l0=$(bpf_links)
chmutop -b -s addr --direct-slots 0 --max-units 4 1 6 >/tmp/top.out 2>/tmp/top.err &
pid=$!
attached "$l0" $pid
b=$(cat $HMU/batches)
chmu-workload touch --dax "$DEV" --size 2M --units 0-3 --count 10 >/dev/null
hmu_wait batches $((b + 1))
chmu-workload touch --dax "$DEV" --size 2M --units 4-7 --count 10 >/dev/null
hmu_wait batches $((b + 2))
wait $pid || { cat /tmp/top.err; fail "chmutop --max-units 4 failed"; }
shown=$(last_rows | awk '{ print $2 }')
evicted=$(sed -n 's/^unit map full (4 entries): \([0-9]*\) least recently seen evicted$/\1/p' /tmp/top.out | tail -n 1)
grep -qx 0x7000 <<<"$shown" || fail "the newest unit is not in the full map's view: $shown"
expect_eq "$(($(wc -l <<<"$shown") + ${evicted:-0}))" 8 "units shown + evicted"
grep -q "not counted" /tmp/top.out && fail "entries lost with a full map"
hmu_cfg enable=0

# Always-on: the count columns say what a count means.
hmu_cfg mode=always-on threshold=50 fill_threshold=1 enable=1
l0=$(bpf_links)
chmutop -b 1 2 >/tmp/top.out &
pid=$!
attached "$l0" $pid
chmu-workload touch --dax "$DEV" --size 2M --units 5 --count 100 >/dev/null
wait $pid
grep -q '^always-on: REACH means the unit reached the threshold; HITS counts how often$' /tmp/top.out || fail "always-on note"
expect_eq "$(awk '/^HPA / { t = $5 " " $6 } /^0x/ { r = $2 " " $5 " " $6 } END { print t "; " r }' /tmp/top.out)" \
	"REACH HITS; 0x5000 >=50 2" "always-on row"
hmu_cfg enable=0

# Interactive, under tmux: keys change the sort, pause and quit.
epoch
export TERM=xterm-256color
l0=$(bpf_links)
tmux new-session -d -s top -x 80 -y 30 "chmutop 1"
attached "$l0"
hot
sleep 2
screen=$(tmux capture-pane -p -t top)
echo "$screen"
grep -q 'sort rate  .*\[s\]ort \[p\]ause \[q\]uit' <<<"$screen" || fail "no key help on the screen"
grep -q "^$(printf '%#x' $((hpa + 0x7000))) *0x7000 .* 300 " <<<"$screen" || fail "hot unit not on the screen"
tmux capture-pane -e -p -t top | grep -q $'\033\[1m' || fail "no colour on a terminal without NO_COLOR"
tmux send-keys -t top s
sleep 1.5
grep -q 'sort seen' <<<"$(tmux capture-pane -p -t top)" || fail "s did not change the sort"
pane_has() { # pane_has REGEX: the screen shows it within 5 s
	for _ in $(seq 50); do
		tmux capture-pane -p -t top | grep -q -E "$1" && return 0
		sleep 0.1
	done
	tmux capture-pane -p -t top
	return 1
}
tmux send-keys -t top p
pane_has '^chmutop [0-9:]* PAUSED ' || fail "p did not pause (no PAUSED in the header)"
before=$(tmux capture-pane -p -t top | head -n 1)
sleep 2
expect_eq "$(tmux capture-pane -p -t top | head -n 1)" "$before" "paused screen does not change"
# ? lists the keys until any key; a resize redraws the frame at once,
# fitted: as many rows as the height leaves, lines cut at the width.
# still paused: no frame comes, only a key brings the frame back
tmux send-keys -t top '?'
pane_has '^  \?   this list' || fail "? did not list the keys"
tmux send-keys -t top x
pane_has '^chmutop .*sort' || fail "a key did not leave the key list"
tmux send-keys -t top p	# resume
chmu-workload touch --dax "$DEV" --size 2M --units 9,11 --count 50 >/dev/null
pane_has "^$(printf '%#x' $((hpa + 0xb000))) " || fail "units 9 and 11 not on the screen"
# 10 lines: 5 of header, the titles, 2 rows, the note, a free last line
tmux resize-window -t top -x 40 -y 10
pane_has '^\(2 more rows hidden\)$' || fail "no note of the hidden rows after the resize"
expect_eq "$(tmux capture-pane -p -t top | awk 'length > 40' | wc -l)" 0 "no line wider than the 40-column terminal"
expect_eq "$(tmux capture-pane -p -t top | grep -c -E '^0x[0-9a-f]+ ')" 2 "two rows fit 10 lines"
tmux resize-window -t top -x 80 -y 30
pane_has "^$(printf '%#x' $((hpa + 0x3000))) " || fail "both rows back after growing the terminal"
# Paused, the counting goes on and so do the frames' baselines: the first
# frame after resuming holds its own interval only. Units 12 and 13 are
# drained while paused, a frame end passes after it (chmutop's generation
# moves on), then p resumes: that frame's health has no batch at all.
gen() { # chmutop's interval number, from its .bss map
	local id
	id=$(bpftool map show -j | jq -r '[.[] | select(.name | test("^chmutop.*[.]bss$")) | .id][0]')
	bpftool map dump id "$id" -j | jq '[.. | objects | select(has("gen")) | .gen][0]'
}
gen_past() { [ "$(gen)" -gt "$1" ]; }
pane_lacks() { # pane_lacks REGEX: the screen no longer shows it (5 s at most)
	for _ in $(seq 50); do
		tmux capture-pane -p -t top | grep -q -E "$1" || return 0
		sleep 0.1
	done
	tmux capture-pane -p -t top
	return 1
}
tmux send-keys -t top p
pane_has '^chmutop [0-9:]* PAUSED ' || fail "p did not pause"
e=$(cat $HMU/entries)
chmu-workload touch --dax "$DEV" --size 2M --units 12,13 --count 50 >/dev/null
wait_for "units 12 and 13 not drained" attr_cmp $HMU/entries -ge $((e + 2))
g=$(gen)
wait_for "no frame end after the drain (generation still $g)" gen_past "$g"
tmux send-keys -t top p
pane_lacks 'PAUSED' || fail "p did not resume"
expect_eq "$(tmux capture-pane -p -t top | grep '^  batches ')" \
	"  batches 0/s entries 0/s overflows 0 lost 0 fill 0/1024 max 2" "the first frame after the pause: its own interval only"
tmux send-keys -t top q
sleep 1.5
tmux has-session -t top 2>/dev/null && fail "q did not quit"
tmux new-session -d -s nc -x 80 -y 30 "NO_COLOR=1 chmutop 1"
sleep 2.5
tmux capture-pane -e -p -t nc | grep -q $'\033\[1m' && fail "colour despite NO_COLOR"
tmux send-keys -t nc q
sleep 1

# Ctrl-Z under a shell with job control (dash: it leaves the terminal's
# modes alone) gives the terminal back cooked while chmutop is stopped;
# fg makes it raw again and redraws the frame.
no_top() { ! pgrep -x chmutop >/dev/null; }
wait_for "a chmutop still runs" no_top	# the one q ended above
tmux new-session -d -s tstp -x 80 -y 30 "sh -i"
l0=$(bpf_links)
tmux send-keys -t tstp 'chmutop 1' Enter
attached "$l0"
pty=$(tmux display -p -t tstp '#{pane_tty}')
top_pid=$(pgrep -x chmutop)
raw() { stty -F "$pty" -a | grep -q -- ' -icanon'; }
cooked() { ! raw; }
pstate() { [ "$(awk '{ print $3 }' /proc/"$top_pid"/stat)" = "$1" ]; }
wait_for "chmutop did not make the terminal raw" raw
tmux send-keys -t tstp C-z
wait_for "Ctrl-Z did not stop chmutop" pstate T
wait_for "the terminal stays raw while chmutop is stopped" cooked
tmux send-keys -t tstp fg Enter
wait_for "fg did not continue chmutop" pstate S
wait_for "the terminal not raw again after fg" raw
tmux send-keys -t tstp q
wait_for "q did not quit after fg" test ! -e /proc/"$top_pid"
expect_eq "$(stty -F "$pty" -a | grep -o -- ' -\?icanon\| -\?echo ' | tr -d ' ' | tr '\n' ' ')" "icanon echo " "the terminal after chmutop"
tmux kill-session -t tstp
hmu_cfg enable=0
echo ok
