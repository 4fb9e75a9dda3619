// SPDX-License-Identifier: GPL-2.0
/*
 * chmuheat: histograms and heatmaps of CXL memory hotness, from the CHMU
 * driver's chmu:chmu_hotlist_batch tracepoint (one program run per drain
 * walks its entries), aggregated in the kernel.
 *
 * Every interval: the log2 histogram of the hotlist counts seen, per
 * instance. At the end: per-region histograms labelled with DPA and HPA
 * ranges, and the address x interval heatmap in the terminal and, with
 * -o, as an SVG image.
 */
#include <argp.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <linux/types.h>

#include "chmuheat.h"
#include "chmuheat.skel.h"
#include "lib/chmubpf.h"
#include "lib/chmurun.h"
#include "lib/chmutool.h"
#include "lib/heat.h"
#include "lib/owner.h"

#define TOOL "chmuheat"
#define U(x) ((unsigned long long)(x))

const char *argp_program_version = TOOL " 0.1";
const char *argp_program_bug_address = "the CHMU lab issue tracker";

enum { OPT_CSV = 1000, OPT_NO_HEATMAP, OPT_WINDOW, OPT_BY, OPT_HEATMAP_ROWS };

static struct env {
	uint64_t region_size;
	unsigned int rows, window;
	const char *svg;
	bool json, csv, heatmap, timestamp, verbose, by_cgroup;
	long interval, count;
} env = {
	.region_size = 256ULL << 20, .rows = 16, .heatmap = true,
	.interval = 1, .count = -1,
};

static const struct argp_option opts[] = {
	{ "granularity", 'g', "SIZE", 0, "Aggregate units into regions of SIZE for the per-region histograms (a power of two >= 256, default 256M)", 0 },
	{ "region-size", 'g', NULL, OPTION_ALIAS | OPTION_HIDDEN, NULL, 0 },
	{ "heatmap-rows", OPT_HEATMAP_ROWS, "N", 0, "Heatmap rows over the device's capacity (default 16)", 0 },
	/* its old spelling, -r/--rows: -r is chmutop's rows shown (docs/options.md) */
	{ "rows", 'r', "N", OPTION_HIDDEN, NULL, 0 },
	{ "svg", 'o', "FILE", 0, "Also write the heatmap as an SVG image", 0 },
	{ "json", 'j', NULL, 0, "NDJSON records instead of text", 0 },
	{ "csv", OPT_CSV, NULL, 0, "CSV rows instead of text", 0 },
	{ "no-heatmap", OPT_NO_HEATMAP, NULL, 0, "No heatmap at the end", 0 },
	{ "heatmap-intervals", OPT_WINDOW, "N", 0, "The heatmap shows the last N intervals (default: count, or 3600)", 0 },
	/* its old spelling: --window is chmualert's, in seconds (docs/options.md) */
	{ "window", OPT_WINDOW, NULL, OPTION_ALIAS | OPTION_HIDDEN, NULL, 0 },
	{ "timestamp", 'T', NULL, 0, "Print a timestamp with each interval", 0 },
	{ "by", OPT_BY, "KEY", 0, "unit (default: histograms of the units per instance), or cgroup: also a histogram per owner of the units (the memory cgroup with most of a unit's pages, read at the drain)", 0 },
	{ "verbose", 'v', NULL, 0, "libbpf debug output", 0 },
	{},
};

