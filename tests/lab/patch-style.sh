# Every patch in our series passes its project's checkpatch (QEMU's, and
# the kernel's with --strict) and carries a commit message and a
# Signed-off-by. The only warning accepted is checkpatch's generic
# "does MAINTAINERS need updating" for new files under directories that
# MAINTAINERS already covers (hw/cxl/, include/hw/cxl/, drivers/cxl/).
. tests/lib.sh
LAB_ROOT=$PWD

check_series() { # check_series PATCHDIR CHECKPATCH [ARGS...]
	local dir=$1 p out
	shift
	while read -r p; do
		case "$p" in '' | '#'*) continue ;; esac
		grep -q '^Signed-off-by: ' "$dir/$p" || fail "$p: no Signed-off-by"
		[ "$(sed -n '/^Subject:/,/^---$/p' "$dir/$p" | wc -l)" -gt 4 ] ||
			fail "$p: no commit message"
		# From outside any git work tree: the kernel's checkpatch looks at
		# the repository's own changes to a file it is given inside one.
		out=$(cd / && "$@" "$LAB_ROOT/$dir/$p" 2>&1) || true
		if grep -E '^(ERROR|WARNING|CHECK):' <<<"$out" |
			grep -qv 'does MAINTAINERS need updating'; then
			echo "$out"
			fail "$p: checkpatch problems"
		fi
		grep -q '^total: 0 errors' <<<"$out" || { echo "$out"; fail "$p: checkpatch did not run"; }
		echo "ok: $p"
	done <"$dir/series"
}

check_series qemu/patches "$CHMU_CACHE/qemu/qemu-10.0.2/scripts/checkpatch.pl" --no-tree
check_series qemu/build-patches "$CHMU_CACHE/qemu/qemu-10.0.2/scripts/checkpatch.pl" --no-tree
check_series kernel/patches "$CHMU_CACHE/kernel/linux-source-6.12/scripts/checkpatch.pl" \
	--strict --no-tree --ignore FILE_PATH_CHANGES
