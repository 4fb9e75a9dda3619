// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <stdint.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include <linux/bpf.h>
#include <linux/capability.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>

#include "chmubpf.h"
#include "chmubtf.h"
#include "chmuabi.h"
#include "chmutool.h"
#include "owner.h"
#include "procmap.h"

volatile sig_atomic_t chmu_exiting;
static bool libbpf_verbose;

static void on_signal(int sig)
{
	(void)sig;
	chmu_exiting = 1;
}

static int libbpf_print(enum libbpf_print_level level, const char *fmt,
			va_list args)
{
	if (level == LIBBPF_DEBUG && !libbpf_verbose)
		return 0;
	return vfprintf(stderr, fmt, args);
}

void chmu_libbpf_init(bool verbose)
{
	libbpf_verbose = verbose;
	libbpf_set_print(libbpf_print);
}

void chmu_catch_signals(void)
{
	/* SA_RESTART: a signal during start-up must not fail a bpf() call */
	struct sigaction sa = { .sa_handler = on_signal, .sa_flags = SA_RESTART };
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP };
	unsigned int i;

	sigemptyset(&sa.sa_mask);
	for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		sigaction(sigs[i], &sa, NULL);
	/* A closed pipe is a write error the run ends on, not a death */
	signal(SIGPIPE, SIG_IGN);
}

void chmu_block_signals(sigset_t *wait)
{
	sigset_t block;

	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGHUP);
	sigprocmask(SIG_BLOCK, &block, wait);
	sigdelset(wait, SIGINT);
	sigdelset(wait, SIGTERM);
	sigdelset(wait, SIGHUP);
}

bool chmu_output_broken(const char *tool, FILE *f)
{
	int failed;

	errno = 0;
	failed = fflush(f);
	if (!failed && !ferror(f))
		return false;
	/* an earlier write failed (errno gone by now): a closed pipe, mostly */
	if (failed && errno && errno != EPIPE)
		fprintf(stderr, "%s: writing the output: %s\n", tool, strerror(errno));
	chmu_exiting = 1;
	return true;
}

#ifndef CAP_PERFMON
#define CAP_PERFMON 38
#endif
#ifndef CAP_BPF
#define CAP_BPF 39
#endif

static bool have_cap(int cap)
{
	struct __user_cap_header_struct h = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct d[2] = {};

	if (syscall(SYS_capget, &h, d))
		return false;
	return d[cap / 32].effective & (1U << (cap % 32));
}

/* The tracepoints every tool attaches to */
static const char *const chmu_tps[] = { "chmu_hotlist_batch" };
#define CHMU_NR_TPS (sizeof(chmu_tps) / sizeof(chmu_tps[0]))

