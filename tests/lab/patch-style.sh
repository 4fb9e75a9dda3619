# Every patch in our series carries a commit message and a Signed-off-by
# and passes its project's checkpatch.
#
# QEMU (both series): the only warning accepted is checkpatch's generic
# "does MAINTAINERS need updating" for new files under directories that
# MAINTAINERS already covers (hw/cxl/, include/hw/cxl/).
#
# Kernel: exactly what the cover letter (0000) claims, patch by patch.
# checkpatch --strict, nothing ignored: no warning on any patch but those
# the letter names as "patch N warns TYPE", and on those only TYPE. The
# letter's [PATCH n/m] numbering and shortlog are the series' own.
. tests/lib.sh
LAB_ROOT=$PWD

# check_series PATCHDIR ALLOWED CHECKPATCH [ARGS...]: ALLOWED is a
# function called with the patch's position in the series and its file
# name, printing the checkpatch types that patch may report (one per
# line; "generic-maintainers" for QEMU's MAINTAINERS question).
check_series() {
	local dir=$1 allowed=$2 p out n=0 bad types
	shift 2
	while read -r p; do
		case "$p" in '' | '#'*) continue ;; esac
		n=$((n + 1))
		grep -q '^Signed-off-by: ' "$dir/$p" || fail "$p: no Signed-off-by"
		[ "$(sed -n '/^Subject:/,/^---$/p' "$dir/$p" | wc -l)" -gt 4 ] ||
			fail "$p: no commit message"
		# From outside any git work tree: the kernel's checkpatch looks at
		# the repository's own changes to a file it is given inside one.
		out=$(cd / && "$@" "$LAB_ROOT/$dir/$p" 2>&1) || true
		types=$("$allowed" "$n" "$p")
		bad=$({ grep -E '^(ERROR|WARNING|CHECK):' <<<"$out" || true; } | while read -r line; do
			t=${line#*:}
			t=${t%%:*}
			if grep -qxF "$t" <<<"$types"; then
				continue
			fi
			if [[ "$line" == *"does MAINTAINERS need updating"* ]] &&
				grep -qx generic-maintainers <<<"$types"; then
				continue
			fi
			echo "$line"
		done)
		if [ -n "$bad" ]; then
			echo "$out"
			fail "$p: checkpatch problems the cover letter does not claim: $bad"
		fi
		grep -q '^total: 0 errors' <<<"$out" || { echo "$out"; fail "$p: checkpatch did not run"; }
		echo "ok: $p${types:+ (allowed: $(echo $types))}"
	done <"$dir/series"
}

qemu_allowed() { echo generic-maintainers; }

# The kernel letter's exceptions, "patch N warns TYPE" (joined across
# lines), and its numbering and shortlog against the series.
KLETTER=kernel/patches/0000-cover-letter.patch
kernel_exceptions() {
	sed -n '/^Subject:/,/^-- *$/p' "$KLETTER" | tr '\n' ' ' |
		{ grep -oE 'patch [0-9]+ warns [A-Z_]+' || true; } | sed 's/^patch \([0-9]*\) warns /\1 /'
}
EXCEPTIONS=$(kernel_exceptions)
kernel_allowed() { # kernel_allowed N FILE
	awk -v n="$1" '$1 == n { print $2 }' <<<"$EXCEPTIONS"
}

check_letter() {
	local total n=0 num p subj shortlog
	total=$(grep -cvE '^(#|$)' kernel/patches/series)
	grep -q "^Subject: \[PATCH 00/$total\] " "$KLETTER" ||
		fail "$KLETTER: not [PATCH 00/$total]"
	# The shortlog: indented subjects, continuation lines indented more
	shortlog=$(sed -n '/^Seed .* ([0-9]*):$/,/^$/p' "$KLETTER" | sed '1d' |
		awk '/^  [^ ]/ { if (s) print s; s = substr($0, 3); next }
		     /^    / { sub(/^ +/, ""); s = s " " $0 } END { if (s) print s }')
	while read -r p; do
		case "$p" in '' | '#'*) continue ;; esac
		n=$((n + 1))
		# format-patch pads the number to the width of the total
		num=$(printf '%0*d' ${#total} $n)
		grep -q "^Subject: \[PATCH $num/$total\] " "kernel/patches/$p" ||
			fail "$p: not [PATCH $num/$total]"
		subj=$(sed -n '/^Subject:/,/^$/p' "kernel/patches/$p" | sed '$d' | tr '\n' ' ' |
			sed 's/^Subject: \[PATCH [0-9]*\/[0-9]*\] //; s/  */ /g; s/ $//')
		[ "$(sed -n "${n}p" <<<"$shortlog")" = "$subj" ] ||
			fail "$KLETTER: shortlog line $n is '$(sed -n "${n}p" <<<"$shortlog")', patch $n is '$subj'"
	done <kernel/patches/series
	[ "$(wc -l <<<"$shortlog")" -eq "$total" ] || fail "$KLETTER: shortlog has $(wc -l <<<"$shortlog") lines, the series $total"
	echo "ok: $KLETTER: [PATCH n/$total] and shortlog match the series; exceptions: $(echo $EXCEPTIONS)"
}

check_series qemu/patches qemu_allowed "$CHMU_CACHE/qemu/qemu-10.0.2/scripts/checkpatch.pl" --no-tree
check_series qemu/build-patches qemu_allowed "$CHMU_CACHE/qemu/qemu-10.0.2/scripts/checkpatch.pl" --no-tree
check_letter
check_series kernel/patches kernel_allowed "$CHMU_CACHE/kernel/linux-source-6.12/scripts/checkpatch.pl" \
	--strict --no-tree --show-types
