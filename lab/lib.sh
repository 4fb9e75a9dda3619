# Shared helpers for the lab scripts. Sourced, not run.
# shellcheck shell=bash

export CHMU_CACHE=${CHMU_CACHE:-$HOME/.cache/chmu}
LAB_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
LOG_DIR=$CHMU_CACHE/logs
mkdir -p "$LOG_DIR"

# kernel_dir: where the guest kernel build lives; KVARIANT=debug selects the
# debug variant (lab/build-kernel.sh).
kernel_dir() {
	echo "$CHMU_CACHE/kernel${KVARIANT:+-$KVARIANT}"
}

# msg TAG TEXT: one progress line, kbuild style.
msg() {
	printf '  %-7s %s\n' "$1" "$2"
}

die() {
	echo "error: $*" >&2
	exit 1
}

# progress LOG FROM: how far the build writing LOG is, from line FROM on:
# ninja's "[done/total]", else kbuild's count of compiled files, else
# nothing.
progress() {
	tail -n +"$2" "$1" | awk '
	match($0, /^\[[0-9]+\/[0-9]+\]/) { step = substr($0, 2, RLENGTH - 2) }
	/^  (CC|AS) / { files++ }
	END {
		if (step != "") { split(step, s, "/"); printf ", step %d of %d", s[1], s[2] }
		else if (files) printf ", %d files compiled", files
	}'
}

# run_logged LOG CMD...: run CMD with its output appended to LOG (and shown
# with V=1). While it runs, every PROGRESS_SECS (default 60) a line tagged
# LAB_TAG says how long it has run and how far it is (progress). On
# failure print the tail of the log and where it is.
run_logged() {
	local log=$1 rc=0 hb="" from every=${PROGRESS_SECS:-60}
	shift
	if [ "${V:-0}" = 1 ]; then
		"$@" 2>&1 | tee -a "$log"
		rc=${PIPESTATUS[0]}
	else
		: >>"$log"
		from=$(($(wc -l <"$log") + 1))
		if [ "$every" -gt 0 ]; then
			# the heartbeat: a subshell that ends with this script; its
			# sleep holds no pipe of ours open
			(
				t0=$SECONDS
				while sleep "$every" </dev/null >/dev/null 2>&1 && kill -0 $$ 2>/dev/null; do
					t=$((SECONDS - t0))
					msg "${LAB_TAG:-...}" "  ... $((t / 60))m$(printf %02d $((t % 60)))s$(progress "$log" "$from")"
				done
			) &
			hb=$!
		fi
		"$@" >>"$log" 2>&1 || rc=$?
		if [ -n "$hb" ]; then
			kill "$hb" 2>/dev/null || true
			wait "$hb" 2>/dev/null || true
		fi
	fi
	if [ $rc -ne 0 ]; then
		echo "error: '$*' failed (exit $rc); last lines of $log:" >&2
		tail -n 25 "$log" >&2
		echo "error: full log: $log" >&2
		exit $rc
	fi
}

# inputs_key FILE...: a hash of the named files' names and contents.
inputs_key() {
	local f
	for f in "$@"; do
		printf '%s\n' "${f#"$LAB_ROOT"/}"
		sha256sum <"$f"
	done | sha256sum | cut -d' ' -f1
}

# series_files DIR: the patches listed in DIR/series, in order, as paths.
series_files() {
	local dir=$1 p
	[ -f "$dir/series" ] || return 0
	while read -r p _; do
		case "$p" in '' | '#'*) continue ;; esac
		[ -f "$dir/$p" ] || die "$dir/series names $p, which does not exist"
		printf '%s\n' "$dir/$p"
	done <"$dir/series"
}

