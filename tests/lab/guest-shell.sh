# make shell gives an interactive root shell in the guest, sized to the
# terminal, that powers the guest off on exit. Driven under tmux.
. tests/lib.sh

s=chmu-shell-test-$$
trap 'tmux kill-session -t $s 2>/dev/null || true' EXIT
tmux new-session -d -s $s -x 132 -y 40 "make -s shell; echo SHELL-EXIT=\$?; sleep 60"

wait_screen() { # wait_screen PATTERN: until the screen shows PATTERN (60 s)
	local i
	for ((i = 0; i < 120; i++)); do
		tmux capture-pane -t $s -p | grep -q -- "$1" && return 0
		sleep 0.5
	done
	tmux capture-pane -t $s -p
	fail "screen never showed '$1'"
}
wait_screen 'root@chmu-guest:'
tmux send-keys -t $s 'echo "answer=$((6 * 7)) size=$(stty size) user=$(id -un) dir=$PWD"' Enter
wait_screen '^answer=42 '
line=$(tmux capture-pane -t $s -p | grep '^answer=42 ')
expect_eq "$line" "answer=42 size=40 132 user=root dir=$PWD" "command output in the guest shell"
tmux send-keys -t $s 'exit' Enter
wait_screen '^SHELL-EXIT=0$'
