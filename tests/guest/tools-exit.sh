# --enable puts the instance back as it found it on every way out: a
# reader that goes away (chmutop | head, chmuheat | head: SIGPIPE), SIGHUP,
# SIGTERM, and SIGINT at any moment, even while the BPF programs load.
# "Back" is disabled with the configuration it had before, not just
# disabled; and the tool exits 0. (A script's background jobs start with
# SIGINT ignored; the tools take it over before they enable anything.)
. tests/lib.sh
hmu_setup
hmu_cfg mode=epoch threshold=3 epoch_us=100000 unit_shift=12 fill_threshold=0
state() { echo "$(cat $HMU/enable) $(cat $HMU/mode) $(cat $HMU/threshold) $(cat $HMU/epoch_us)"; }
before=$(state)
expect_eq "$before" "0 epoch 3 100000" "the configuration before"
set_args=(--enable -M always-on -t 9 -e 1000000)

# The reader goes away after the first line.
chmutop "${set_args[@]}" -b 1 | head -n 1 >/dev/null
rc=${PIPESTATUS[0]}
expect_eq "$rc:$(state)" "0:$before" "chmutop | head: exit status and the instance after"
chmuheat "${set_args[@]}" 1 | head -n 1 >/dev/null	# no count: only the pipe ends it
rc=${PIPESTATUS[0]}
expect_eq "$rc:$(state)" "0:$before" "chmuheat | head: exit status and the instance after"

# Signals: while running (the instance enabled with the tool's settings)
# and at once, wherever in its start-up the signal lands.
for sig in HUP TERM INT; do
	for tool in chmutop chmuheat chmualert; do
		# the tool (for at most 10 s) and what it writes once it runs;
		# a script's background jobs start with SIGINT ignored, so one
		# that lands before the tool's handler is lost: the run then
		# ends by itself, and the instance must be back all the same
		case $tool in
		chmutop) cmd=(chmutop "${set_args[@]}" -b 1 10) ready='^chmutop ' ;;
		chmuheat) cmd=(chmuheat "${set_args[@]}" 1 10) ready='^Tracing ' ;;
		chmualert) cmd=(chmualert "${set_args[@]}" -c 1000 1 10) ready='^Watching ' ;;
		esac
		"${cmd[@]}" >/tmp/exit.out 2>&1 &
		pid=$!
		for _ in $(seq 100); do grep -q "$ready" /tmp/exit.out && break; sleep 0.1; done
		grep -q "$ready" /tmp/exit.out || fail "$tool did not start: $(cat /tmp/exit.out)"
		expect_eq "$(state)" "1 always-on 9 1000000" "$tool running with its settings"
		kill -"$sig" $pid
		rc=0; wait $pid || rc=$?
		expect_eq "$rc:$(state)" "0:$before" "$tool after SIG$sig"
		# at start-up: the tool enables the instance, then loads its
		# BPF programs; the signal lands in between or just after
		"${cmd[@]}" >/dev/null 2>&1 &
		pid=$!
		hmu_wait enable 1
		kill -"$sig" $pid
		wait $pid 2>/dev/null || true
		expect_eq "$(state)" "$before" "$tool after SIG$sig at start-up"
	done
done
kernel_quiet
echo ok