/* Do the raw tracepoints exist? One do-nothing program attaches to each. */
static bool raw_tps_exist(void)
{
	struct bpf_insn prog[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	bool ok = true;
	unsigned int i;
	int fd, tp;

	fd = bpf_prog_load(BPF_PROG_TYPE_RAW_TRACEPOINT, NULL, "GPL", prog, 2, NULL);
	if (fd < 0)
		return false;
	for (i = 0; ok && i < CHMU_NR_TPS; i++) {
		tp = bpf_raw_tracepoint_open(chmu_tps[i], fd);
		ok = tp >= 0;
		if (ok)
			close(tp);
	}
	close(fd);
	return ok;
}

/*
 * The kernel's BTF object of module @name (an fd), or -1: the one that
 * describes its types to programs attaching there.
 */
static int module_btf_fd(const char *name)
{
	__u32 id = 0;

	while (!bpf_btf_get_next_id(id, &id)) {
		struct bpf_btf_info info = {};
		__u32 len = sizeof(info);
		char n[64] = "";
		int fd = bpf_btf_get_fd_by_id(id);

		if (fd < 0)
			continue;
		info.name = (uintptr_t)n;
		info.name_len = sizeof(n);
		if (!bpf_obj_get_info_by_fd(fd, &info, &len) && !strcmp(n, name))
			return fd;
		close(fd);
	}
	return -1;
}

/*
 * Can tp_btf programs attach: as libbpf-tools probe it, by loading one.
 * A program that does nothing, of type tracing for a raw tracepoint, on
 * each tracepoint's btf_trace_ type in @btf (the module's, @mod_fd its
 * kernel object; -1 for a built-in driver's, in the kernel's BTF): the
 * kernel checks the target as it would the tools' programs.
 */
static bool tp_btf_possible(const struct btf *btf, int mod_fd)
{
	static const struct bpf_insn prog[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	unsigned int i;
	char name[128];

	for (i = 0; i < CHMU_NR_TPS; i++) {
		LIBBPF_OPTS(bpf_prog_load_opts, o,
			    .expected_attach_type = BPF_TRACE_RAW_TP);
		int id, fd;

		snprintf(name, sizeof(name), "btf_trace_%s", chmu_tps[i]);
		id = btf__find_by_name_kind(btf, name, BTF_KIND_TYPEDEF);
		if (id <= 0)
			return false;
		o.attach_btf_id = id;
		if (mod_fd >= 0)
			o.attach_btf_obj_fd = mod_fd;
		fd = bpf_prog_load(BPF_PROG_TYPE_TRACING, NULL, "GPL", prog, 2, &o);
		if (fd < 0)
			return false;
		close(fd);
	}
	return true;
}

bool chmu_env_ok(const char *tool, bool *tp_btf)
{
	struct btf *vmlinux = NULL, *btf = NULL;
	char why[160];
	bool ok = false;

	if (!have_cap(CAP_SYS_ADMIN) && !(have_cap(CAP_BPF) && have_cap(CAP_PERFMON))) {
		fprintf(stderr, "%s: needs CAP_BPF and CAP_PERFMON, or CAP_SYS_ADMIN (it loads BPF programs): run as root\n",
			tool);
		return false;
	}
	vmlinux = btf__load_vmlinux_btf();
	if (!vmlinux) {
		fprintf(stderr, "%s: no kernel BTF (/sys/kernel/btf/vmlinux): needs CONFIG_DEBUG_INFO_BTF\n",
			tool);
		return false;
	}
	if (!raw_tps_exist()) {
		fprintf(stderr, "%s: no chmu tracepoints: load the driver (modprobe cxl_hmu)\n",
			tool);
		goto out;
	}
	/*
	 * The programs read the driver's types by name: in the module's BTF,
	 * or in the kernel's when the driver is built in.
	 */
	btf = btf__load_module_btf("cxl_hmu", vmlinux);
	if (!btf && btf__find_by_name_kind(vmlinux, "chmu_batch", BTF_KIND_STRUCT) <= 0) {
		fprintf(stderr, "%s: no BTF for the cxl_hmu driver's types: neither /sys/kernel/btf/cxl_hmu (CONFIG_DEBUG_INFO_BTF_MODULES) nor the kernel's (a built-in driver)\n",
			tool);
		goto out;
	}
	if (!chmu_btf_types_ok(btf ?: vmlinux, why, sizeof(why))) {
		fprintf(stderr, "%s: %s: the tools and the driver do not match\n", tool, why);
		goto out;
	}
	*tp_btf = false;
	if (!getenv("CHMU_RAW_TP")) {
		int mod_fd = btf ? module_btf_fd("cxl_hmu") : -1;

		if (!btf || mod_fd >= 0)
			*tp_btf = tp_btf_possible(btf ?: vmlinux, mod_fd);
		if (mod_fd >= 0)
			close(mod_fd);
	}
	ok = true;
out:
	btf__free(btf);
	btf__free(vmlinux);
	return ok;
}

__u32 chmu_gen_advance(__u32 *gen, __u64 *busy)
{
	__u32 g = __atomic_load_n(gen, __ATOMIC_SEQ_CST);
	struct timespec ms = { 0, 1000000 };
	int i;

	/* written before busy is read: a run either is counted or sees g + 1 */
	__atomic_store_n(gen, g + 1, __ATOMIC_SEQ_CST);
	for (i = 0; i < 1000 && __atomic_load_n(&busy[g & 1], __ATOMIC_SEQ_CST); i++)
		nanosleep(&ms, NULL);
	return g;
}

void chmu_pick_prog(struct bpf_program *btf, struct bpf_program *raw,
		    bool tp_btf)
{
	bpf_program__set_autoload(tp_btf ? raw : btf, false);
}

int chmu_owner_run(const struct chmu_owner_bpf *b, struct chmu_owner_req *req,
		   size_t n)
{
	static __u32 keys[CHMU_RESOLVE];
	int qfd = bpf_map__fd(b->q), pfd = bpf_program__fd(b->resolve), err;
	LIBBPF_OPTS(bpf_map_batch_opts, bo);
	size_t i;
	__u32 k;

	if (qfd < 0 || pfd < 0)
		return -EBADF;
	for (k = 0; k < CHMU_RESOLVE; k++)
		keys[k] = k;
	for (i = 0; i < n; i += CHMU_RESOLVE) {
		struct chmu_resolve_args a = {
			.n = n - i < CHMU_RESOLVE ? n - i : CHMU_RESOLVE };
		LIBBPF_OPTS(bpf_test_run_opts, ro, .ctx_in = &a,
			    .ctx_size_in = sizeof(a));
		__u32 cnt = a.n;

		/* a batch update where the kernel has one, else one by one */
		if (bpf_map_update_batch(qfd, keys, req + i, &cnt, &bo)) {
			for (k = 0; k < a.n; k++) {
				err = bpf_map_update_elem(qfd, &keys[k], &req[i + k], 0);
				if (err)
					return err;
			}
		}
		err = bpf_prog_test_run_opts(pfd, &ro);
		if (err)
			return err;
		for (k = 0; k < a.n; k++) {
			err = bpf_map_lookup_elem(qfd, &keys[k], &req[i + k]);
			if (err)
				return err;
		}
	}
	return 0;
}

#define THP_SIZE (2ULL << 20)

/*
 * A transparent huge page of ours, if the kernel gives one: 2 MiB of
 * anonymous memory at a 2 MiB boundary, asked for with MADV_HUGEPAGE and
 * touched; its head's frame number, or 0 (no THP: THP off, or no frame
 * numbers). *@map and *@len: the mapping, to unmap.
 */
static uint64_t own_thp(void **map, size_t *len)
{
	uintptr_t a;
	uint64_t pfn;
	char *p;

	*len = 2 * THP_SIZE;
	*map = mmap(NULL, *len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (*map == MAP_FAILED) {
		*map = NULL;
		return 0;
	}
	a = ((uintptr_t)*map + THP_SIZE - 1) & ~(uintptr_t)(THP_SIZE - 1);
	p = (char *)a;
	madvise(p, THP_SIZE, MADV_HUGEPAGE);
	memset(p, 1, THP_SIZE);
	pfn = procmap_self_pfn(p);
	if (!pfn || (pfn & (THP_SIZE / 4096 - 1)) ||
	    (procmap_kpageflags(pfn) & (PROCMAP_KPF_THP | PROCMAP_KPF_COMPOUND_HEAD)) !=
	    (PROCMAP_KPF_THP | PROCMAP_KPF_COMPOUND_HEAD))
		return 0;
	return pfn;
}

/*
 * chmu_owner_ready()'s check on memory of the tool's own, charged to its
 * cgroup: an order-0 page (one struct page read), and, where the kernel
 * gives one, a THP whole and from its middle (a tail page's head, the
 * folio's order: one read for all its pages). Each must come out as
 * ours, every page, with the reads said.
 */
static bool owner_check(const char *tool, const struct chmu_owner_bpf *b,
			struct owner_names *names)
{
	long psz = sysconf(_SC_PAGESIZE);
	uint64_t want = owner_self_cgroup(names), pfn, thp;
	struct chmu_owner_req r[3] = {
		{ .bytes = (uint64_t)psz, .contig = UINT64_MAX },
		{ .bytes = THP_SIZE, .contig = UINT64_MAX },
		{ .bytes = THP_SIZE / 2, .contig = UINT64_MAX },
	};
	static const char *const what[3] = {
		"a page of ours", "a THP of ours", "the second half of a THP of ours" };
	uint32_t pages[3] = { 1, THP_SIZE / 4096, THP_SIZE / 8192 };
	volatile char *page;
	void *thp_map = NULL;
	size_t thp_len = 0, n = 1, k;
	char own[128];
	bool ok = false;
	int err;

	if (!want) {
		fprintf(stderr, "%s: no memory cgroup of ours on the cgroup2 hierarchy at %s (the memory controller on cgroup v1?)\n",
			tool, owner_names_mount(names));
		return false;
	}
	page = mmap(NULL, psz, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (page == MAP_FAILED) {
		fprintf(stderr, "%s: mmap: %s\n", tool, strerror(errno));
		return false;
	}
	page[0] = 1;	/* a page of ours, charged to our cgroup */
	pfn = procmap_self_pfn((const void *)page);
	if (!pfn) {
		fprintf(stderr, "%s: cannot check the attribution: no page frame number in /proc/self/pagemap (CAP_SYS_ADMIN)\n",
			tool);
		goto out;
	}
	r[0].hpa = pfn * psz;
	thp = psz == 4096 ? own_thp(&thp_map, &thp_len) : 0;
	if (thp) {
		r[1].hpa = thp * psz;
		r[2].hpa = thp * psz + THP_SIZE / 2;
		n = 3;
	}
	err = chmu_owner_run(b, r, n);
	if (err) {
		fprintf(stderr, "%s: cannot run the attribution program: %s\n", tool,
			strerror(-err));
		goto out;
	}
	ok = true;
	for (k = 0; ok && k < n; k++) {
		ok = r[k].o.cgid[0] == want && owner_pages(&r[k].o) == pages[k] &&
		     r[k].o.pages[0] == pages[k] && r[k].o.reads == 1;
		if (!ok)
			fprintf(stderr, "%s: this kernel's page frames are not laid out as the attribution program reads them: %s read as %s in %u lookups, not %s in 1\n",
				tool, what[k], owner_fmt(names, &r[k].o, own, sizeof(own)),
				r[k].o.reads, owner_name(names, want));
	}
	if (ok && libbpf_verbose)
		fprintf(stderr, "%s: attribution checked on %s: one struct page read each\n", tool,
			n == 3 ? "a page, a THP and half a THP of ours" :
			"a page of ours (no THP to check: THP off, or not given)");
out:
	munmap((void *)page, psz);
	if (thp_map)
		munmap(thp_map, thp_len);
	return ok;
}

bool chmu_owner_prepare(const char *tool, const struct chmu_owner_bpf *b,
			bool on, bool *drain, struct owner_names **names)
{
	*names = NULL;
	/* a tool whose BPF object has no chmuowner.bpf.h: nothing to load */
	if (!b->resolve) {
		if (on)
			fprintf(stderr, "%s: no attribution in this tool (its BPF object has no chmu_resolve)\n",
				tool);
		return !on;
	}
	bpf_program__set_autoload(b->resolve, on);
	if (!on)
		return true;
	*names = owner_names_new(NULL);
	if (!*names) {
		fprintf(stderr, "%s: no cgroup2 file system is mounted: no attribution by cgroup\n",
			tool);
		return false;
	}
	/* the regions' interleave: read where it is used (per frame, per interval) */
	if (drain) {
		*drain = true;
		*b->budget = chmu_attr_pages;
	}
	return true;
}

bool chmu_owner_ready(const char *tool, const struct chmu_owner_bpf *b,
		      struct owner_names *names, bool drain)
{
	return owner_check(tool, b, names) &&
	       (!drain || chmu_owner_regions_sync(tool, names, b) >= 0);
}

int chmu_owner_regions_sync(const char *tool, struct owner_names *names,
			    const struct chmu_owner_bpf *b)
{
	struct chmu_owner_region v[CHMU_OWNER_REGIONS + 1], cur;
	int fd = bpf_map__fd(b->regions), err;
	__u32 k, n, old = *(volatile __u32 *)b->sel, bank;
	bool same, too_many;

	err = owner_regions_load(names, CHMU_SYSFS_DEVICES);
	if (err) {
		fprintf(stderr, "%s: cannot read the CXL regions (%s): %s\n", tool,
			CHMU_SYSFS_DEVICES, strerror(-err));
		return err;
	}
	n = owner_interleaved(names, v, CHMU_OWNER_REGIONS + 1);
	too_many = n > CHMU_OWNER_REGIONS;	/* a warning */
	if (n > CHMU_OWNER_REGIONS)
		n = CHMU_OWNER_REGIONS;
	/* the list in use, unchanged: nothing to write */
	bank = old >> 16;
	same = (old & 0xffff) == n;
	for (k = 0; same && k < n; k++) {
		__u32 key = bank * CHMU_OWNER_REGIONS + k;

		same = !bpf_map_lookup_elem(fd, &key, &cur) &&
		       !memcmp(&cur, &v[k], sizeof(cur));
	}
	if (same)
		return 0;
	if (too_many)	/* said once per change of the list */
		fprintf(stderr, "%s: more than %d CXL regions interleave: units in the others are walked past their first granule\n",
			tool, CHMU_OWNER_REGIONS);
	bank = !bank;
	for (k = 0; k < n; k++) {
		__u32 key = bank * CHMU_OWNER_REGIONS + k;
		int e = bpf_map_update_elem(fd, &key, &v[k], 0);

		if (e) {
			fprintf(stderr, "%s: cannot write the interleaved regions' map: %s\n",
				tool, strerror(-e));
			return e;
		}
	}
	__atomic_store_n(b->sel, bank << 16 | n, __ATOMIC_RELEASE);
	return 0;
}

int chmu_map_dump(int fd, size_t ksz, size_t vsz, chmu_dump_fn fn, void *ctx)
{
	LIBBPF_OPTS(bpf_map_batch_opts, opts);
	char *keys = malloc(CHMU_DUMP_BATCH * ksz), *vals = malloc(CHMU_DUMP_BATCH * vsz);
	char *k = malloc(ksz), *next = malloc(ksz);
	__u32 in = 0, out = 0, n, i;
	bool first = true;
	int err = -ENOMEM, r;

	if (!keys || !vals || !k || !next)
		goto out;
	for (;;) {
		n = CHMU_DUMP_BATCH;
		err = bpf_map_lookup_batch(fd, first ? NULL : &in, &out, keys, vals, &n, &opts);
		if (err && err != -ENOENT)
			break;
		for (i = 0; i < n; i++) {
			r = fn(keys + i * ksz, vals + i * vsz, ctx);
			if (r) {
				err = r;
				goto out;
			}
		}
		if (err == -ENOENT) {
			err = 0;
			goto out;
		}
		in = out;
		first = false;
	}
	/* 524: the kernel's ENOTSUPP, which may reach user space here */
	if (!first || (err != -EINVAL && err != -524 && err != -EOPNOTSUPP))
		goto out;
	err = 0;
	while (!bpf_map_get_next_key(fd, first ? NULL : k, next)) {
		first = false;
		memcpy(k, next, ksz);
		if (bpf_map_lookup_elem(fd, k, vals))
			continue;
		r = fn(k, vals, ctx);
		if (r) {
			err = r;
			break;
		}
	}
out:
	free(keys);
	free(vals);
	free(k);
	free(next);
	return err;
}
