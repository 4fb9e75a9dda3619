# make install: the four BPF tools into $(DESTDIR)$(PREFIX)/sbin and
# their troff man pages into $(DESTDIR)$(PREFIX)/share/man/man8, nothing
# else; each page renders with man -l and groff finds nothing to warn
# about; PREFIX defaults to /usr/local. (The tools are built: -o tools.)
. tests/lib.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
tools="chmu-exporter chmualert chmuheat chmutop"
inst() { # inst DESTDIR [PREFIX=...]: make install, quietly unless it fails
	make -s -o tools install DESTDIR="$@" >"$tmp/log" 2>&1 || { cat "$tmp/log"; fail "make install DESTDIR=$*"; }
}
inst "$tmp/a" PREFIX=/usr
expect_eq "$(cd "$tmp/a" && find . -type f | sort | tr '\n' ' ')" \
	"$(for t in $tools; do printf './usr/sbin/%s ' $t; done)$(for t in $tools; do printf './usr/share/man/man8/%s.8 ' $t; done)" \
	"the files installed"
for t in $tools; do
	cmp "build/bin/$t" "$tmp/a/usr/sbin/$t" || fail "$t installed is not build/bin/$t"
	expect_eq "$(stat -c %a "$tmp/a/usr/sbin/$t") $(stat -c %a "$tmp/a/usr/share/man/man8/$t.8")" "755 644" "$t modes"
	page=$tmp/a/usr/share/man/man8/$t.8
	expect_eq "$(LC_ALL=C groff -man -Tascii -ww -z "$page" 2>&1)" "" "groff warnings of $t.8"
	out=$(LC_ALL=C MANWIDTH=80 man -l "$page" 2>"$tmp/err") || fail "man -l $t.8: $(cat "$tmp/err")"
	expect_eq "$(cat "$tmp/err")" "" "man -l $t.8 says nothing on stderr"
	expect_eq "$(sed -n '/^NAME/{n;p}' <<<"$out" | sed 's/^ *//' | cut -d' ' -f1-2)" "$t -" "$t.8 NAME"
	for sec in SYNOPSIS DESCRIPTION OPTIONS "EXIT STATUS" EXAMPLES "SEE ALSO"; do
		grep -qx "$sec" <<<"$out" || fail "$t.8 has no $sec section"
	done
done
inst "$tmp/b"
[ -x "$tmp/b/usr/local/sbin/chmutop" ] && [ -f "$tmp/b/usr/local/share/man/man8/chmutop.8" ] ||
	fail "PREFIX is not /usr/local by default: $(cd "$tmp/b" && find . -type f)"
echo "ok: PREFIX defaults to /usr/local"
