#!/bin/bash
# Install the Debian packages the lab needs, when they are missing.
# Idempotent and silent when everything is present. Needs root.
#   lab/deps.sh --bench   also what make bench's opt-in sections run in the
#                         guest (PostgreSQL for the tiering section)
set -euo pipefail
bench=0
[ "${1-}" != --bench ] || bench=1

# Packages from bookworm proper.
PKGS=(
	# kernel build
	build-essential bc bison flex libelf-dev libssl-dev dwarves cpio kmod
	rsync xz-utils python3 zstd
	# QEMU build (meson and pycotap come from backports, below)
	ninja-build pkg-config libglib2.0-dev libpixman-1-dev libfdt-dev
	libcap-ng-dev libattr1-dev python3-venv dpkg-dev
	# perf (built from the kernel tree; flex, bison, libelf from above)
	libtraceevent-dev
	# firmware used with -L
	seabios qemu-system-data
	# toolkit build and guest userland (the guest runs the host's root fs)
	clang llvm libbpf-dev bpftool bpftrace ndctl daxctl numactl stress-ng
	zlib1g-dev tmux
	# chmu-exporter's HTTP server, and the client and JSON tool its tests use
	libmicrohttpd-dev curl jq
)
# Packages that must come from bookworm-backports.
BPO_PKGS=(linux-source-6.12 meson python3-pycotap)
# make bench's tiering section: PostgreSQL's server, psql and pgbench
# (pg_prewarm is in the server's package). Installed without a cluster,
# and nothing started on this machine: the lab runs PostgreSQL only in
# the guest, its data in the guest's memory.
BENCH_PKGS=(postgresql-15 postgresql-client-15)
[ $bench -eq 0 ] || PKGS+=("${BENCH_PKGS[@]}")

missing=()
for p in "${PKGS[@]}" "${BPO_PKGS[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' ||
		missing+=("$p")
done
# meson must be new enough for QEMU 10 (>= 1.5); bookworm's 1.0 is not.
if dpkg-query -W -f='${Version}' meson 2>/dev/null | grep -q '^1\.0'; then
	missing+=(meson)
fi

# Prometheus and promtool, for the exporter's tests, are unpacked from
# Debian's package into the cache, not installed: installing the package
# would start (and enable) a Prometheus service on this machine, and the
# lab runs Prometheus only in the guest.
PROM_DEB=prometheus
PROM_DIR=${CHMU_CACHE:-$HOME/.cache/chmu}/prometheus
need_prom=0
[ -x "$PROM_DIR/usr/bin/prometheus" ] && [ -x "$PROM_DIR/usr/bin/promtool" ] || need_prom=1

src_list=/etc/apt/sources.list.d/chmu-lab.sources
need_src=0
[ -f "$src_list" ] || need_src=1
[ ${#missing[@]} -eq 0 ] && [ $need_src -eq 0 ] && [ $need_prom -eq 0 ] && exit 0

fetch_prometheus() { # download and unpack the package; 1 if apt has no such file
	local tmp
	tmp=$(mktemp -d)
	(cd "$tmp" && apt-get download -qq "$PROM_DEB" >/dev/null 2>&1) || { rm -rf "$tmp"; return 1; }
	rm -rf "$PROM_DIR" && mkdir -p "$PROM_DIR"
	dpkg-deb -x "$tmp"/"$PROM_DEB"_*.deb "$PROM_DIR"
	rm -rf "$tmp"
	[ -x "$PROM_DIR/usr/bin/prometheus" ] && [ -x "$PROM_DIR/usr/bin/promtool" ]
}
# Only Prometheus missing: the package lists may already know it, and
# downloading and unpacking a package needs no root.
if [ ${#missing[@]} -eq 0 ] && [ $need_src -eq 0 ]; then
	echo "  DEPS    unpacking $PROM_DEB into $PROM_DIR"
	fetch_prometheus && exit 0
fi

if [ "$(id -u)" != 0 ]; then
	echo "deps: missing packages (${missing[*]:-none}) or apt sources ($src_list); run as root to install them" >&2
	exit 1
fi

if [ $need_src -eq 1 ]; then
	echo "  DEPS    adding bookworm-backports and deb-src sources ($src_list)"
	cat >"$src_list" <<'SRC'
# Added by the CHMU lab (lab/deps.sh): meson, pycotap and linux-source-6.12
# come from bookworm-backports; deb-src lets us fetch QEMU's source tarball.
Types: deb deb-src
URIs: http://deb.debian.org/debian
Suites: bookworm-backports
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

Types: deb-src
URIs: http://deb.debian.org/debian
Suites: bookworm bookworm-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SRC
fi

echo "  DEPS    apt-get update"
apt-get update -qq
if [ ${#missing[@]} -gt 0 ]; then
	echo "  DEPS    installing: ${missing[*]}"
	bpo=()
	base=()
	for p in "${missing[@]}"; do
		case " ${BPO_PKGS[*]} " in
		*" $p "*) bpo+=("$p") ;;
		*) base+=("$p") ;;
		esac
	done
	export DEBIAN_FRONTEND=noninteractive
	# No service starts on this machine (policy-rc.d), and PostgreSQL
	# creates no cluster
	rc=/usr/sbin/policy-rc.d
	own_rc=0
	if [ ! -e $rc ]; then
		printf '#!/bin/sh\nexit 101\n' >$rc && chmod 755 $rc && own_rc=1
	fi
	trap '[ $own_rc -eq 0 ] || rm -f $rc' EXIT
	if [[ " ${base[*]} " == *" postgresql-15 "* ]]; then
		# the server's postinst reads create_main_cluster from
		# postgresql-common's createcluster.conf: that package first
		apt-get install -y -qq --no-install-recommends postgresql-common >/dev/null
		pg_conftool /etc/postgresql-common/createcluster.conf set create_main_cluster off
	fi
	[ ${#base[@]} -eq 0 ] ||
		apt-get install -y -qq --no-install-recommends "${base[@]}" >/dev/null
	[ ${#bpo[@]} -eq 0 ] ||
		apt-get install -y -qq --no-install-recommends -t bookworm-backports \
			"${bpo[@]}" >/dev/null
fi
if [ $need_prom -eq 1 ]; then
	echo "  DEPS    unpacking $PROM_DEB into $PROM_DIR"
	fetch_prometheus || { echo "deps: could not download and unpack $PROM_DEB" >&2; exit 1; }
fi