static error_t parse_arg(int key, char *arg, struct argp_state *st)
{
	switch (key) {
	case 'g':
		env.region_size = chmu_argp_granularity(st, arg);
		break;
	case 'r':
	case OPT_HEATMAP_ROWS:
		env.rows = chmu_argp_num(st, OPT_HEATMAP_ROWS, arg, 1, 4096);
		break;
	case 'o':
		env.svg = arg;
		break;
	case 'j':
		env.json = true;
		break;
	case OPT_WINDOW:
		env.window = chmu_argp_num(st, key, arg, 1, 100000);
		break;
	case OPT_CSV:
		env.csv = true;
		break;
	case OPT_NO_HEATMAP:
		env.heatmap = false;
		break;
	case 'T':
		env.timestamp = true;
		break;
	case 'v':
		env.verbose = true;
		break;
	case ARGP_KEY_ARG:
		return chmu_argp_interval(st, arg, &env.interval, &env.count);
	case ARGP_KEY_END:
		if (env.json && env.csv)
			argp_error(st, "-j and --csv exclude each other");
		if (env.csv && env.by_cgroup)
			argp_error(st, "--by cgroup has no CSV form (-j has it)");
		break;
	case OPT_BY:
		/* "instance": the old name of unit */
		env.by_cgroup = strcmp(arg, "instance") && chmu_argp_by_cgroup(st, arg);
		if (env.csv && env.by_cgroup)
			argp_error(st, "--by cgroup has no CSV form (-j has it)");
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

struct state {
	struct chmuheat_bpf *skel;
	struct chmu_inst *insts;
	int ninst;
	uint64_t row_size;
	struct heat_grid *grids;	/* one per instance: a rolling window */
	uint64_t intervals;		/* intervals ended so far */
	unsigned int maxcols;		/* the window's intervals */
	__u64 (*total)[CHMUHEAT_SLOTS];	/* per instance, whole run */
	struct hist *interval;		/* per instance, this interval */
	struct owner_names *names;	/* --by cgroup */
	struct owner_row *orows, *ototal;	/* this interval's, the run's */
	size_t norows, nototal, caporows, capototal;
	uint64_t oom_interval, oom_total;	/* entries left out of them: no memory */
};

/* --by cgroup: one owner's histogram of an instance */
struct owner_row {
	int inst;
	uint64_t owner;
	struct owner_hist h;
};

static int inst_index(struct state *s, uint32_t id)
{
	int i;

	for (i = 0; i < s->ninst; i++)
		if (s->insts[i].id == id)
			return i;
	return -1;
}

static void print_time(FILE *f)
{
	char buf[32];
	time_t t = time(NULL);

	chmu_fmt_clock(t, buf, sizeof(buf));
	fprintf(f, "%-8s\n", buf);
}

/* The keys of a generation, listed by chmu_map_dump() */
struct gen_keys {
	char *keys;
	size_t n, cap, ksz;
	__u32 g;
};

static int list_gen_key(const void *key, const void *val, void *ctx)
{
	struct gen_keys *l = ctx;
	__u32 kg;
	char *nk;

	(void)val;
	memcpy(&kg, (const char *)key + sizeof(__u32), sizeof(kg));
	/* and any older one a run wrote late (chmu_gen_advance) */
	if ((int32_t)(kg - l->g) > 0)
		return 0;
	if (l->n == l->cap) {
		l->cap = l->cap ? 2 * l->cap : 256;
		nk = realloc(l->keys, l->cap * l->ksz);
		if (!nk)
			return -ENOMEM;
		l->keys = nk;
	}
	memcpy(l->keys + l->n++ * l->ksz, key, l->ksz);
	return 0;
}

/*
 * Take out of map @fd every entry whose key is of generation @g or older (the
 * second 32-bit word of every interval-cleared key), handing each to @fn.
 * Keys are listed first, then taken one by one (looked up and deleted at
 * once), so that deleting does not disturb the walk.
 */
static int take_generation(int fd, size_t ksz, size_t vsz, __u32 g,
			   void (*fn)(struct state *, const void *, const void *,
				      uint64_t),
			   struct state *s, uint64_t col)
{
	struct gen_keys l = { .ksz = ksz, .g = g };
	char *val = malloc(vsz);
	size_t i;
	int err;

	if (!val)
		return -ENOMEM;
	err = chmu_map_dump(fd, ksz, vsz, list_gen_key, &l);
	for (i = 0; !err && i < l.n; i++)
		if (!bpf_map_lookup_and_delete_elem(fd, l.keys + i * ksz, val))
			fn(s, l.keys + i * ksz, val, col);
	free(l.keys);
	free(val);
	return err;
}

static void take_hist(struct state *s, const void *key, const void *val,
		      uint64_t col)
{
	const struct hist_key *hk = key;
	const struct hist *h = val;
	int i = inst_index(s, hk->inst);

	(void)col;
	if (i < 0)
		return;
	for (unsigned int k = 0; k < CHMUHEAT_SLOTS; k++) {
		s->interval[i].slots[k] += h->slots[k];
		s->total[i][k] += h->slots[k];
	}
}

/* Add @h to the row of (@inst, @owner) in *@v, which grows as needed */
static int owner_row_add(struct owner_row **v, size_t *n, size_t *cap, int inst,
			 uint64_t owner, const struct owner_hist *h)
{
	struct owner_row *r = NULL;
	size_t i;

	for (i = 0; i < *n; i++)
		if ((*v)[i].inst == inst && (*v)[i].owner == owner)
			r = &(*v)[i];
	if (!r) {
		if (*n == *cap) {
			size_t c = *cap ? 2 * *cap : 16;
			struct owner_row *nv = realloc(*v, c * sizeof(*nv));

			if (!nv)
				return -ENOMEM;
			*v = nv;
			*cap = c;
		}
		r = &(*v)[(*n)++];
		memset(r, 0, sizeof(*r));
		r->inst = inst;
		r->owner = owner;
	}
	r->h.entries += h->entries;
	r->h.sum += h->sum;
	r->h.mixed += h->mixed;
	for (i = 0; i < CHMUHEAT_SLOTS; i++)
		r->h.slots[i] += h->slots[i];
	return 0;
}

static void take_owner(struct state *s, const void *key, const void *val,
		       uint64_t col)
{
	const struct owner_key *k = key;
	int i = inst_index(s, k->inst);

	(void)col;
	if (i < 0)
		return;
	/* out of memory: the row is missing, said at the end */
	if (owner_row_add(&s->orows, &s->norows, &s->caporows, i, k->owner, val))
		s->oom_interval += ((const struct owner_hist *)val)->entries;
	if (owner_row_add(&s->ototal, &s->nototal, &s->capototal, i, k->owner, val))
		s->oom_total += ((const struct owner_hist *)val)->entries;
}

static int owner_row_cmp(const void *a, const void *b)
{
	const struct owner_row *x = a, *y = b;

	if (x->inst != y->inst)
		return x->inst < y->inst ? -1 : 1;
	if (x->h.entries != y->h.entries)
		return x->h.entries > y->h.entries ? -1 : 1;
	return x->owner < y->owner ? -1 : x->owner > y->owner;
}

/* The owners' histograms of instance @i in @v: text or NDJSON */
static void print_owners(struct state *s, struct owner_row *v, size_t n, int i,
			 uint64_t col, bool total)
{
	size_t r;

	qsort(v, n, sizeof(*v), owner_row_cmp);
	for (r = 0; r < n; r++) {
		const struct owner_row *o = &v[r];
		const char *name;

		if (o->inst != i)
			continue;
		name = owner_key_name(s->names, o->owner);
		if (env.json) {
			chmu_json_begin(stdout, total ? "cgroup_total" : "cgroup_hist");
			chmu_json_str(stdout, "instance", s->insts[i].name);
			if (!total)
				chmu_json_u64(stdout, "interval", col);
			chmu_json_str(stdout, "cgroup", name);
			chmu_json_u64(stdout, "entries", o->h.entries);
			chmu_json_u64(stdout, "sum", o->h.sum);
			chmu_json_u64(stdout, "mixed", o->h.mixed);
			fputs(",\"buckets\":[", stdout);
			for (unsigned int k = 0, sep = 0; k < CHMUHEAT_SLOTS; k++) {
				if (!o->h.slots[k])
					continue;
				printf("%s{\"lo\":%llu,\"hi\":%llu,\"count\":%llu}",
				       sep++ ? "," : "", k ? 1ULL << k : 0ULL,
				       (2ULL << k) - 1, U(o->h.slots[k]));
			}
			fputc(']', stdout);
			chmu_json_end(stdout);
		} else {
			printf("%s cgroup %s: %llu entries, counts summing to %llu",
			       s->insts[i].name, name, U(o->h.entries), U(o->h.sum));
			if (o->h.mixed)
				printf(" (%llu of units with other owners too)", U(o->h.mixed));
			putchar('\n');
			heat_print_log2(stdout, o->h.slots, CHMUHEAT_SLOTS, "count");
			putchar('\n');
		}
	}
}

static void take_cell(struct state *s, const void *key, const void *val,
		      uint64_t col)
{
	const struct cell_key *ck = key;
	int i = inst_index(s, ck->inst);

	/* the BPF program keeps rows past the grid out (beyond_rows) */
	if (i >= 0 && ck->row < s->grids[i].rows)
		heat_roll_add(&s->grids[i], col, col, ck->row, *(const __u64 *)val);
}

/* Take the interval's histograms and heatmap column (generation @g). */
static int collect(struct state *s, __u32 g, uint64_t col)
{
	struct hist *hists = s->interval;
	int i, err;

	memset(hists, 0, s->ninst * sizeof(*hists));
	for (i = 0; i < s->ninst; i++)
		heat_roll_start(&s->grids[i], col);
	err = take_generation(bpf_map__fd(s->skel->maps.hists),
			      sizeof(struct hist_key), sizeof(struct hist), g,
			      take_hist, s, col);
	s->norows = 0;
	if (!err && env.by_cgroup) {
		owner_names_expire(s->names);
		err = take_generation(bpf_map__fd(s->skel->maps.owner_hists),
				      sizeof(struct owner_key), sizeof(struct owner_hist),
				      g, take_owner, s, col);
	}
	if (!err)
		err = take_generation(bpf_map__fd(s->skel->maps.cells),
				      sizeof(struct cell_key), sizeof(__u64), g,
				      take_cell, s, col);
	if (err)
		return err;

	for (i = 0; i < s->ninst; i++) {
		uint64_t n = 0;

		for (unsigned int k = 0; k < CHMUHEAT_SLOTS; k++)
			n += hists[i].slots[k];
		if (env.json) {
			chmu_json_begin(stdout, "hist");
			chmu_json_str(stdout, "instance", s->insts[i].name);
			chmu_json_u64(stdout, "interval", col);
			chmu_json_u64(stdout, "entries", n);
			fputs(",\"buckets\":[", stdout);
			for (unsigned int k = 0, sep = 0; k < CHMUHEAT_SLOTS; k++) {
				if (!hists[i].slots[k])
					continue;
				printf("%s{\"lo\":%llu,\"hi\":%llu,\"count\":%llu}",
				       sep++ ? "," : "", k ? 1ULL << k : 0ULL,
				       (2ULL << k) - 1, hists[i].slots[k]);
			}
			fputc(']', stdout);
			chmu_json_end(stdout);
		} else if (env.csv) {
			for (unsigned int k = 0; k < CHMUHEAT_SLOTS; k++)
				if (hists[i].slots[k])
					printf("hist,%s,%llu,,,,,%llu,%llu,%llu,,\n",
					       s->insts[i].name, U(col),
					       k ? 1ULL << k : 0ULL, (2ULL << k) - 1,
					       hists[i].slots[k]);
		} else {
			if (env.timestamp)
				print_time(stdout);
			printf("%s: %llu entries\n", s->insts[i].name, U(n));
			heat_print_log2(stdout, hists[i].slots, CHMUHEAT_SLOTS,
					"count");
			putchar('\n');
		}
		if (env.by_cgroup)
			print_owners(s, s->orows, s->norows, i, col, false);
	}
	fflush(stdout);
	return 0;
}

/* The regions map's keys, listed by chmu_map_dump() */
struct region_list {
	struct region_key *keys;
	int n, cap;
};

static int list_region(const void *key, const void *val, void *ctx)
{
	struct region_list *l = ctx;

	(void)val;	/* looked up again once sorted */
	if (l->n == l->cap) {
		int cap = l->cap ? 2 * l->cap : 64;
		struct region_key *nk = realloc(l->keys, cap * sizeof(*nk));

		if (!nk)
			return -ENOMEM;
		l->keys = nk;
		l->cap = cap;
	}
	l->keys[l->n++] = *(const struct region_key *)key;
	return 0;
}

static void print_regions(struct state *s)
{
	int rfd = bpf_map__fd(s->skel->maps.regions);
	struct region_list l = {};
	struct region_key *keys;
	struct region_val rv;
	int n, i, j;
	char a[32];

	/* what was listed before a failure (out of memory) is still printed */
	chmu_map_dump(rfd, sizeof(struct region_key), sizeof(struct region_val),
		      list_region, &l);
	keys = l.keys;
	n = l.n;
	/* by instance, then address */
	for (i = 1; i < n; i++)
		for (j = i; j > 0 && (keys[j - 1].inst > keys[j].inst ||
				      (keys[j - 1].inst == keys[j].inst &&
				       keys[j - 1].region > keys[j].region)); j--) {
			struct region_key t = keys[j];

			keys[j] = keys[j - 1];
			keys[j - 1] = t;
		}
	if (!env.json && !env.csv)
		printf("Regions of %s (DPA ranges; HPA: lowest and highest hot unit seen)\n",
		       chmu_fmt_size(env.region_size, a, sizeof(a)));
	for (i = 0; i < n; i++) {
		uint64_t lo, hi;
		int k = inst_index(s, keys[i].inst);
		const char *name = k >= 0 ? s->insts[k].name : "?";
		uint64_t unit = k >= 0 ? 1ULL << s->insts[k].unit_shift : 0;

		if (bpf_map_lookup_elem(rfd, &keys[i], &rv))
			continue;
		heat_region_range(keys[i].region, __builtin_ctzll(env.region_size),
				  &lo, &hi);
		if (env.json) {
			chmu_json_begin(stdout, "region");
			chmu_json_str(stdout, "instance", name);
			chmu_json_u64(stdout, "region", keys[i].region);
			chmu_json_u64(stdout, "dpa_lo", lo);
			chmu_json_u64(stdout, "dpa_hi", hi);
			if (rv.hpa_lo != ~0ULL) {
				chmu_json_u64(stdout, "hpa_lo", rv.hpa_lo);
				chmu_json_u64(stdout, "hpa_hi", rv.hpa_hi + unit - 1);
			}
			chmu_json_u64(stdout, "entries", rv.entries);
			chmu_json_u64(stdout, "sum", rv.sum);
			chmu_json_u64(stdout, "max", rv.max);
			fputs(",\"buckets\":[", stdout);
			for (unsigned int b2 = 0, sep = 0; b2 < CHMUHEAT_SLOTS; b2++)
				if (rv.slots[b2])
					printf("%s{\"lo\":%llu,\"hi\":%llu,\"count\":%llu}",
					       sep++ ? "," : "", b2 ? 1ULL << b2 : 0ULL,
					       (2ULL << b2) - 1, rv.slots[b2]);
			fputc(']', stdout);
			chmu_json_end(stdout);
		} else if (env.csv) {
			printf("region,%s,,0x%llx,0x%llx,", name, U(lo), U(hi));
			if (rv.hpa_lo != ~0ULL)
				printf("0x%llx,0x%llx", rv.hpa_lo, rv.hpa_hi + unit - 1);
			else
				putchar(',');
			printf(",,,%llu,%llu,%llu\n", rv.entries, rv.sum, rv.max);
		} else {
			printf("\n%s region %llu: DPA 0x%llx-0x%llx",
			       name, keys[i].region, U(lo), U(hi));
			if (rv.hpa_lo != ~0ULL)
				printf("  HPA 0x%llx-0x%llx", rv.hpa_lo,
				       rv.hpa_hi + unit - 1);
			else
				printf("  HPA none (no region maps it)");
			printf("\n  %llu entries, counts sum %llu, max %llu\n",
			       rv.entries, rv.sum, rv.max);
			heat_print_log2(stdout, rv.slots, CHMUHEAT_SLOTS, "count");
		}
	}
	free(keys);
}

static int write_svg(struct heat_grid *g, const char *path)
{
	FILE *f = fopen(path, "w");

	if (!f)
		return -errno;
	heat_render_svg(f, g);
	return fclose(f) ? -errno : 0;
}

static void emit_cells(struct state *s, int i, struct heat_grid *v,
		       uint64_t first)
{
	unsigned int r, c;

	for (r = 0; r < v->rows; r++)
		for (c = 0; c < v->cols; c++) {
			uint64_t x = *heat_cell(v, r, c);

			if (!x)
				continue;
			if (env.csv) {
				printf("cell,%s,%llu,0x%llx,0x%llx,,,,,,%llu,\n",
				       s->insts[i].name, U(first + c), U(r * s->row_size),
				       U((r + 1) * s->row_size - 1), U(x));
				continue;
			}
			chmu_json_begin(stdout, "cell");
			chmu_json_str(stdout, "instance", s->insts[i].name);
			chmu_json_u64(stdout, "dpa", r * s->row_size);
			chmu_json_u64(stdout, "bytes", s->row_size);
			chmu_json_u64(stdout, "interval", first + c);
			chmu_json_u64(stdout, "sum", x);
			chmu_json_end(stdout);
		}
}

/* The heatmap of each instance over the intervals seen so far. */
static void print_heatmaps(struct state *s)
{
	char title[200], sz[32], path[512];
	struct heat_grid v;
	uint64_t first;
	int i, err;

	for (i = 0; i < s->ninst; i++) {
		if (heat_roll_view(&s->grids[i], s->intervals, &v, &first))
			continue;
		if (first)	/* the window rolled: say which intervals */
			snprintf(title, sizeof(title),
				 "%s hotness: %s per row, %ld s per column, the last %u intervals (%llu-%llu)",
				 s->insts[i].name,
				 chmu_fmt_size(s->row_size, sz, sizeof(sz)),
				 env.interval, v.cols, U(first), U(first + v.cols - 1));
		else
			snprintf(title, sizeof(title), "%s hotness: %s per row, %ld s per column",
				 s->insts[i].name,
				 chmu_fmt_size(s->row_size, sz, sizeof(sz)), env.interval);
		v.row_size = s->row_size;
		v.col_secs = env.interval;
		v.title = title;
		if (env.json || env.csv) {
			emit_cells(s, i, &v, first);
		} else if (env.heatmap) {
			putchar('\n');
			heat_render_text(stdout, &v, !chmu_no_color(stdout));
		}
		if (env.svg) {
			if (s->ninst == 1)
				snprintf(path, sizeof(path), "%s", env.svg);
			else
				snprintf(path, sizeof(path), "%s.%s.svg", env.svg,
					 s->insts[i].name);
			err = write_svg(&v, path);
			if (err)
				fprintf(stderr, TOOL ": cannot write %s: %s\n", path,
					strerror(-err));
			else if (!env.json && !env.csv)
				printf("heatmap image: %s\n", path);
		}
		heat_grid_free(&v);
	}
}

static void print_totals(struct state *s)
{
	int i;

	for (i = 0; i < s->ninst; i++) {
		unsigned long long n = 0;

		for (unsigned int k = 0; k < CHMUHEAT_SLOTS; k++)
			n += s->total[i][k];
		printf("%s, all %llu intervals: %llu entries\n", s->insts[i].name,
		       U(s->intervals), n);
		heat_print_log2(stdout, s->total[i], CHMUHEAT_SLOTS, "count");
		putchar('\n');
		if (env.by_cgroup)
			print_owners(s, s->ototal, s->nototal, i, 0, true);
	}
}

/*
 * The end of the run: the run's histograms, regions and heatmap, then every
 * entry left out of an aggregate with its reason, and the NDJSON summary
 */
static void run_end(struct state *s)
{
	char sz[32];
	int i;

	if (!env.json && !env.csv)
		print_totals(s);
	else if (env.json && env.by_cgroup)
		for (i = 0; i < s->ninst; i++)
			print_owners(s, s->ototal, s->nototal, i, 0, true);
	print_regions(s);
	if (env.heatmap || env.svg)
		print_heatmaps(s);
	/* every entry left out of an aggregate, with its reason */
	if (s->skel->bss->dropped_hist)
		fprintf(stderr, TOOL ": %llu entries not in the histograms: their BPF map was full\n",
			U(s->skel->bss->dropped_hist));
	if (s->skel->bss->dropped_region)
		fprintf(stderr, TOOL ": %llu entries not in the regions: their BPF map was full (a larger -g makes fewer regions)\n",
			U(s->skel->bss->dropped_region));
	if (s->skel->bss->dropped_cell)
		fprintf(stderr, TOOL ": %llu entries not in the heatmap: its BPF map was full\n",
			U(s->skel->bss->dropped_cell));
	if (s->skel->bss->beyond_rows)
		fprintf(stderr, TOOL ": %llu entries not in the heatmap: their DPA is past its %u rows of %s\n",
			U(s->skel->bss->beyond_rows), env.rows,
			chmu_fmt_size(s->row_size, sz, sizeof(sz)));
	if (s->oom_interval || s->oom_total)
		fprintf(stderr, TOOL ": %llu entries not in the intervals' histograms per cgroup, %llu not in the run's: out of memory\n",
			U(s->oom_interval), U(s->oom_total));
	if (s->skel->bss->dropped_owner)
		fprintf(stderr, TOOL ": %llu entries not in the histograms per cgroup: their BPF map was full (%u owners per interval)\n",
			U(s->skel->bss->dropped_owner), CHMUHEAT_MAX_OWNERS);
	if (s->skel->bss->chmu_owner_unattributed)
		fprintf(stderr, TOOL ": %llu entries not attributed: each drain reads %u struct pages at most (--max-attr-pages)\n",
			U(s->skel->bss->chmu_owner_unattributed), chmu_attr_pages);
	if (s->skel->bss->dropped_read)
		fprintf(stderr, TOOL ": %llu entries in no aggregate: the driver's batch could not be read\n",
			U(s->skel->bss->dropped_read));
	/* and what never reached the tool */
	if (s->skel->bss->overflows)
		fprintf(stderr, TOOL ": the device reported overflow in %llu of %llu drains: hot units it could not post are in no figure\n",
			U(s->skel->bss->overflows), U(s->skel->bss->batches));
	if (s->skel->bss->lost)
		fprintf(stderr, TOOL ": the driver counted %llu entries lost to its perf AUX consumer during the run (they are in these figures)\n",
			U(s->skel->bss->lost));
	if (env.json) {
		chmu_json_begin(stdout, "summary");
		chmu_json_u64(stdout, "entries", s->skel->bss->entries);
		chmu_json_u64(stdout, "dropped", s->skel->bss->dropped_hist +
			      s->skel->bss->dropped_region + s->skel->bss->dropped_cell +
			      s->skel->bss->beyond_rows + s->skel->bss->dropped_read);
		chmu_json_u64(stdout, "dropped_hist", s->skel->bss->dropped_hist);
		chmu_json_u64(stdout, "dropped_regions", s->skel->bss->dropped_region);
		chmu_json_u64(stdout, "dropped_cells", s->skel->bss->dropped_cell);
		chmu_json_u64(stdout, "beyond_rows", s->skel->bss->beyond_rows);
		chmu_json_u64(stdout, "dropped_read", s->skel->bss->dropped_read);
		if (env.by_cgroup) {
			chmu_json_u64(stdout, "dropped_owners", s->skel->bss->dropped_owner);
			chmu_json_u64(stdout, "unattributed",
				      s->skel->bss->chmu_owner_unattributed);
		}
		chmu_json_u64(stdout, "batches", s->skel->bss->batches);
		chmu_json_u64(stdout, "overflows", s->skel->bss->overflows);
		chmu_json_u64(stdout, "lost", s->skel->bss->lost);
		chmu_json_u64(stdout, "intervals", s->intervals);
		chmu_json_u64(stdout, "heatmap_intervals", s->intervals < s->maxcols ?
			      s->intervals : s->maxcols);
		chmu_json_end(stdout);
	}
}

/* The interval ended: take it (no drain still writes it) and print it */
static int on_interval(void *ctx, uint64_t n)
{
	struct state *s = ctx;
	__u32 g = chmu_gen_advance(&s->skel->bss->gen, s->skel->bss->gen_busy);
	int err = collect(s, g, n);

	if (err)
		return err;
	s->intervals++;
	return 0;
}

int main(int argc, char **argv)
{
	static const struct argp argp = {
		.options = opts,
		.parser = parse_arg,
		.children = chmu_argp_children_attr,
		.args_doc = "[interval [count]]",
		.doc = "Histograms and heatmaps of CXL memory hotness (CHMU hotlists).\n\n"
		       "EXAMPLES:\n"
		       "  chmuheat                  # 1 s histograms until Ctrl-C, then regions and heatmap\n"
		       "  chmuheat -o heat.svg 2 10 # 10 intervals of 2 s; heatmap also as heat.svg\n"
		       "  chmuheat -i 0.0 -g 64M    # instance 0.0 only, 64 MiB regions\n"
		       "  chmuheat --enable -t 5 -u 4K -e 1000000 5 1\n",
	};
	struct state s = {};
	struct chmu_tool t = { .name = TOOL, .verbose = &env.verbose };
	struct chmu_loop loop = { .on_interval = on_interval, .ctx = &s };
	struct chmu_inst *all;
	int n, i, err = 0;
	uint64_t cap = 0;

	err = chmu_tool_start(&t, &argp, argc, argv);
	if (err)
		return err;
	s.insts = all = t.insts;
	s.ninst = n = t.ninst;
	for (i = 0; i < n; i++)
		if (all[i].capacity > cap)
			cap = all[i].capacity;
	if (!cap)
		cap = 256ULL << 20;
	s.row_size = heat_row_size(cap, env.rows);
	/* the heatmap's window: a run's whole length, or its last hour */
	s.maxcols = env.window ? env.window : env.count > 0 && env.count <= 100000 ?
		    env.count : 3600;
	if ((uint64_t)s.maxcols * env.rows > HEAT_MAX_CELLS) {
		fprintf(stderr, TOOL ": a heatmap of %u rows x %u intervals is more than %u cells: fewer --heatmap-rows or --heatmap-intervals\n",
			env.rows, s.maxcols, HEAT_MAX_CELLS);
		err = CHMU_EXIT_USAGE;
		goto cleanup;
	}
	s.grids = calloc(n, sizeof(*s.grids));
	s.total = calloc(n, sizeof(*s.total));
	s.interval = calloc(n, sizeof(*s.interval));
	if (!s.grids || !s.total || !s.interval) {
		err = CHMU_EXIT_ENV;
		goto cleanup;
	}
	for (i = 0; i < n; i++) {
		if (heat_grid_init(&s.grids[i], env.rows, s.maxcols)) {
			fprintf(stderr, TOOL ": out of memory\n");
			err = CHMU_EXIT_ENV;
			goto cleanup;
		}
		s.grids[i].row_size = s.row_size;
	}

	s.skel = chmuheat_bpf__open();
	if (!s.skel) {
		fprintf(stderr, TOOL ": cannot open the BPF object: %s\n", strerror(errno));
		err = CHMU_EXIT_ENV;
		goto cleanup;
	}
	CHMU_TOOL_TARGETS(s.skel);
	s.skel->rodata->region_shift = __builtin_ctzll(env.region_size);
	s.skel->rodata->row_shift = __builtin_ctzll(s.row_size);
	s.skel->rodata->max_rows = env.rows;
	t.owner = CHMU_OWNER_BPF(s.skel);
	err = chmu_tool_load(&t, s.skel->skeleton, s.skel->progs.batch_btf,
			     s.skel->progs.batch_raw, env.by_cgroup, &s.skel->rodata->by_cgroup);
	if (err)
		goto cleanup;
	s.names = t.names;
	if (!env.json && !env.csv)
		printf("Tracing %d CHMU instance%s (%s)... Ctrl-C to end.\n\n", n,
		       n == 1 ? "" : "s", t.tp_btf ? "tp_btf" : "raw_tp");
	else if (env.csv)
		printf("kind,instance,interval,dpa_lo,dpa_hi,hpa_lo,hpa_hi,lo,hi,entries,sum,max\n");
	fflush(stdout);

	loop.interval = env.interval;
	loop.count = env.count;
	err = chmu_tool_loop(&t, &loop);
	if (err) {
		fprintf(stderr, TOOL ": reading the maps: %s\n", strerror(-err));
		err = CHMU_EXIT_ENV;
		goto cleanup;
	}
	run_end(&s);
	err = 0;

cleanup:
	chmuheat_bpf__destroy(s.skel);
	free(s.orows);
	free(s.ototal);
	for (i = 0; s.grids && i < s.ninst; i++)
		heat_grid_free(&s.grids[i]);
	free(s.grids);
	free(s.total);
	free(s.interval);
	chmu_tool_stop(&t);
	return err;
}
