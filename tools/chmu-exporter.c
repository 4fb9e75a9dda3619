// SPDX-License-Identifier: GPL-2.0
/*
 * chmu-exporter: serve the CHMU hotlist as Prometheus metrics. BPF
 * programs on the chmu tracepoints keep cumulative counters, a histogram
 * of entry counts, summed counts per DPA region (bounded) and hot units per
 * node per epoch window; each scrape of /metrics reads them, and the
 * instances' configuration from sysfs, and renders the Prometheus text
 * format or OpenMetrics (libmicrohttpd serves it). Runs until SIGTERM or
 * SIGINT.
 */
#include <argp.h>
#include <errno.h>
#include <inttypes.h>
#include <netdb.h>
#include <pthread.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <linux/types.h>
#include <microhttpd.h>

#include "chmu-exporter.h"
#include "chmu-exporter.skel.h"
#include "lib/chmubpf.h"
#include "lib/chmurun.h"
#include "lib/chmutool.h"
#include "lib/metrics.h"
#include "lib/owner.h"

#define TOOL		"chmu-exporter"
#define VERSION		"0.1"
#define DEFAULT_HOST	"127.0.0.1"
#define DEFAULT_PORT	9849
#define U(x)		((unsigned long long)(x))
/*
 * Open connections at most: each holds at most one rendered response, so
 * this bounds the exporter's memory at MAX_CONNECTIONS responses (a
 * Prometheus uses one connection; an HA pair two).
 */
#define MAX_CONNECTIONS	16

const char *argp_program_version = TOOL " " VERSION;

enum { OPT_MAX_REGIONS = 1000, OPT_THREADS, OPT_TIMEOUT, OPT_CGROUPS, OPT_MAX_CGROUPS, OPT_BY };

static struct env {
	char host[256];
	unsigned int port;
	uint64_t gran;
	long max_regions;
	long max_cgroups;
	bool cgroups;
	bool json;
	long threads;
	long timeout;
	bool verbose;
} env = {
	.host = DEFAULT_HOST, .port = DEFAULT_PORT, .gran = 2 << 20,
	.max_regions = EXP_DEFAULT_REGIONS, .threads = 2, .timeout = 10,
	.max_cgroups = EXP_DEFAULT_CGROUPS,
};

static const struct argp_option opts[] = {
	{ "listen", 'l', "ADDR:PORT", 0, "Address to serve /metrics on (default 127.0.0.1:9849; [ADDR]:PORT for IPv6)", 0 },
	{ "granularity", 'g', "SIZE", 0, "Size of the DPA regions whose counts are summed (a power of two, default 2M)", 0 },
	{ "max-regions", OPT_MAX_REGIONS, "N", 0, "At most N regions get series (default 4096, at most 262144); entries of other regions are counted apart", 0 },
	{ "by", OPT_BY, "KEY", 0, "unit (default), or cgroup: also hotlist entries and counts per memory cgroup owning the units' pages (read at the drain): chmu_cgroup_* series with a cgroup label", 0 },
	/* its old spelling of --by cgroup */
	{ "cgroups", OPT_CGROUPS, NULL, OPTION_HIDDEN, NULL, 0 },
	{ "json", 'j', NULL, 0, "The exporter's own messages (serving, the end of the run) as NDJSON records on stdout", 0 },
	{ "max-cgroups", OPT_MAX_CGROUPS, "N", 0, "At most N owners (instance and cgroup pairs) get series (default 64, at most 4096); the rest are summed under cgroup=\"other\"", 0 },
	{ "threads", OPT_THREADS, "N", 0, "HTTP worker threads (default 2)", 0 },
	{ "timeout", OPT_TIMEOUT, "SECS", 0, "Close an idle or stalled connection after SECS (default 10)", 0 },
	{ "verbose", 'v', NULL, 0, "libbpf debug output", 0 },
	{},
};