# sync_series TREE PATCHDIR STATE: make TREE carry exactly the patches of
# PATCHDIR/series. STATE keeps copies of the patches currently applied;
# they are reverted (newest first) before the new series is applied, so
# only files the patches touch get new timestamps and rebuild; a file the
# old and the new series leave with the same content keeps its timestamp
# (a header in the series, changed in no way, rebuilds nothing).
sync_series() {
	local tree=$1 pdir=$2 state=$3 log=$4 p n f
	mkdir -p "$state"
	local want have
	local list
	list=$(series_files "$pdir") || exit 1
	want=$(while read -r p; do if [ -n "$p" ]; then sha256sum <"$p"; fi; done <<<"$list")
	have=
	[ -f "$state/list" ] &&
		have=$(while read -r p; do sha256sum <"$state/$p"; done <"$state/list")
	[ "$want" = "$have" ] && return 0
	# The files the old series touched, as they are now (with their times)
	local keep=$state.keep
	rm -rf "$keep" && mkdir -p "$keep"
	if [ -f "$state/list" ]; then
		while read -r p; do sed -n 's|^+++ b/||p' "$state/$p" | cut -f1; done <"$state/list" | sort -u |
			while read -r f; do
				[ -f "$tree/$f" ] || continue
				mkdir -p "$keep/$(dirname "$f")" && cp -p "$tree/$f" "$keep/$f"
			done
	fi
	if [ -f "$state/list" ]; then
		tac "$state/list" | while read -r p; do
			patch -d "$tree" -p1 -R -s -f --no-backup-if-mismatch <"$state/$p" >>"$log" 2>&1 ||
				die "could not revert $p in $tree (see $log); remove $tree to start afresh"
		done
	fi
	rm -rf "$state" && mkdir -p "$state"
	: >"$state/list"
	n=0
	while read -r p; do
		[ -n "$p" ] || continue
		n=$((n + 1))
		patch -d "$tree" -p1 -N -s -F0 --dry-run <"$p" >>"$log" 2>&1 ||
			die "patch $(basename "$p") does not apply to $tree (see $log)"
		patch -d "$tree" -p1 -N -s -F0 --no-backup-if-mismatch <"$p" >>"$log" 2>&1 ||
			die "patch $(basename "$p") failed on $tree (see $log)"
		cp "$p" "$state/$(printf '%04d' $n)-$(basename "$p")"
		echo "$(printf '%04d' $n)-$(basename "$p")" >>"$state/list"
	done <<<"$list"
	# Unchanged content: the old time back
	(cd "$keep" && find . -type f) | while read -r f; do
		if cmp -s "$keep/$f" "$tree/$f"; then touch -r "$keep/$f" "$tree/$f"; fi
	done
	rm -rf "$keep"
}

# kernel_configure SRC OUT LOG FRAGMENT...: write OUT/.config for the lab
# kernel from a minimal base: allnoconfig (ARCH=x86_64) with
# kvm_guest.config and the fragments, in order, as KCONFIG_ALLCONFIG. The
# options named are set (a later fragment overrides an earlier one) and
# every other prompt, the named options' own sub-options included, is
# answered no; merging the fragments onto allnoconfig's output instead
# would give each newly visible sub-option its default (ACPI's battery and
# thermal drivers, cpufreq, IPv6, ...). Fails, naming the lines, if an
# option of the fragments did not survive (a missing dependency drops it
# silently).
kernel_configure() {
	local src=$1 out=$2 log=$3
	shift 3
	mkdir -p "$out"
	cat "$src/kernel/configs/kvm_guest.config" "$@" >"$out/lab-allnoconfig"
	run_logged "$log" make -C "$src" O="$out" ARCH=x86_64 \
		KCONFIG_ALLCONFIG="$out/lab-allnoconfig" allnoconfig
	verify_config "$out/.config" "$@" ||
		die "kernel config lost requested options (check their dependencies)"
}

# verify_config CONFIG FRAGMENT...: check that every "CONFIG_X=..." and
# "# CONFIG_X is not set" line of the fragments holds in CONFIG (a symbol
# asked to be unset may also be absent). Prints one line per violation.
verify_config() {
	local config=$1 f line sym got bad=0
	shift
	for f in "$@"; do
		while IFS= read -r line; do
			case "$line" in
			CONFIG_*=*) sym=${line%%=*} ;;
			'# CONFIG_'*' is not set') sym=${line#\# } && sym=${sym%% *} ;;
			*) continue ;;
			esac
			got=$(grep -E "^($sym=|# $sym is not set)" "$config" || true)
			[ "$line" = "$got" ] && continue
			[ "${line#\#}" != "$line" ] && [ -z "$got" ] && continue
			echo "error: $(basename "$f"): '$line' became '${got:-<absent>}'" >&2
			bad=1
		done <"$f"
	done
	return $bad
}
