#!/bin/bash
# doctest.sh FILE.md...: run the examples of Markdown pages, in the guest.
#
# Fenced blocks by info string:
#   console   "# COMMAND" lines (a root prompt; "\" continues a line) and
#             the output expected from each. Every command must exit 0
#             (or N when its output block has a line "[exit N]"); the
#             expected lines must appear in the actual output in order
#             (other lines may come between; a "..." line is only a hint
#             to the reader). Times (12:34:56) and decimal numbers (2.471)
#             match any time and any decimal number; integers are exact.
#   sh        every line runs, must exit 0, output not checked.
#   sh host, sh tests/...   host commands, or run by the test named:
#             skipped here (tests/doc/doclint.sh checks them).
#   text      output samples, synopses: nothing runs.
# Each page runs in its own shell; commands run in that shell (variables
# and eval carry over to the next command), stdin from /dev/null.
set -uo pipefail

norm() {
	sed -E 's/[0-9]{2}:[0-9]{2}:[0-9]{2}/HH:MM:SS/g; s/[0-9]+\.[0-9]+/N.N/g; s/[[:space:]]+$//; s/  +/ /g'
}

# blocks FILE: "R<TAB>cmd" (sh), "C<TAB>cmd" (console command),
# "O<TAB>line" (its expected output), in page order; the lines of a
# continued command are joined by \001.
blocks() {
	awk '
	/^```/ {
		if (!inb) { inb = 1; kind = substr($0, 4); cont = ""; next }
		inb = 0; next
	}
	!inb { next }
	kind == "sh" {
		line = $0
		if (cont != "") { line = cont "\001" line; cont = "" }
		if (line ~ /\\$/) { cont = line; next }
		if (line ~ /^[ \t]*(#|$)/) next
		print "R\t" line; next
	}
	kind == "console" {
		if (cont != "") {
			cont = cont "\001" $0
			if ($0 !~ /\\$/) { print "C\t" cont; cont = "" }
			next
		}
		if (substr($0, 1, 2) == "# ") {
			line = substr($0, 3)
			if (line ~ /\\$/) { cont = line; next }
			print "C\t" line; next
		}
		print "O\t" $0
	}' "$1"
}

# check OUTFILE EXPECTFILE: the expected lines, in order, in the output.
check() {
	awk -v expf="$2" '
	BEGIN { while ((getline l < expf) > 0) if (l != "..." && l !~ /^\[exit [0-9]+\]$/) e[++ne] = l; i = 1 }
	i <= ne && $0 == e[i] { i++ }
	END { if (i <= ne) { print "missing: " e[i]; exit 1 } }' <(norm <"$1")
}

run_page() {
	local page=$1 tmp kind line n=0 bad=0 cmd="" want
	tmp=$(mktemp -d)
	flush() { # run the pending console command, check its output
		[ -n "$cmd" ] || return 0
		local rc=0
		n=$((n + 1))
		eval "$cmd" >"$tmp/out" 2>&1 </dev/null || rc=$?
		want=$(sed -n 's/^\[exit \([0-9]*\)\]$/\1/p' "$tmp/exp" | head -n 1)
		if [ "$rc" != "${want:-0}" ]; then
			echo "FAIL: $page: '$cmd' exited $rc, expected ${want:-0}; output:"
			sed 's/^/      | /' "$tmp/out"
			bad=1
		elif ! msg=$(check "$tmp/out" <(norm <"$tmp/exp")); then
			echo "FAIL: $page: '$cmd': $msg; output:"
			sed 's/^/      | /' "$tmp/out"
			bad=1
		else
			echo "ok: $page: $cmd"
		fi
		cmd=""
	}
	while IFS=$'\t' read -r kind line; do
		line=${line//$'\001'/$'\n'}
		case "$kind" in
		R)
			flush
			local rc=0
			n=$((n + 1))
			eval "$line" >"$tmp/out" 2>&1 </dev/null || rc=$?
			if [ $rc -ne 0 ]; then
				echo "FAIL: $page: '$line' exited $rc; output:"
				sed 's/^/      | /' "$tmp/out"
				bad=1
			else
				echo "ok: $page: $line"
			fi
			;;
		C)
			flush
			cmd=$line
			: >"$tmp/exp"
			;;
		O) printf '%s\n' "$line" >>"$tmp/exp" ;;
		esac
	done < <(blocks "$page")
	flush
	rm -rf "$tmp"
	[ $n -gt 0 ] || echo "note: $page: nothing to run"
	return $bad
}

rc=0
for page in "$@"; do
	(run_page "$page") || rc=1
done
exit $rc