static error_t parse_arg(int key, char *arg, struct argp_state *st)
{
	switch (key) {
	case 'l':
		if (mx_parse_listen(arg, DEFAULT_HOST, DEFAULT_PORT, env.host,
				    sizeof(env.host), &env.port))
			argp_error(st, "-l/--listen: invalid address '%s' (ADDR:PORT, :PORT or [V6ADDR]:PORT)", arg);
		break;
	case 'g':
		env.gran = chmu_argp_granularity(st, arg);
		break;
	case OPT_MAX_REGIONS:
		env.max_regions = chmu_argp_num(st, key, arg, 1, 1 << 18);
		break;
	case OPT_CGROUPS:
		env.cgroups = true;
		break;
	case OPT_BY:
		env.cgroups = chmu_argp_by_cgroup(st, arg);
		break;
	case 'j':
		env.json = true;
		break;
	case OPT_MAX_CGROUPS:
		env.max_cgroups = chmu_argp_num(st, key, arg, 1, 4096);
		break;
	case OPT_THREADS:
		env.threads = chmu_argp_num(st, key, arg, 1, 64);
		break;
	case OPT_TIMEOUT:
		env.timeout = chmu_argp_num(st, key, arg, 1, 3600);
		break;
	case 'v':
		env.verbose = true;
		break;
	case ARGP_KEY_ARG:
		argp_error(st, "unexpected argument '%s' (the exporter runs until SIGTERM)", arg);
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

struct exporter {
	struct chmu_exporter_bpf *skel;
	pthread_mutex_t lock;	/* one scrape renders at a time */
	uint64_t scrapes;
	unsigned int region_shift;
	struct owner_names *names;	/* --cgroups */
	struct chmu_owner_bpf owner;
};

/* DIR/ATTR as a number; -errno when it cannot be read or parsed. */
static int read_u64(const char *dir, const char *attr, uint64_t *v)
{
	char path[700], buf[32], *end;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, attr);
	f = fopen(path, "re");
	if (!f)
		return -errno;
	if (!fgets(buf, sizeof(buf), f)) {
		fclose(f);
		return -EIO;
	}
	fclose(f);
	errno = 0;
	*v = strtoull(buf, &end, 0);
	return errno || end == buf ? -EINVAL : 0;
}

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static void inst_labels(struct mx_labels *l, uint32_t id)
{
	mx_labels_init(l);
	mx_label(l, "memdev", "mem%u", CHMU_ID_MEMDEV(id));
	mx_label(l, "chmu", "%u", CHMU_ID_CHMU(id));
	mx_label(l, "inst", "%u", CHMU_ID_INST(id));
}

static bool selected(uint32_t id)
{
	return (chmu_opts.memdev < 0 || (int)CHMU_ID_MEMDEV(id) == chmu_opts.memdev) &&
	       (chmu_opts.chmu < 0 || (int)CHMU_ID_CHMU(id) == chmu_opts.chmu) &&
	       (chmu_opts.inst < 0 || (int)CHMU_ID_INST(id) == chmu_opts.inst);
}

/* The window the epoch gauge counts in: the epoch, or 1 s always-on. */
static uint64_t window_ns(const struct chmu_inst *in)
{
	if (in->mode_always_on || !in->epoch_us)
		return 1000000000ULL;
	return in->epoch_us * 1000ULL;
}

/* The epoch windows of the instances listed (at start, and each scrape). */
static void set_windows(struct chmu_exporter_bpf *skel, const struct chmu_inst *v,
			int n)
{
	int fd = bpf_map__fd(skel->maps.windows), i;

	for (i = 0; i < n; i++) {
		uint64_t w = window_ns(&v[i]);

		if (selected(v[i].id))
			bpf_map_update_elem(fd, &v[i].id, &w, BPF_ANY);
	}
}

struct inst_row {
	uint32_t id;
	struct exp_inst st;
	bool have_st;
	const struct chmu_inst *sys;	/* NULL: not in sysfs now */
};

struct region_row {
	struct exp_region_key k;
	struct exp_region v;
};

static int cmp_region(const void *a, const void *b)
{
	const struct region_row *x = a, *y = b;

	if (x->k.inst != y->k.inst)
		return x->k.inst < y->k.inst ? -1 : 1;
	if (x->k.slot != y->k.slot)
		return x->k.slot < y->k.slot ? -1 : 1;
	return x->k.nid < y->k.nid ? -1 : x->k.nid > y->k.nid;
}

struct node_row {
	struct exp_node_key k;
	struct exp_node v;
};

static int cmp_node(const void *a, const void *b)
{
	const struct node_row *x = a, *y = b;

	if (x->k.inst != y->k.inst)
		return x->k.inst < y->k.inst ? -1 : 1;
	return x->k.nid < y->k.nid ? -1 : x->k.nid > y->k.nid;
}

/* Rows of @stride bytes, the key at offset 0 and the value at @voff */
struct rows_walk {
	char *rows;
	size_t ksz, vsz, voff, stride, max, n;
};

static int take_row(const void *key, const void *val, void *ctx)
{
	struct rows_walk *w = ctx;

	if (w->n == w->max)
		return 1;	/* full: the rest are not exported */
	memcpy(w->rows + w->n * w->stride, key, w->ksz);
	memcpy(w->rows + w->n * w->stride + w->voff, val, w->vsz);
	w->n++;
	return 0;
}

/*
 * Every key and value (@ksz, @vsz bytes) of a hash map (at most @max) into
 * rows of @stride bytes, the key at offset 0 and the value at @voff (chmu_map_dump(): the
 * map may change meanwhile).
 */
static int read_map(int fd, size_t ksz, size_t vsz, size_t voff, size_t stride,
		    size_t max, void **out, size_t *n)
{
	struct rows_walk w = { .ksz = ksz, .vsz = vsz, .voff = voff,
			       .stride = stride, .max = max };
	int err;

	*out = NULL;
	*n = 0;
	w.rows = calloc(max ? max : 1, stride);
	if (!w.rows)
		return -ENOMEM;
	err = chmu_map_dump(fd, ksz, w.vsz, take_row, &w);
	if (err < 0) {
		free(w.rows);
		return err;
	}
	*out = w.rows;
	*n = w.n;
	return 0;
}

struct owner_row {
	struct exp_owner_key k;
	struct exp_owner v;
	const char *name;
};

static int cmp_owner(const void *a, const void *b)
{
	const struct owner_row *x = a, *y = b;
	int c;

	if (x->k.inst != y->k.inst)
		return x->k.inst < y->k.inst ? -1 : 1;
	c = strcmp(x->name, y->name);
	return c ? c : (x->k.owner < y->k.owner ? -1 : x->k.owner > y->k.owner);
}

/*
 * --cgroups: the owners' series; entries past --max-cgroups, and the
 * owner "other" (a unit of more cgroups than told apart), as cgroup
 * "other". Two ids of one path (a cgroup removed and made again) are two
 * samples of one series: their sums.
 */
static int render_owners(struct exporter *x, struct mx_buf *b,
			 const struct inst_row *rows, int nrows)
{
	struct owner_row *o = NULL;
	struct mx_labels l;
	size_t n = 0, i, k, j;
	int r;

	if (read_map(bpf_map__fd(x->skel->maps.owners), sizeof(struct exp_owner_key),
		     sizeof(((struct owner_row *)0)->v), offsetof(struct owner_row, v), sizeof(*o), env.max_cgroups,
		     (void **)&o, &n))
		return -ENOMEM;
	owner_names_expire(x->names);
	for (i = 0; i < n; i++)
		o[i].name = owner_key_name(x->names, o[i].k.owner);
	/* owner_key_name's unknown-id buffer is reused: keep each name */
	for (i = 0; i < n; i++)
		if (!(o[i].name = strdup(o[i].name))) {
			for (j = 0; j < i; j++)
				free((char *)o[j].name);
			free(o);
			return -ENOMEM;
		}
	if (n)
		qsort(o, n, sizeof(*o), cmp_owner);
	for (k = 0; k < 2; k++) {
		if (!k)
			mx_family(b, "chmu_cgroup_entries", MX_COUNTER,
				  "Hotlist entries by the owner of most of the unit's pages at the drain: a memory cgroup's path, free, kernel, - (not online memory) or other.");
		else
			mx_family(b, "chmu_cgroup_counts", MX_COUNTER,
				  "Sum of the counts of the entries in chmu_cgroup_entries.");
		for (i = 0; i < n; i = j) {
			uint64_t v = 0;
			bool other = !strcmp(o[i].name, "other");

			for (j = i; j < n && o[j].k.inst == o[i].k.inst &&
			     !strcmp(o[j].name, o[i].name); j++)
				v += k ? o[j].v.count_sum : o[j].v.entries;
			if (other)	/* with the entries past the cap, below */
				continue;
			inst_labels(&l, o[i].k.inst);
			mx_label(&l, "cgroup", "%s", o[i].name);
			mx_sample_u64(b, &l, v);
		}
		for (r = 0; r < nrows; r++) {
			uint64_t v = k ? rows[r].st.owner_dropped_counts : rows[r].st.owner_dropped;

			for (i = 0; i < n; i++)
				if (o[i].k.inst == rows[r].id && !strcmp(o[i].name, "other"))
					v += k ? o[i].v.count_sum : o[i].v.entries;
			if (!rows[r].have_st)
				continue;
			inst_labels(&l, rows[r].id);
			mx_label(&l, "cgroup", "other");
			mx_sample_u64(b, &l, v);
		}
	}
	mx_family(b, "chmu_exporter_cgroup_series_limit", MX_GAUGE,
		  "Most owner series the exporter keeps (--max-cgroups), all instances together.");
	mx_sample_u64(b, NULL, env.max_cgroups);
	mx_family(b, "chmu_exporter_unattributed_entries", MX_COUNTER,
		  "Entries not attributed to an owner (cgroup=\"unattributed\"): "
		  "their drain's budget of struct page reads (--max-attr-pages) was spent.");
	mx_sample_u64(b, NULL, x->skel->bss->chmu_owner_unattributed);
	for (i = 0; i < n; i++)
		free((char *)o[i].name);
	free(o);
	return 0;
}

struct inst_map_row {
	__u32 k;
	struct exp_inst v;
};

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* The per-instance counters kept by the BPF programs. */
static const struct {
	const char *name, *help;
	size_t off;
} inst_counters[] = {
	{ "chmu_hotlist_entries", "Hotlist entries drained by the cxl_hmu driver since the exporter started.",
	  offsetof(struct exp_inst, entries) },
	{ "chmu_hotlist_batches", "Drains of the hotlist (batches) since the exporter started.",
	  offsetof(struct exp_inst, batches) },
	{ "chmu_hotlist_overflows", "Batches in which the device reported a hotlist overflow.",
	  offsetof(struct exp_inst, overflows) },
	{ "chmu_region_dropped_entries", "Hotlist entries of regions that got no series (the --max-regions cap was reached).",
	  offsetof(struct exp_inst, region_dropped) },
	{ "chmu_region_dropped_counts", "Sum of the counts of the entries in chmu_region_dropped_entries.",
	  offsetof(struct exp_inst, region_dropped_counts) },
	{ "chmu_epoch_dropped_entries", "Hotlist entries chmu_epoch_hot_units could not count (its instance-node map was full).",
	  offsetof(struct exp_inst, node_dropped) },
};

static void render(struct exporter *x, struct mx_buf *b)
{
	struct chmu_exporter_bpf *skel = x->skel;
	struct chmu_inst *sys = NULL;
	struct inst_row *rows = NULL;
	struct region_row *regs = NULL;
	struct node_row *nodes = NULL;
	size_t nreg = 0, nnode = 0, nst = 0, i, k;
	int nsys = 0, nrows = 0, j;
	struct inst_map_row *st = NULL;
	struct mx_labels l, e;
	uint64_t now = mono_ns(), ns = 0;
	char dpa[32];

	if (chmu_list(&sys, &nsys))
		nsys = 0;
	if (read_map(bpf_map__fd(skel->maps.insts), sizeof(__u32),
		     sizeof(((struct inst_map_row *)0)->v), offsetof(struct inst_map_row, v), sizeof(*st), EXP_MAX_INST,
		     (void **)&st, &nst) ||
	    read_map(bpf_map__fd(skel->maps.nodes), sizeof(struct exp_node_key),
		     sizeof(((struct node_row *)0)->v), offsetof(struct node_row, v), sizeof(*nodes), EXP_MAX_NODES,
		     (void **)&nodes, &nnode) ||
	    read_map(bpf_map__fd(skel->maps.regions), sizeof(struct exp_region_key),
		     sizeof(((struct region_row *)0)->v), offsetof(struct region_row, v), sizeof(*regs), env.max_regions,
		     (void **)&regs, &nreg)) {
		b->oom = true;	/* a 500, not a scrape with families missing */
		goto out;
	}
	/* instances: those in sysfs now (selected) and those with data */
	rows = calloc(nsys + nst + 1, sizeof(*rows));
	if (!rows) {
		b->oom = true;
		goto out;
	}
	for (j = 0; j < nsys; j++) {
		if (!selected(sys[j].id))
			continue;
		rows[nrows].id = sys[j].id;
		rows[nrows].sys = &sys[j];
		nrows++;
	}
	for (i = 0; st && i < nst; i++) {
		for (j = 0; j < nrows && rows[j].id != st[i].k; j++)
			;
		if (j == nrows)
			rows[nrows++].id = st[i].k;
		rows[j].st = st[i].v;
		rows[j].have_st = true;
	}
	/* keep the epoch windows in step with the instances' configuration */
	set_windows(skel, sys, nsys);
	/* and the drain's attribution with the regions */
	if (x->names)
		chmu_owner_regions_sync(TOOL, x->names, &x->owner);

#define EACH_ROW for (j = 0; j < nrows; j++)
	for (k = 0; k < ARRAY_SIZE(inst_counters); k++) {
		mx_family(b, inst_counters[k].name, MX_COUNTER, inst_counters[k].help);
		EACH_ROW {
			inst_labels(&l, rows[j].id);
			mx_sample_u64(b, &l, *(const uint64_t *)((const char *)&rows[j].st +
								inst_counters[k].off));
		}
	}
	mx_family(b, "chmu_hotlist_lost_entries", MX_COUNTER,
		  "Entries the driver knows were lost since the instance was enabled (resets on enable).");
	EACH_ROW {
		/* the driver's own count, read now: never a stale or jumped value */
		if (!rows[j].sys || read_u64(rows[j].sys->path, "lost", &ns))
			continue;
		inst_labels(&l, rows[j].id);
		mx_sample_u64(b, &l, ns);
	}
	mx_family(b, "chmu_drain_seconds", MX_COUNTER,
		  "Time the driver spent draining the hotlist since the instance was enabled (resets on enable).");
	EACH_ROW {
		if (!rows[j].sys)
			continue;
		/* unreadable (unbound meanwhile): no sample, never a false reset */
		if (read_u64(rows[j].sys->path, "drain_ns", &ns))
			continue;
		inst_labels(&l, rows[j].id);
		mx_sample(b, &l, ns / 1e9);
	}
	mx_family(b, "chmu_entry_count", MX_HISTOGRAM,
		  "Hotlist entries by their count (log2 buckets).");
	EACH_ROW {
		inst_labels(&l, rows[j].id);
		mx_histogram_log2(b, &l, (const uint64_t *)rows[j].st.hist, EXP_HIST_BUCKETS,
				  EXP_HIST_BUCKETS - 1, rows[j].st.count_sum);
	}

	if (nodes)
		qsort(nodes, nnode, sizeof(*nodes), cmp_node);
	mx_family(b, "chmu_epoch_hot_units", MX_GAUGE,
		  "Hot units of the instance's latest posting (an epoch's hotlist entries; in always-on mode those drained within 0.5 s), per NUMA node of their HPA (-1: not online memory); 0 once no posting came for two epochs (2 s).");
	for (i = 0; nodes && i < nnode; i++) {
		const struct exp_node *n = &nodes[i].v;
		uint64_t len = 1000000000ULL, v = 0;
		const struct inst_row *in = NULL;

		if (!selected(nodes[i].k.inst))
			continue;
		for (j = 0; j < nrows; j++)
			if (rows[j].id == nodes[i].k.inst)
				in = &rows[j];
		if (in && in->sys)
			len = window_ns(in->sys);
		if (in && n->group == in->st.group && now - in->st.group_ns <= 2 * len)
			v = n->cur;
		inst_labels(&l, nodes[i].k.inst);
		mx_label(&l, "node", "%d", nodes[i].k.nid);
		mx_sample_u64(b, &l, v);
	}

	if (regs)
		qsort(regs, nreg, sizeof(*regs), cmp_region);
	for (k = 0; k < 2; k++) {
		if (!k)
			mx_family(b, "chmu_region_counts", MX_COUNTER,
				  "Sum of the hotlist counts of the units in a DPA region (region start in dpa, size in chmu_exporter_region_bytes).");
		else
			mx_family(b, "chmu_region_entries", MX_COUNTER,
				  "Hotlist entries of the units in a DPA region.");
		for (i = 0; regs && i < nreg; i++) {
			inst_labels(&e, regs[i].k.inst);
			snprintf(dpa, sizeof(dpa), "0x%llx",
				 U(regs[i].k.slot << x->region_shift));
			mx_label(&e, "dpa", "%s", dpa);
			mx_label(&e, "node", "%d", regs[i].k.nid);
			mx_sample_u64(b, &e, k ? regs[i].v.entries : regs[i].v.count_sum);
		}
	}

	if (x->names && render_owners(x, b, rows, nrows)) {
		b->oom = true;
		goto out;
	}

	mx_family(b, "chmu_instance_up", MX_GAUGE,
		  "1 while the instance is in sysfs (driver bound), 0 when only its counters remain.");
	EACH_ROW {
		inst_labels(&l, rows[j].id);
		mx_sample_u64(b, &l, rows[j].sys != NULL);
	}
#define CONFIG_GAUGE(name, help, expr)						\
	do {									\
		mx_family(b, name, MX_GAUGE, help);				\
		EACH_ROW {							\
			const struct chmu_inst *in = rows[j].sys;		\
			if (!in)						\
				continue;					\
			inst_labels(&l, rows[j].id);				\
			mx_sample(b, &l, (expr));				\
		}								\
	} while (0)
	CONFIG_GAUGE("chmu_config_enabled", "1 if the instance is enabled.", in->enabled);
	CONFIG_GAUGE("chmu_config_always_on", "1 in always-on mode, 0 in epoch mode.",
		     in->mode_always_on);
	CONFIG_GAUGE("chmu_config_threshold", "Hotness threshold (counts).", in->threshold);
	CONFIG_GAUGE("chmu_config_unit_bytes", "Unit size in bytes.",
		     (double)(1ULL << (in->unit_shift & 63)));
	CONFIG_GAUGE("chmu_config_epoch_seconds", "Epoch length.", in->epoch_us / 1e6);
	CONFIG_GAUGE("chmu_config_downsampling_factor", "Down-sampling factor (1: every access).",
		     (double)(1ULL << (in->ds_shift & 63)));
	CONFIG_GAUGE("chmu_config_hotlist_entries", "Hotlist capacity in entries.",
		     in->hotlist_size);

	mx_family(b, "chmu_exporter_region_bytes", MX_GAUGE,
		  "Size of the DPA regions of chmu_region_counts (-g).");
	mx_sample_u64(b, NULL, 1ULL << x->region_shift);
	mx_family(b, "chmu_exporter_region_series", MX_GAUGE,
		  "Region series exported now.");
	mx_sample_u64(b, NULL, nreg);
	mx_family(b, "chmu_exporter_region_series_limit", MX_GAUGE,
		  "Most region series the exporter keeps (--max-regions).");
	mx_sample_u64(b, NULL, env.max_regions);
	mx_family(b, "chmu_exporter_untracked_entries", MX_COUNTER,
		  "Entries of instances beyond the exporter's instance limit.");
	mx_sample_u64(b, NULL, skel->bss->untracked);
	mx_family(b, "chmu_exporter_scrapes", MX_COUNTER, "Scrapes of /metrics served.");
	mx_sample_u64(b, NULL, ++x->scrapes);
	mx_family(b, "chmu_exporter_build", MX_INFO, "The exporter's version.");
	mx_labels_init(&l);
	mx_label(&l, "version", "%s", VERSION);
	mx_sample(b, &l, 1);
	mx_finish(b);
#undef CONFIG_GAUGE
#undef EACH_ROW
out:
	free(regs);
	free(nodes);
	free(st);
	free(rows);
	free(sys);
}

static enum MHD_Result reply(struct MHD_Connection *c, unsigned int status,
			     const char *type, char *body, size_t len,
			     enum MHD_ResponseMemoryMode mode)
{
	struct MHD_Response *r;
	enum MHD_Result ret;

	r = MHD_create_response_from_buffer(len, body, mode);
	if (!r) {
		if (mode == MHD_RESPMEM_MUST_FREE)
			free(body);
		return MHD_NO;
	}
	MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, type);
	if (status == MHD_HTTP_METHOD_NOT_ALLOWED)
		MHD_add_response_header(r, MHD_HTTP_HEADER_ALLOW, "GET, HEAD");
	ret = MHD_queue_response(c, status, r);
	MHD_destroy_response(r);
	return ret;
}

