# chmu-tierstat on made-up blocks: the Williams order of four arms over
# four blocks (each arm once in each position, each after every other
# once); the paired differences' median, [min, max], sign count and the
# one-sided sign test's p per contrast and key, blocks missing an arm left out; the modelled
# hardware throughput; bad input: one line, exit 1. chmu-workload's
# tiermem marker is a no-op outside QEMU with the plugin.
. tests/lib.sh
PATH=$PWD/build/bin:$PATH
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

expect_eq "$(for b in 0 1 2 3 4; do chmu-tierstat order none,promoter,numab,damon $b; done | tr '\n' ';')" \
	"none promoter damon numab;promoter numab none damon;numab damon promoter none;damon none numab promoter;none promoter damon numab;" \
	"order: a 4 x 4 Williams square, repeating"
# three arms: six blocks, each ordered pair adjacent twice
expect_eq "$(for b in 0 1 2 3 4 5; do chmu-tierstat order a,b,c $b; done |
	awk '{ for (i = 2; i <= NF; i++) n[$(i - 1) $i]++ } END { for (p in n) print p, n[p] }' | sort | tr '\n' ';')" \
	"ab 2;ac 2;ba 2;bc 2;ca 2;cb 2;" "order: three arms, each pair adjacent twice in six blocks"

# Six blocks: the promoter's regret against NUMA balancing's, one block
# a tie, one a loss; DAMON missing in block 5.
cat >"$T/blocks" <<'B'
# block arm key value
0 promoter regret 0.010
0 numab regret 0.050
0 damon regret 0.120
1 promoter regret 0.020
1 numab regret 0.010
1 damon regret 0.100
2 promoter regret 0.015
2 numab regret 0.015
2 damon regret 0.090
3 promoter regret 0.005
3 numab regret 0.045
3 damon regret 0.110
4 promoter regret 0.010
4 numab regret 0.060
4 damon regret 0.080
5 promoter regret 0.012
5 numab regret 0.040
0 promoter capacity 1.00
0 numab capacity 0.90
B
expect_eq "$(chmu-tierstat paired promoter-numab promoter-damon <"$T/blocks" | tr '\n' ';')" \
	"promoter-numab regret blocks=6 median=-0.034 min=-0.05 max=0.01 above=1 below=4 equal=1 p_below=0.3438 p_above=0.9844;promoter-numab capacity blocks=1 median=0.1 min=0.1 max=0.1 above=1 below=0 equal=0 p_below=1 p_above=0.5;promoter-damon regret blocks=5 median=-0.08 min=-0.11 max=-0.07 above=0 below=5 equal=0 p_below=0.03125 p_above=1;" \
	"paired: median, [min, max] and signs per contrast and key"
expect_eq "$(chmu-tierstat -j paired numab-damon <"$T/blocks")" \
	'{"contrast":"numab-damon","key":"regret","blocks":5,"median":-0.07,"min":-0.09,"max":-0.02,"above":0,"below":5,"equal":0,"p_below":0.03125,"p_above":1}' \
	"paired -j"
expect_eq "$(chmu-tierstat model 0.18 | tr '\n' ';')" "ratio=2 speed=0.8475;ratio=3 speed=0.7353;" "model: CXL's band"
expect_eq "$(chmu-tierstat model 0.5 4)" "ratio=4 speed=0.4000" "model: one ratio"

bad() { # bad "ARGS" "first line of stderr" [STDIN]
	local rc=0 out
	out=$(eval "chmu-tierstat $1" 2>&1 >/dev/null <<<"${3-}") || rc=$?
	expect_eq "$rc:$(head -n 1 <<<"$out")" "1:$2" "chmu-tierstat $1"
}
bad "" "chmu-tierstat: no COMMAND given"
bad "sort" "chmu-tierstat: unknown command 'sort' (order, paired or model)"
bad "order a,b" "chmu-tierstat: order takes ARMS and BLOCK"
bad "order a,b x" "chmu-tierstat: invalid block 'x' (0, 1, ...)"
bad "paired" "chmu-tierstat: paired needs a CONTRAST (ARM-ARM)"
bad "paired ab" "chmu-tierstat: contrast 'ab' is not ARM-ARM" "0 a x 1"
bad "paired a-b" "chmu-tierstat: a-b: no block has both arms" "0 a x 1"
bad "paired a-b" "chmu-tierstat: line 2: not \"BLOCK ARM KEY VALUE\"" $'0 a x 1\n0 b x'
bad "paired a-b" "chmu-tierstat: line 1: not \"BLOCK ARM KEY VALUE\"" "0 a x 1e999"
bad "model 1.5" "chmu-tierstat: invalid share '1.5' (0 to 1)"
bad "model 0.5 0.5" "chmu-tierstat: invalid ratio '0.5' (1 or more)"
bad "-j model 0.5" "chmu-tierstat: -j is for paired"

# the marker on the host: nothing happens, exit 0
chmu-workload mark reset 0 && chmu-workload mark dump 1 || fail "chmu-workload mark failed on the host"
echo "ok: chmu-workload mark reset and dump: no-ops on the host"