static enum MHD_Result on_request(void *cls, struct MHD_Connection *c,
				  const char *url, const char *method,
				  const char *version, const char *upload,
				  size_t *upload_size, void **req)
{
	static char index_page[] =
		"chmu-exporter: CXL Hotness Monitoring Unit metrics at /metrics\n";
	static char not_found[] = "not found: the metrics are at /metrics\n";
	static char not_allowed[] = "only GET and HEAD\n";
	static char failed[] = "out of memory rendering the metrics\n";
	struct exporter *x = cls;
	struct mx_buf b;
	const char *type;

	(void)version;
	(void)upload;
	(void)upload_size;
	(void)req;
	if (strcmp(method, MHD_HTTP_METHOD_GET) && strcmp(method, MHD_HTTP_METHOD_HEAD))
		return reply(c, MHD_HTTP_METHOD_NOT_ALLOWED, "text/plain", not_allowed,
			     strlen(not_allowed), MHD_RESPMEM_PERSISTENT);
	if (!strcmp(url, "/"))
		return reply(c, MHD_HTTP_OK, "text/plain", index_page,
			     strlen(index_page), MHD_RESPMEM_PERSISTENT);
	if (strcmp(url, "/metrics"))
		return reply(c, MHD_HTTP_NOT_FOUND, "text/plain", not_found,
			     strlen(not_found), MHD_RESPMEM_PERSISTENT);

	mx_init(&b, mx_negotiate(MHD_lookup_connection_value(c, MHD_HEADER_KIND,
							      MHD_HTTP_HEADER_ACCEPT)));
	pthread_mutex_lock(&x->lock);
	render(x, &b);
	pthread_mutex_unlock(&x->lock);
	if (b.oom) {
		mx_free(&b);
		return reply(c, MHD_HTTP_INTERNAL_SERVER_ERROR, "text/plain", failed,
			     strlen(failed), MHD_RESPMEM_PERSISTENT);
	}
	type = b.fmt == MX_OPENMETRICS ? MX_CONTENT_OPENMETRICS : MX_CONTENT_PROMETHEUS;
	return reply(c, MHD_HTTP_OK, type, b.data, b.len, MHD_RESPMEM_MUST_FREE);
}

/* A listening socket on env.host:env.port, or -1 with a one-line reason. */
static int listen_socket(bool *v6)
{
	struct addrinfo hints = { .ai_socktype = SOCK_STREAM,
				  .ai_flags = AI_PASSIVE | AI_NUMERICSERV };
	struct addrinfo *ai = NULL;
	char port[8];
	int fd, one = 1, err;

	snprintf(port, sizeof(port), "%u", env.port);
	err = getaddrinfo(env.host, port, &hints, &ai);
	if (err) {
		fprintf(stderr, TOOL ": cannot listen on %s:%u: %s\n", env.host,
			env.port, gai_strerror(err));
		return -1;
	}
	fd = socket(ai->ai_family, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd < 0 ||
	    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) ||
	    bind(fd, ai->ai_addr, ai->ai_addrlen) || listen(fd, 64)) {
		fprintf(stderr, TOOL ": cannot listen on %s:%u: %s\n", env.host,
			env.port, strerror(errno));
		if (fd >= 0)
			close(fd);
		fd = -1;
	}
	*v6 = ai->ai_family == AF_INET6;
	freeaddrinfo(ai);
	return fd;
}

int main(int argc, char **argv)
{
	static const struct argp argp = {
		.options = opts,
		.parser = parse_arg,
		.children = chmu_argp_children_attr,
		.args_doc = "",
		.doc = "Serve CXL memory hotness (CHMU hotlists) as Prometheus metrics at /metrics.\n\n"
		       "EXAMPLES:\n"
		       "  chmu-exporter                      # 127.0.0.1:9849, 2 MiB regions\n"
		       "  chmu-exporter -l 0.0.0.0:9849 -g 1G --max-regions 512\n"
		       "  chmu-exporter -m mem0 --enable -t 20 -e 1000000\n",
	};
	struct exporter x = { .lock = PTHREAD_MUTEX_INITIALIZER };
	struct chmu_exporter_bpf *skel = NULL;
	struct MHD_Daemon *d = NULL;
	struct chmu_tool t = { .name = TOOL, .verbose = &env.verbose, .any_instance = true };
	sigset_t set;
	bool v6 = false;
	int err, sig = SIGTERM, lfd = -1;
	uint64_t served;

	/*
	 * The runtime blocks the signals that end the run before any thread
	 * (libmicrohttpd's) exists: sigwait() below takes them, in this thread
	 * only. SIGHUP ends nothing (there is no configuration to reload).
	 */
	err = chmu_tool_start(&t, &argp, argc, argv);
	if (err)
		return err;
	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGHUP);
	lfd = listen_socket(&v6);
	if (lfd < 0) {
		err = CHMU_EXIT_ENV;
		goto cleanup;
	}

	skel = chmu_exporter_bpf__open();
	if (!skel) {
		fprintf(stderr, TOOL ": cannot open the BPF object: %s\n", strerror(errno));
		err = CHMU_EXIT_ENV;
		goto cleanup;
	}
	CHMU_TOOL_TARGETS(skel);
	x.region_shift = __builtin_ctzll(env.gran);
	skel->rodata->region_shift = x.region_shift;
	bpf_map__set_max_entries(skel->maps.regions, env.max_regions);
	bpf_map__set_max_entries(skel->maps.owners, env.max_cgroups);
	t.owner = x.owner = CHMU_OWNER_BPF(skel);
	err = chmu_tool_load(&t, skel->skeleton, skel->progs.batch_btf, skel->progs.batch_raw,
			     env.cgroups, &skel->rodata->by_cgroup);
	if (err)
		goto cleanup;
	x.names = t.names;
	x.skel = skel;
	set_windows(skel, t.insts, t.ninst);

	d = MHD_start_daemon(MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_AUTO | MHD_USE_ERROR_LOG |
			     (v6 ? MHD_USE_IPv6 : 0),
			     0, NULL, NULL, on_request, &x,
			     MHD_OPTION_LISTEN_SOCKET, lfd,
			     MHD_OPTION_THREAD_POOL_SIZE, (unsigned int)env.threads,
			     MHD_OPTION_CONNECTION_TIMEOUT, (unsigned int)env.timeout,
			     MHD_OPTION_CONNECTION_LIMIT, (unsigned int)MAX_CONNECTIONS,
			     MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)(64 * 1024),
			     MHD_OPTION_END);
	if (!d) {
		fprintf(stderr, TOOL ": cannot start the HTTP server on %s:%u\n",
			env.host, env.port);
		err = CHMU_EXIT_ENV;
		goto cleanup;
	}
	lfd = -1;	/* the daemon's now */
	if (env.json) {
		char url[300];

		snprintf(url, sizeof(url), "http://%s%s%s:%u/metrics", v6 ? "[" : "",
			 env.host, v6 ? "]" : "", env.port);
		chmu_json_begin(stdout, "serving");
		chmu_json_str(stdout, "url", url);
		chmu_json_u64(stdout, "region_bytes", env.gran);
		chmu_json_u64(stdout, "max_regions", env.max_regions);
		chmu_json_end(stdout);
		fflush(stdout);
	} else {
		fprintf(stderr, TOOL ": serving http://%s%s%s:%u/metrics (regions of %llu bytes, at most %ld series)\n",
			v6 ? "[" : "", env.host, v6 ? "]" : "", env.port, U(env.gran),
			env.max_regions);
	}

	do {
		if (sigwait(&set, &sig))
			break;
	} while (sig == SIGHUP);
	pthread_mutex_lock(&x.lock);
	served = x.scrapes;
	pthread_mutex_unlock(&x.lock);
	if (env.json) {
		chmu_json_begin(stdout, "summary");
		chmu_json_str(stdout, "signal", strsignal(sig));
		chmu_json_u64(stdout, "scrapes", served);
		chmu_json_end(stdout);
		fflush(stdout);
	} else {
		fprintf(stderr, TOOL ": %s, %llu scrapes served\n", strsignal(sig), U(served));
	}
	err = 0;

cleanup:
	if (d)
		MHD_stop_daemon(d);
	if (lfd >= 0)
		close(lfd);
	chmu_exporter_bpf__destroy(skel);
	chmu_tool_stop(&t);
	return err;
}
