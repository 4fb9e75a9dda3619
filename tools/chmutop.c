// SPDX-License-Identifier: GPL-2.0
/*
 * chmutop: a live view of the hottest CXL memory and of the CHMU monitor's
 * own health, from the cxl_hmu driver's chmu tracepoints, aggregated in
 * the kernel in bounded maps.
 */
#define _GNU_SOURCE	/* ppoll */
#include <argp.h>
#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <signal.h>
#include <string.h>
#include <dirent.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <linux/types.h>

#include "chmutop.h"
#include "chmutop.skel.h"
#include "lib/chmubpf.h"
#include "lib/chmurun.h"
#include "lib/chmutool.h"
#include "lib/chmuabi.h"
#include "lib/owner.h"
#include "lib/procmap.h"
#include "lib/top.h"

#define TOOL "chmutop"
#define U(x) ((unsigned long long)(x))

const char *argp_program_version = TOOL " 0.1";

enum { OPT_MAX_UNITS = 1000, OPT_BPF_STATS, OPT_BY, OPT_DIRECT_SLOTS };

enum { BY_UNIT, BY_CGROUP, BY_PROCESS };

#define MAX_PIDS	64		/* -p */
#define SCAN_PROCS	4096		/* --by process: processes looked at */
#define SCAN_FRAMES	(1 << 21)	/* page frames kept per frame (8 GiB) */

static struct env {
	int sort, by;
	unsigned int rows, max_units, direct_slots;
	uint64_t gran;
	bool noclear, batch, json, verbose, bpf_stats, cgroup, procs;
	pid_t pids[MAX_PIDS];
	int npids;
	long interval, count;
} env = { .sort = TOP_SORT_RATE, .rows = 10, .interval = 1, .count = -1,
	  .max_units = CHMUTOP_MAX_UNITS, .direct_slots = CHMUTOP_DIRECT_SLOTS };

static const struct argp_option opts[] = {
	{ "sort", 's', "KEY", 0, "Sort by rate (default: the last interval's), count, sum, seen or addr", 0 },
	{ "rows", 'r', "N", 0, "Rows to show (default 10)", 0 },
	{ "granularity", 'g', "SIZE", 0, "Aggregate units into regions of SIZE (a power of two)", 0 },
	{ "noclear", 'C', NULL, 0, "Do not clear the screen between frames", 0 },
	{ "batch", 'b', NULL, 0, "Plain text frames, no terminal control or keys", 0 },
	{ "json", 'j', NULL, 0, "NDJSON records per interval (no terminal control either: -b is implied)", 0 },
	{ "cgroup", 'G', NULL, 0, "Show the memory cgroup that owns each unit's pages, read when the frame is drawn (a column, NDJSON fields)", 0 },
	{ "pid", 'p', "PID,...", 0, "Only the units these processes map, with which of them map each unit's pages (a column, NDJSON fields)", 0 },
	{ "by", OPT_BY, "KEY", 0, "One row per unit (default), per cgroup or per process: the rates and sums of the units it owns or maps, split by page shares", 0 },
	{ "max-units", OPT_MAX_UNITS, "N", 0, "Units (or regions) the kernel's hash map holds, for the instances the direct map does not (default 16384)", 0 },
	{ "direct-slots", OPT_DIRECT_SLOTS, "N", 0, "Slots of the kernel's direct-indexed map, one per unit (or region) of each instance's capacity that fits (default 262144; 0: the hash map only)", 0 },
	{ "bpf-stats", OPT_BPF_STATS, NULL, 0, "Measure chmutop's BPF run time (turns on the kernel's BPF statistics, which every BPF program on the machine then pays for)", 0 },
	{ "verbose", 'v', NULL, 0, "libbpf debug output", 0 },
	{},
};

static error_t parse_arg(int key, char *arg, struct argp_state *st)
{
	switch (key) {
	case 's':
		env.sort = top_parse_sort(arg);
		if (env.sort < 0)
			argp_error(st, "sort key must be count, sum, rate, seen or addr, not '%s'", arg);
		break;
	case 'r':
		env.rows = chmu_argp_num(st, key, arg, 1, 10000);
		break;
	case 'g':
		env.gran = chmu_argp_granularity(st, arg);
		break;
	case 'C':
		env.noclear = true;
		break;
	case 'b':
		env.batch = true;
		break;
	case 'j':
		env.json = true;
		break;
	case OPT_BPF_STATS:
		env.bpf_stats = true;
		break;
	case 'G':
		env.cgroup = true;
		break;
	case OPT_BY:
		if (!strcmp(arg, "unit")) {
			env.by = BY_UNIT;
		} else if (!strcmp(arg, "cgroup")) {
			env.by = BY_CGROUP;
			env.cgroup = true;
		} else if (!strcmp(arg, "process")) {
			env.by = BY_PROCESS;
			env.procs = true;
		} else {
			argp_error(st, "--by must be unit, cgroup or process, not '%s'", arg);
		}
		break;
	case 'p':
		env.npids = procmap_parse_pids(arg, env.pids, MAX_PIDS);
		if (env.npids < 0)
			argp_error(st, "-p/--pid: a list of at most %d process ids (PID,PID,...), not '%s'",
				   MAX_PIDS, arg);
		env.procs = true;
		break;
	case 'v':
		env.verbose = true;
		break;
	case OPT_MAX_UNITS:
		env.max_units = chmu_argp_num(st, key, arg, 1, 1 << 22);
		break;
	case OPT_DIRECT_SLOTS:
		env.direct_slots = chmu_argp_num(st, key, arg, 0, 1 << 22);
		break;
	case ARGP_KEY_ARG:
		return chmu_argp_interval(st, arg, &env.interval, &env.count);
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

/*
 * Header lines: title, 5 per instance (its line, two of health, two of
 * its promoter's), 8 notes, the blank line
 */
#define TOP_HEAD_MAX(ninst) (10 + 5 * (size_t)(ninst))

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

struct state {
	struct chmutop_bpf *skel;
	struct chmu_inst *insts;
	int ninst;
	struct inst_stat *prev;		/* per instance, last interval */
	struct inst_stat *cur;		/* per instance, at this frame's end */
	uint64_t end_ns, end_wall_ns;	/* the frame's end: monotonic, wall */
	uint64_t t0;			/* the frame's start (monotonic) */
	uint64_t mono_to_wall;		/* wall - monotonic, at start */
	__u32 end_gen;			/* the interval the frame closes */
	struct drain_ctr *dprev;	/* per instance, the driver's counters */
	struct top_promote *pprev;	/* per instance, its promoter's */
	bool *prom;			/* per instance, has a promoter (at start) */
	__u64 *cfg_events;		/* per instance, chmu_config events applied */
	uint64_t bpf_ns_prev, bpf_runs_prev;
	struct top_row *rows;
	size_t nrows, cap;
	uint64_t units;			/* map entries */
	/* the direct map (top_plan_direct()): per instance, its range */
	uint32_t *dbase, *dslots;
	uint32_t direct_nr;		/* its slots */
	const struct unit_stat *direct;	/* mapped, read-only */
	const __u64 *touched;		/* ... and the list of its slots in use */
	size_t direct_len, touched_len;	/* the mappings' lengths */
	struct top_touched touched_read;	/* what user space read of touched */
	uint64_t hashed, hash_rows;	/* the hash: units put in before a read, rows it read */
	struct owner_names *names;	/* -G: cgroup paths */
	struct owner_names *own_names;	/* -p without -G: ours */
	struct chmu_owner_bpf owner;	/* -G: the skeleton's attribution */
	struct owner_groups groups;	/* --by cgroup, --by process */
	struct procmap pm;		/* -p, --by process */
	struct procmap_range *ranges;
	size_t pids_scanned, pids_skipped;	/* the last frame's */
	size_t unmapped;		/* -p: units none of them maps, left out */
	struct pid_name { pid_t pid; char name[48]; } *pnames;
	size_t npnames, cappnames;
	bool interactive, paused, color, help;
	int lines, cols;		/* the terminal's size, 0: unknown */
	sigset_t waitmask;		/* the signal mask while waiting for keys */
	struct termios saved, raw;	/* the terminal: as found, and ours */
	bool term_set;			/* ours is set */
	/* the frame on screen, redrawn as it was when the terminal resizes */
	char (*head)[256];		/* TOP_HEAD_MAX(ninst) lines */
	size_t nhead;
	char titles[256];
	char (*shown)[512];
	size_t nshown;
};

static volatile sig_atomic_t resized, suspended;

static void on_winch(int sig)
{
	(void)sig;
	resized = 1;
}

static void on_tstp(int sig)
{
	(void)sig;
	suspended = 1;
}

static void term_size(struct state *s)
{
	struct winsize ws;

	s->lines = s->cols = 0;
	if (!ioctl(1, TIOCGWINSZ, &ws) && ws.ws_row && ws.ws_col) {
		s->lines = ws.ws_row;
		s->cols = ws.ws_col;
	}
}

static void head_line(struct state *s, const char *line)
{
	if (s->nhead < TOP_HEAD_MAX(s->ninst))
		snprintf(s->head[s->nhead++], sizeof(s->head[0]), "%s", line);
}

/* One line of the screen, cut at the terminal's width */
static void put_line(const struct state *s, const char *pre, const char *line)
{
	int w = s->interactive && s->cols > 0 ? s->cols : 1 << 30;

	printf("%s%.*s%s\n", pre, w, line, *pre ? "\033[0m" : "");
}

/*
 * Show the frame built last: on a terminal, as many rows as fit its size
 * (the rest counted in a note), every line cut at its width; in batch mode
 * or into a pipe, all of it.
 */
static void display(struct state *s)
{
	size_t i, n = s->nshown;
	bool hidden = false;
	char note[64];

	if (s->interactive) {
		if (!env.noclear)
			fputs("\033[H\033[2J", stdout);
		n = top_fit_rows(env.noclear ? 0 : s->lines, s->nhead + 1, s->nshown,
				 &hidden);
	}
	for (i = 0; i < s->nhead; i++) {
		char l[sizeof(s->head[0]) + 16];

		/*
		 * paused: the frame stays, and says so after its time
		 * ("chmutop HH:MM:SS"), where no terminal width cuts it
		 */
		if (i == 0 && s->paused && strlen(s->head[0]) >= 16)
			snprintf(l, sizeof(l), "%.16s PAUSED%s", s->head[0], s->head[0] + 16);
		else
			snprintf(l, sizeof(l), "%s", s->head[i]);
		put_line(s, i == 0 && s->color ? "\033[1m" : "", l);
	}
	put_line(s, s->color ? "\033[7m" : "", s->titles);
	for (i = 0; i < n; i++)
		put_line(s, "", s->shown[i]);
	if (!s->nshown)
		puts("(no hot units yet)");
	if (hidden) {
		snprintf(note, sizeof(note), "(%zu more rows hidden)",
			 s->nshown - n);
		put_line(s, "", note);
	}
	if (env.batch || !s->interactive)
		putchar('\n');
	fflush(stdout);
}

/* The keys, over the frame until the next one or any key */
static void show_keys(struct state *s)
{
	static const char *const keys[] = {
		"chmutop keys",
		"",
		"  s   next sort key: rate, count, sum, seen, addr",
		"  p   pause or resume the display (the counting goes on)",
		"  q   quit",
		"  ?   this list (any key, or the next frame, returns)",
	};
	size_t i;

	if (!env.noclear)
		fputs("\033[H\033[2J", stdout);
	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		put_line(s, "", keys[i]);
	fflush(stdout);
}

/* The driver's own drain accounting of an instance (sysfs, since enable). */
struct drain_ctr {
	uint64_t ns, batches, entries;
};

/*
 * A drain adds to the three when it ends (docs/driver.md): a read that
 * found them as the last frame left them holds no drain in part; one that
 * found them moved is read again until two reads agree, so that a frame
 * holds whole drains only, not one's batch in this interval and its time
 * in the next (a drain ending between two files' reads moves batches).
 * A few tries; a drain per read is not a top's case.
 */
static struct drain_ctr drain_read(const char *inst, const struct drain_ctr *last)
{
	struct drain_ctr a, b = *last;
	int i;

	for (i = 0; i < 4; i++) {
		a.ns = chmu_attr_u64(inst, "drain_ns");
		a.batches = chmu_attr_u64(inst, "batches");
		a.entries = chmu_attr_u64(inst, "entries");
		if (!memcmp(&a, &b, sizeof(a)))
			break;
		b = a;
	}
	return a;
}

/*
 * The instance's promoter (sysfs promote/), if the driver has one (known
 * from the start): promote/enable each interval, its counters only while
 * it is on or was at the last read (off, they do not move), or @all.
 */
static struct top_promote promote_read(struct state *s, int i, bool all)
{
	const char *inst = s->insts[i].path;
	struct top_promote p = { 0 };
	char attr[64];
	int k;

	if (!s->prom[i])
		return p;
	p.present = true;
	p.enabled = chmu_attr_u64(inst, "promote/enable") == 1;
	if (!all && !p.enabled && !s->pprev[i].enabled) {
		p = s->pprev[i];
		p.present = true;
		p.enabled = false;
		return p;
	}
	p.node = (int64_t)chmu_attr_u64(inst, "promote/node");
	p.pending = chmu_attr_u64(inst, "promote/pending");
	p.queued = chmu_attr_u64(inst, "promote/queued");
	p.dropped = chmu_attr_u64(inst, "promote/dropped");
	p.expired = chmu_attr_u64(inst, "promote/expired");
	p.tried = chmu_attr_u64(inst, "promote/tried");
	p.promoted = chmu_attr_u64(inst, "promote/promoted");
	p.worker_ns = chmu_attr_u64(inst, "promote/worker_ns");
	/* promote/failed_REASON, by the names the frame shows */
	for (k = 0; k < TOP_PF_NR; k++) {
		snprintf(attr, sizeof(attr), "promote/failed_%s", top_pf_names[k]);
		p.failed[k] = chmu_attr_u64(inst, attr);
	}
	return p;
}

/*
 * The instances' configuration, as chmu:chmu_config last reported it
 * (read from sysfs once, at start): one map lookup per instance.
 */
static void config_sync(struct state *s)
{
	int fd = bpf_map__fd(s->skel->maps.chmu_cfgs);

	for (int i = 0; i < s->ninst; i++) {
		struct chmu_cfg c;
		__u32 id = s->insts[i].id;

		if (bpf_map_lookup_elem(fd, &id, &c) || c.events == s->cfg_events[i])
			continue;
		chmu_inst_apply_cfg(&s->insts[i], &c);
		s->cfg_events[i] = c.events;
	}
}

/* Counters moved on since @p (a re-enable restarts them: from zero). */
static uint64_t since(uint64_t cur, uint64_t prev)
{
	return cur >= prev ? cur - prev : cur;
}

static int inst_index(struct state *s, uint32_t id)
{
	for (int i = 0; i < s->ninst; i++)
		if (s->insts[i].id == id)
			return i;
	return -1;
}

/* BPF run time of our programs since they were loaded. */
static void bpf_cost(struct state *s, uint64_t *ns, uint64_t *runs)
{
	struct bpf_program *p;

	*ns = *runs = 0;
	if (!env.bpf_stats)	/* nothing is measured: no syscalls per frame */
		return;
	bpf_object__for_each_program(p, s->skel->obj) {
		struct bpf_prog_info info = {};
		__u32 len = sizeof(info);
		int fd = bpf_program__fd(p);

		if (fd < 0 || bpf_obj_get_info_by_fd(fd, &info, &len))
			continue;
		*ns += info.run_time_ns;
		*runs += info.run_cnt;
	}
}

/* One unit-map element as a row (skipped if its instance is not shown). */
static int add_row(struct state *s, const struct unit_key *k,
		   const struct unit_stat *u, __u32 g, double secs, uint64_t now)
{
	struct top_row *r;
	int i;

	s->units++;
	i = inst_index(s, k->inst);
	if (i < 0)
		return 0;
	if (s->nrows == s->cap) {
		size_t cap = s->cap ? 2 * s->cap : 256;
		struct top_row *nr = realloc(s->rows, cap * sizeof(*nr));

		if (!nr)
			return -ENOMEM;
		s->rows = nr;
		s->cap = cap;
	}
	r = &s->rows[s->nrows++];
	memset(r, 0, sizeof(*r));
	memcpy(r->inst, s->insts[i].name, sizeof(r->inst));
	r->dpa = k->slot << s->skel->rodata->gran_shift;
	r->hpa = u->hpa;	/* with -g, of the region's hottest unit */
	r->nid = u->nid;
	r->last_count = u->last_count;
	r->sum = u->sum;
	r->isum = u->igen[g & 1] == g ? u->isum[g & 1] : 0;
	r->seen = u->seen;
	r->rate = top_rate(r->isum, secs);
	r->unit_bytes = 1ULL << s->insts[i].unit_shift;
	/* @now: the read's start; an entry counted since is age 0 */
	r->first_age = now > u->first_ns ? (now - u->first_ns) / 1e9 : 0;
	r->last_age = now > u->last_ns ? (now - u->last_ns) / 1e9 : 0;
	return 0;
}

struct units_walk {
	struct state *s;
	__u32 g;
	double secs;
	uint64_t now;
};

static int take_unit(const void *key, const void *val, void *ctx)
{
	struct units_walk *w = ctx;

	w->s->hash_rows++;
	return add_row(w->s, key, val, w->g, w->secs, w->now) ? -ENOMEM : 0;
}

/* BPF array elements are 8-byte aligned: the mapping is an array of these */
_Static_assert(sizeof(struct unit_stat) % 8 == 0, "unit_stat: not a whole number of words");
_Static_assert(sizeof(((struct top_row *)0)->inst) == sizeof(((struct chmu_inst *)0)->name),
	       "add_row() copies the instance name whole");

/*
 * Before the load: the direct map's size and each instance's range of it
 * (the first CHMUTOP_MAX_INST instances; the rest use the hash).
 */
static int direct_plan(struct state *s, unsigned int shift)
{
	int n = s->ninst < CHMUTOP_MAX_INST ? s->ninst : CHMUTOP_MAX_INST, k = 0;
	uint64_t *cap = calloc(s->ninst ? s->ninst : 1, sizeof(*cap));

	s->dbase = calloc(s->ninst ? s->ninst : 1, sizeof(*s->dbase));
	s->dslots = calloc(s->ninst ? s->ninst : 1, sizeof(*s->dslots));
	if (!cap || !s->dbase || !s->dslots) {
		free(cap);
		return -ENOMEM;
	}
	for (int i = 0; i < n; i++)
		cap[i] = s->insts[i].capacity;
	s->direct_nr = top_plan_direct(cap, n, shift, env.direct_slots, s->dbase, s->dslots);
	free(cap);
	for (int i = 0; i < n; i++) {
		if (!s->dslots[i])
			continue;
		s->skel->rodata->direct_id[k] = s->insts[i].id;
		s->skel->rodata->direct_base[k] = s->dbase[i];
		s->skel->rodata->direct_slots[k] = s->dslots[i];
		k++;
	}
	s->skel->rodata->direct_nr = k;
	bpf_map__set_max_entries(s->skel->maps.direct, s->direct_nr ? s->direct_nr : 1);
	bpf_map__set_max_entries(s->skel->maps.touched, s->direct_nr ? s->direct_nr : 1);
	return 0;
}

/* @size bytes of an mmapable BPF array, mapped read-only: its length in *@len */
static const void *map_read_only(const struct bpf_map *m, size_t size, size_t *len)
{
	size_t page = sysconf(_SC_PAGESIZE);
	void *p;

	*len = (size + page - 1) / page * page;
	p = mmap(NULL, *len, PROT_READ, MAP_SHARED, bpf_map__fd(m), 0);
	return p == MAP_FAILED ? NULL : p;
}

/* After the load: the direct map and its list, mapped read-only */
static int direct_map(struct state *s)
{
	if (!s->direct_nr)
		return 0;
	if (top_touched_init(&s->touched_read, s->direct_nr))
		return -ENOMEM;
	s->touched = map_read_only(s->skel->maps.touched, s->direct_nr * sizeof(*s->touched),
				   &s->touched_len);
	if (!s->touched)
		return -errno;
	s->direct = map_read_only(s->skel->maps.direct, s->direct_nr * sizeof(*s->direct),
				  &s->direct_len);
	if (!s->direct)
		return -errno;
	return 0;
}

/* The instance (index) whose range of the direct map holds @slot */
static int direct_inst(const struct state *s, uint32_t slot)
{
	for (int i = 0; i < s->ninst; i++)
		if (slot - s->dbase[i] < s->dslots[i])
			return i;
	return -1;
}

/*
 * The direct map's slots in use: the new ones from the touched list, and
 * holes of earlier frames filled since (a writer that has taken a place
 * but not yet written it: each is read again until it is, so that a
 * slot listed after it is not held back), then every one as a row.
 */
static int read_direct(struct state *s, __u32 g, double secs, uint64_t now)
{
	struct top_touched *t = &s->touched_read;
	struct unit_stat u;
	struct unit_key k = {};
	uint32_t slot;
	uint64_t pos;
	int i, err;

	top_touched_read(t, (const uint64_t *)s->touched, __atomic_load_n(&s->skel->bss->touched_nr,
							__ATOMIC_ACQUIRE));
	for (pos = 0; pos < t->nread; pos++) {
		if (!t->known[pos] || t->known[pos] == UINT32_MAX)
			continue;
		slot = t->known[pos] - 1;
		i = direct_inst(s, slot);
		if (i < 0)
			continue;
		/*
		 * A copy, as a hash lookup gives one: the drain goes on
		 * writing the slot, so fields may be of successive entries
		 */
		memcpy(&u, (const void *)&s->direct[slot], sizeof(u));
		if (!u.seen) {	/* taken, its first entry not yet counted */
			s->units++;
			continue;
		}
		k.inst = s->insts[i].id;
		k.slot = slot - s->dbase[i];
		err = add_row(s, &k, &u, g, secs, now);
		if (err)
			return err;
	}
	return 0;
}

/* The unit maps, as rows; interval sums of generation @g. */
static int read_units(struct state *s, __u32 g, double secs)
{
	struct units_walk w = { .s = s, .g = g, .secs = secs, .now = now_ns() };
	int err;

	s->nrows = 0;
	s->units = 0;
	if (s->direct) {
		err = read_direct(s, g, secs, w.now);
		if (err)
			return err;
	}
	/*
	 * Units put in the hash before its read, less those read: evicted
	 * (one put in during the read can only make that smaller). An
	 * empty hash is still a walk over all its buckets: skipped.
	 */
	s->hash_rows = 0;
	s->hashed = __atomic_load_n(&s->skel->bss->hashed, __ATOMIC_ACQUIRE);
	if (!s->hashed)
		return 0;
	return chmu_map_dump(bpf_map__fd(s->skel->maps.units), sizeof(struct unit_key),
			     sizeof(struct unit_stat), take_unit, &w);
}

/*
 * Who owns @n rows' units now (-G, --by cgroup). Rows whose unit is not
 * online memory have one owner: none.
 */
static int resolve(struct state *s, struct top_row *rows, size_t n)
{
	struct chmu_owner_req *req = NULL;
	size_t *idx = NULL, m = 0, i;
	int err = -ENOMEM;

	owner_names_expire(s->names);
	owner_regions_load(s->names, CHMU_SYSFS_DEVICES);	/* made or gone meanwhile */
	req = calloc(n ? n : 1, sizeof(*req));
	idx = calloc(n ? n : 1, sizeof(*idx));
	if (!req || !idx)
		goto out;
	for (i = 0; i < n; i++) {
		struct top_row *r = &rows[i];

		memset(&r->own, 0, sizeof(r->own));
		r->owned = true;
		if (r->nid < 0 || r->hpa == UINT64_MAX) {
			r->own.none = 1;
			continue;
		}
		idx[m] = i;
		req[m++] = (struct chmu_owner_req){
			.hpa = r->hpa, .bytes = r->unit_bytes,
			.contig = owner_contig(s->names, r->hpa) };
	}
	err = chmu_owner_run(&s->owner, req, m);
	for (i = 0; !err && i < m; i++)
		rows[idx[i]].own = req[i].o;
out:
	free(req);
	free(idx);
	return err;
}

/* The pages of a row's unit that are looked at, as its owners' walk does */
static uint64_t unit_pages(struct state *s, const struct top_row *r)
{
	uint64_t bytes = r->unit_bytes, c = s->names ? owner_contig(s->names, r->hpa) : UINT64_MAX;
	uint64_t n;

	if (c < bytes)
		bytes = c;
	n = bytes >> CHMU_PAGE_SHIFT;
	if (!n)
		n = 1;
	return n > CHMU_OWNER_MAX_PAGES ? CHMU_OWNER_MAX_PAGES : n;
}

static int range_cmp(const void *a, const void *b)
{
	const struct procmap_range *x = a, *y = b;

	return x->lo < y->lo ? -1 : x->lo > y->lo;
}

/*
 * Who maps @n rows' units (-p, --by process): the named processes, or at
 * most SCAN_PROCS of all, their pagemaps read for the units' frames only.
 */
static int map_procs(struct state *s, struct top_row *rows, size_t n)
{
	struct procmap_range *rg;
	size_t nr = 0, i, k;
	int err = 0;

	if (s->names && !env.cgroup)	/* else resolve() just did */
		owner_regions_load(s->names, CHMU_SYSFS_DEVICES);
	rg = realloc(s->ranges, (n ? n : 1) * sizeof(*rg));
	if (!rg)
		return -ENOMEM;
	s->ranges = rg;
	for (i = 0; i < n; i++) {
		if (rows[i].nid < 0 || rows[i].hpa == UINT64_MAX)
			continue;
		rg[nr].lo = rows[i].hpa >> CHMU_PAGE_SHIFT;
		rg[nr].hi = rg[nr].lo + unit_pages(s, &rows[i]);
		nr++;
	}
	qsort(rg, nr, sizeof(*rg), range_cmp);
	for (i = k = 0; i < nr; i++) {	/* merged: sorted, not overlapping */
		if (k && rg[i].lo <= rg[k - 1].hi) {
			if (rg[i].hi > rg[k - 1].hi)
				rg[k - 1].hi = rg[i].hi;
		} else {
			rg[k++] = rg[i];
		}
	}
	procmap_reset(&s->pm);
	s->pm.ranges = rg;
	s->pm.nranges = k;
	s->pids_scanned = s->pids_skipped = 0;
	if (k && env.npids) {
		for (int j = 0; j < env.npids && !err; j++) {
			err = procmap_scan(&s->pm, "/proc", env.pids[j]);
			if (err == -ESRCH)	/* gone: it maps nothing */
				err = 0;
			else
				s->pids_scanned++;
		}
	} else if (k) {
		DIR *d = opendir("/proc");
		struct dirent *e;

		if (!d)
			return -errno;
		while (!err && (e = readdir(d))) {
			char *end;
			long pid = strtol(e->d_name, &end, 10);

			if (*end || pid <= 0)
				continue;
			if (s->pids_scanned >= SCAN_PROCS) {
				s->pids_skipped++;
				continue;
			}
			err = procmap_scan(&s->pm, "/proc", (pid_t)pid);
			if (err == -ESRCH)
				err = 0;
			else if (!err)
				s->pids_scanned++;
		}
		closedir(d);
	}
	if (err == -EPERM) {
		fprintf(stderr, TOOL ": -p/--by process: /proc/PID/pagemap gives no page frame numbers (CAP_SYS_ADMIN)\n");
		return err;
	}
	for (i = 0; !err && i < n; i++) {
		struct top_row *r = &rows[i];

		r->mapped = true;
		memset(&r->procs, 0, sizeof(r->procs));
		if (r->nid < 0 || r->hpa == UINT64_MAX)
			r->procs.none = 1;
		else
			procmap_unit(&s->pm, r->hpa >> CHMU_PAGE_SHIFT, unit_pages(s, r),
				     &r->procs);
	}
	return err;
}

/*
 * -p PID,...: keep the rows of the units one of the named processes maps a
 * page of (in their sorted order); the others are counted, not shown.
 */
static void pid_filter(struct state *s)
{
	size_t r, k = 0;

	for (r = 0; r < s->nrows; r++)
		if (s->rows[r].procs.pid[0])
			s->rows[k++] = s->rows[r];
	s->unmapped = s->nrows - k;
	s->nrows = k;
}

/* "comm[pid]", read once per frame per process */
static const char *pid_name(struct state *s, pid_t pid)
{
	struct pid_name *p;
	size_t i;

	for (i = 0; i < s->npnames; i++)
		if (s->pnames[i].pid == pid)
			return s->pnames[i].name;
	if (s->npnames == s->cappnames) {
		size_t cap = s->cappnames ? 2 * s->cappnames : 64;

		p = realloc(s->pnames, cap * sizeof(*p));
		if (!p)
			return "?";
		s->pnames = p;
		s->cappnames = cap;
	}
	p = &s->pnames[s->npnames++];
	p->pid = pid;
	procmap_name("/proc", pid, p->name, sizeof(p->name));
	return p->name;
}

static uint32_t procs_total(const struct procmap_unit *u)
{
	uint32_t t = u->other + u->none;

	for (int k = 0; k < PROCMAP_UNIT_PIDS; k++)
		t += u->pages[k];
	return t;
}

/* The PROCESS column: "comm[pid]", "comm[pid] 50%", "*": others map it too */
static const char *procs_fmt(struct state *s, const struct procmap_unit *u,
			     char *buf, size_t len)
{
	uint32_t t = procs_total(u);

	if (!u->pid[0])
		snprintf(buf, len, "-");
	else if (u->pages[0] == t)
		snprintf(buf, len, "%s%s", pid_name(s, u->pid[0]), u->shared ? "*" : "");
	else
		snprintf(buf, len, "%s %u%%%s", pid_name(s, u->pid[0]),
			 (unsigned int)(100ULL * u->pages[0] / t), u->shared ? "*" : "");
	return buf;
}

static void procs_json(struct state *s, const struct procmap_unit *u)
{
	char buf[64];

	chmu_json_str(stdout, "process", procs_fmt(s, u, buf, sizeof(buf)));
	fputs(",\"processes\":[", stdout);
	for (int k = 0; k < PROCMAP_UNIT_PIDS && u->pid[k]; k++) {
		fprintf(stdout, "%s{\"pid\":%d,\"comm\":", k ? "," : "", (int)u->pid[k]);
		chmu_json_quote(stdout, pid_name(s, u->pid[k]));
		fprintf(stdout, ",\"pages\":%u}", u->pages[k]);
	}
	fputc(']', stdout);
	chmu_json_u64(stdout, "unmapped_pages", u->none);
	chmu_json_u64(stdout, "shared_pages", u->shared);
	if (u->other)
		chmu_json_u64(stdout, "other_pages", u->other);
}

static void health_of(struct state *s, int i, const struct inst_stat *cur,
		      double secs, struct top_health *h)
{
	const struct inst_stat *p = &s->prev[i];
	struct drain_ctr d;

	memset(h, 0, sizeof(*h));
	h->secs = secs;
	h->batches = cur->batches - p->batches;
	h->entries = cur->entries - p->entries;
	h->overflows = cur->overflows - p->overflows;
	h->lost = cur->lost;
	h->fill_sum = cur->fill_sum - p->fill_sum;
	h->fill_max = cur->fill_max;
	h->size = cur->size ? cur->size : s->insts[i].hotlist_size;
	d = drain_read(s->insts[i].path, &s->dprev[i]);
	h->drain_ns = since(d.ns, s->dprev[i].ns);
	h->drain_batches = since(d.batches, s->dprev[i].batches);
	h->drain_entries = since(d.entries, s->dprev[i].entries);
	s->dprev[i] = d;
}

/*
 * The frame's end: the instances' counters and the time, read together
 * just before the unit map's generation advances, so that a frame's
 * batches and its units' interval sums cover the same drains (a drain
 * that starts between the two is in the next frame's sums but this one's
 * batches); every drain's sums land in one interval, whole.
 */
static void frame_end(struct state *s)
{
	int ifd = bpf_map__fd(s->skel->maps.insts);
	struct timespec wall;
	int i;

	s->end_ns = now_ns();
	clock_gettime(CLOCK_REALTIME, &wall);
	s->end_wall_ns = wall.tv_sec * 1000000000ULL + wall.tv_nsec;
	s->end_gen = s->skel->bss->gen;
	for (i = 0; i < s->ninst; i++) {
		__u32 id = s->insts[i].id;

		if (bpf_map_lookup_elem(ifd, &id, &s->cur[i]))
			memset(&s->cur[i], 0, sizeof(s->cur[i]));
	}
}

/* The promoter's lines of the header, if the driver has one. */
static void promote_head(struct state *s, int i, double secs)
{
	struct top_promote p = promote_read(s, i, false);
	char line[256], *l;

	top_fmt_promote(line, sizeof(line), &p, &s->pprev[i], secs,
			(unsigned int)sysconf(_SC_PAGESIZE));
	s->pprev[i] = p;
	for (l = strtok(line, "\n"); l; l = strtok(NULL, "\n"))
		head_line(s, l);
}

/* The promoter's fields of an instance record: over the interval. */
static void promote_json(struct state *s, int i)
{
	struct top_promote p = promote_read(s, i, false);
	const struct top_promote *q = &s->pprev[i];
	uint64_t failed = 0;
	int k;

	if (!p.present)
		return;
	for (k = 0; k < TOP_PF_NR; k++)
		failed += since(p.failed[k], q->failed[k]);
	chmu_json_u64(stdout, "promote_enabled", p.enabled);
	chmu_json_i64(stdout, "promote_node", p.node);
	chmu_json_u64(stdout, "promote_pending", p.pending);
	chmu_json_u64(stdout, "promote_queued", since(p.queued, q->queued));
	chmu_json_u64(stdout, "promote_dropped", since(p.dropped, q->dropped));
	chmu_json_u64(stdout, "promote_expired", since(p.expired, q->expired));
	chmu_json_u64(stdout, "promote_tried", since(p.tried, q->tried));
	chmu_json_u64(stdout, "promote_pages", since(p.promoted, q->promoted));
	chmu_json_u64(stdout, "promote_failed", failed);
	chmu_json_u64(stdout, "promote_worker_ns", since(p.worker_ns, q->worker_ns));
	s->pprev[i] = p;
}

/* --by cgroup, process: the rows' units summed per owner (resolved first) */
static int group_rows(struct state *s)
{
	size_t r;
	int err = 0;

	owner_groups_reset(&s->groups);
	s->npnames = 0;
	for (r = 0; !err && r < s->nrows; r++) {
		const struct top_row *row = &s->rows[r];
		const struct procmap_unit *u = &row->procs;
		uint32_t t = procs_total(u);

		if (env.by == BY_CGROUP) {
			err = owner_groups_add(&s->groups, s->names, &row->own,
					       (double)row->sum, row->rate);
			continue;
		}
		for (int k = 0; !err && k < PROCMAP_UNIT_PIDS && u->pid[k]; k++)
			err = owner_groups_add_share(&s->groups, pid_name(s, u->pid[k]),
						     (double)u->pages[k] / t, u->pages[k],
						     (double)row->sum, row->rate);
		if (!err && u->other)
			err = owner_groups_add_share(&s->groups, "other", (double)u->other / t,
						     u->other, (double)row->sum, row->rate);
		if (!err && (u->none || !t))
			err = owner_groups_add_share(&s->groups, "-", t ? (double)u->none / t : 1,
						     u->none, (double)row->sum, row->rate);
	}
	owner_groups_sort(&s->groups, env.sort == TOP_SORT_SUM);
	return err;
}

/* CGROUP 33, UNITS 8, ACTIVE 8, PAGES 8, RATE/s 9, SUM 9: 80 columns */
#define GROUP_FMT "%-33s %8s %8s %8s %9s %9s"

static void group_json(struct state *s, unsigned int n, size_t shown)
{
	char num[64];
	size_t r;

	for (r = 0; r < shown; r++) {
		const struct owner_group *g = &s->groups.v[r];

		const char *what = env.by == BY_CGROUP ? "cgroup" : "process";

		chmu_json_begin_at(stdout, what, s->end_wall_ns / 1e9);
		chmu_json_u64(stdout, "interval", n);
		chmu_json_u64(stdout, "rank", r + 1);
		chmu_json_str(stdout, what, g->name);
		fprintf(stdout, ",\"units\":%s", chmu_fmt_num(g->units, num, sizeof(num)));
		fprintf(stdout, ",\"active\":%s", chmu_fmt_num(g->active, num, sizeof(num)));
		chmu_json_u64(stdout, "touched", g->touched);
		chmu_json_u64(stdout, "pages", g->pages);
		fprintf(stdout, ",\"sum\":%s", chmu_fmt_num(g->sum, num, sizeof(num)));
		fprintf(stdout, ",\"rate\":%s", chmu_fmt_num(g->rate, num, sizeof(num)));
		chmu_json_end(stdout);
	}
}

/*
 * An interval not shown (paused): its counters are taken as the next
 * frame's baselines all the same, so that the first frame after resuming
 * holds its own interval only, not every interval of the pause over one
 * interval's time.
 */
static void frame_skip(struct state *s)
{
	uint64_t ns, runs;
	int i;

	for (i = 0; i < s->ninst; i++) {
		s->prev[i] = s->cur[i];
		s->dprev[i] = drain_read(s->insts[i].path, &s->dprev[i]);
		s->pprev[i] = promote_read(s, i, false);
	}
	bpf_cost(s, &ns, &runs);
	s->bpf_ns_prev = ns;
	s->bpf_runs_prev = runs;
}

static int frame(struct state *s, double secs, unsigned int n)
{
	uint64_t bpf_ns, bpf_runs, dropped = s->skel->bss->dropped;
	uint64_t unreadable = s->skel->bss->unreadable;
	uint64_t evicted = s->hashed > s->hash_rows ? s->hashed - s->hash_rows : 0;
	uint64_t mono_to_wall = s->mono_to_wall;
	char line[256], tbuf[16], sz[32], num[64];
	struct top_health h;
	time_t t = s->end_wall_ns / 1000000000ULL;
	bool any_always_on = false, first;
	size_t r, shown;
	int i;

	bpf_cost(s, &bpf_ns, &bpf_runs);
	config_sync(s);
	chmu_fmt_clock(t, tbuf, sizeof(tbuf));
	top_sort(s->rows, s->nrows, env.sort);
	shown = s->nrows < env.rows ? s->nrows : env.rows;
	if (env.cgroup || env.procs) {
		/* every unit for the sums per owner, else the rows shown */
		size_t nr = env.by == BY_UNIT ? shown : s->nrows;
		int err = 0;

		s->npnames = 0;
		if (env.npids && env.by == BY_UNIT) {
			/* -p filters: the units the named processes map, of all */
			err = map_procs(s, s->rows, s->nrows);
			if (!err)
				pid_filter(s);
			shown = nr = s->nrows < env.rows ? s->nrows : env.rows;
		}
		if (!err && env.cgroup)
			err = resolve(s, s->rows, nr);
		if (!err && env.procs && !(env.npids && env.by == BY_UNIT))
			err = map_procs(s, s->rows, nr);
		if (!err && env.by != BY_UNIT)
			err = group_rows(s);
		if (err) {
			fprintf(stderr, TOOL ": attributing the hot units: %s\n", strerror(-err));
			return err;
		}
		if (env.by != BY_UNIT)
			shown = s->groups.n < env.rows ? s->groups.n : env.rows;
	}

	if (env.json) {
		for (i = 0; i < s->ninst; i++) {
			const struct inst_stat *cur = &s->cur[i];

			health_of(s, i, cur, secs, &h);
			chmu_json_begin_at(stdout, "instance", s->end_wall_ns / 1e9);
			chmu_json_u64(stdout, "interval", n);
			chmu_json_u64(stdout, "time_ns", s->end_wall_ns);
			/* the interval's first batch, if it had any */
			first = cur->fgen == s->end_gen &&
				cur->batches != s->prev[i].batches;
			chmu_json_u64(stdout, "first_batch_ns",
				      first ? cur->first_ns + mono_to_wall : 0);
			chmu_json_u64(stdout, "last_batch_ns",
				      cur->last_ns ? cur->last_ns + mono_to_wall : 0);
			chmu_json_str(stdout, "instance", s->insts[i].name);
			chmu_json_str(stdout, "mode", s->insts[i].mode_always_on ? "always-on" : "epoch");
			chmu_json_u64(stdout, "threshold", s->insts[i].threshold);
			chmu_json_u64(stdout, "unit", 1ULL << s->insts[i].unit_shift);
			chmu_json_u64(stdout, "epoch_us", s->insts[i].epoch_us);
			chmu_json_u64(stdout, "ds_shift", s->insts[i].ds_shift);
			chmu_json_u64(stdout, "batches", h.batches);
			chmu_json_u64(stdout, "entries", h.entries);
			chmu_json_u64(stdout, "overflows", h.overflows);
			chmu_json_u64(stdout, "lost", h.lost);
			chmu_json_u64(stdout, "fill_max", h.fill_max);
			chmu_json_u64(stdout, "size", h.size);
			chmu_json_u64(stdout, "drain_ns", h.drain_ns);
			chmu_json_u64(stdout, "drain_batches", h.drain_batches);
			if (env.bpf_stats)
				chmu_json_u64(stdout, "bpf_ns", bpf_ns - s->bpf_ns_prev);
			chmu_json_u64(stdout, "dropped", dropped);
			chmu_json_u64(stdout, "unreadable", unreadable);
			chmu_json_u64(stdout, "evicted", evicted);
			if (env.npids && env.by == BY_UNIT)
				chmu_json_u64(stdout, "unmapped_units", s->unmapped);
			promote_json(s, i);
			chmu_json_end(stdout);
			s->prev[i] = *cur;
		}
		for (r = 0; env.by == BY_UNIT && r < shown; r++) {
			const struct top_row *row = &s->rows[r];

			chmu_json_begin_at(stdout, "unit", s->end_wall_ns / 1e9);
			chmu_json_u64(stdout, "interval", n);
			chmu_json_u64(stdout, "rank", r + 1);
			chmu_json_str(stdout, "instance", row->inst);
			chmu_json_u64(stdout, "dpa", row->dpa);
			if (row->hpa != ~0ULL)
				chmu_json_u64(stdout, "hpa", row->hpa);
			chmu_json_i64(stdout, "nid", row->nid);
			chmu_json_u64(stdout, "count", row->last_count);
			chmu_json_u64(stdout, "sum", row->sum);
			chmu_json_u64(stdout, "interval_sum", row->isum);
			chmu_json_u64(stdout, "seen", row->seen);
			fprintf(stdout, ",\"rate\":%.3f,\"first_age\":%.3f,\"last_age\":%.3f",
				row->rate, row->first_age, row->last_age);
			if (row->owned)
				owner_json(stdout, s->names, &row->own);
			if (row->mapped)
				procs_json(s, &row->procs);
			chmu_json_end(stdout);
		}
		if (env.by != BY_UNIT)
			group_json(s, n, shown);
		s->bpf_ns_prev = bpf_ns;
		s->bpf_runs_prev = bpf_runs;
		return 0;
	}

	s->nhead = 0;
	snprintf(line, sizeof(line), "chmutop %s  every %lds  sort %s  %zu units%s%s",
		 tbuf, env.interval, top_sort_name(env.sort), s->nrows,
		 env.bpf_stats ? "  BPF stats on" : "",
		 s->interactive ? "  [s]ort [p]ause [q]uit [?]" : "");
	head_line(s, line);
	for (i = 0; i < s->ninst; i++) {
		struct chmu_inst *in = &s->insts[i];

		any_always_on |= in->mode_always_on;
		if (in->mode_always_on)
			snprintf(line, sizeof(line), "%s %s always-on thr %llu unit %s ds 1/%llu owner %s",
				 in->name, in->enabled ? "on" : "off", U(in->threshold),
				 chmu_fmt_size(1ULL << in->unit_shift, sz, sizeof(sz)),
				 1ULL << in->ds_shift, in->owner);
		else
			snprintf(line, sizeof(line), "%s %s epoch %ss thr %llu unit %s ds 1/%llu owner %s",
				 in->name, in->enabled ? "on" : "off",
				 chmu_fmt_num(in->epoch_us / 1e6, num, sizeof(num)),
				 U(in->threshold),
				 chmu_fmt_size(1ULL << in->unit_shift, sz, sizeof(sz)),
				 1ULL << in->ds_shift, in->owner);
		head_line(s, line);
		health_of(s, i, &s->cur[i], secs, &h);
		h.bpf_stats = env.bpf_stats;
		h.bpf_ns = i == 0 ? bpf_ns - s->bpf_ns_prev : 0;
		h.bpf_runs = i == 0 ? bpf_runs - s->bpf_runs_prev : 0;
		top_fmt_health(line, sizeof(line), &h);
		head_line(s, strtok(line, "\n"));
		head_line(s, strtok(NULL, "\n") ?: "");
		promote_head(s, i, secs);
		s->prev[i] = s->cur[i];
	}
	s->bpf_ns_prev = bpf_ns;
	s->bpf_runs_prev = bpf_runs;
	if (evicted) {
		snprintf(line, sizeof(line), "unit map full (%u entries): %llu least recently seen evicted",
			 env.max_units, U(evicted));
		head_line(s, line);
	}
	if (dropped) {
		snprintf(line, sizeof(line), "%llu hotlist entries not counted: no unit could be evicted",
			 U(dropped));
		head_line(s, line);
	}
	if (env.npids && env.by == BY_UNIT && s->unmapped) {
		snprintf(line, sizeof(line), "%zu units none of the -p processes maps not shown",
			 s->unmapped);
		head_line(s, line);
	}
	if (env.procs && env.by == BY_PROCESS && s->pids_skipped) {
		snprintf(line, sizeof(line), "%zu processes not looked at (at most %d)",
			 s->pids_skipped, SCAN_PROCS);
		head_line(s, line);
	}
	if (env.procs && s->pm.truncated) {
		snprintf(line, sizeof(line), "%llu processes' pagemaps read in part (%llu entries each at most)",
			 U(s->pm.truncated), U(PROCMAP_BUDGET));
		head_line(s, line);
	}
	if (env.procs && s->pm.skipped) {
		snprintf(line, sizeof(line), "%llu mapped page frames not kept (at most %d)",
			 U(s->pm.skipped), SCAN_FRAMES);
		head_line(s, line);
	}
	if (unreadable) {
		snprintf(line, sizeof(line), "%llu hotlist entries not counted: not readable from the driver's batch",
			 U(unreadable));
		head_line(s, line);
	}
	if (any_always_on)
		head_line(s, "always-on: REACH means the unit reached the threshold; HITS counts how often");
	head_line(s, "");
	if (env.by != BY_UNIT) {
		snprintf(s->titles, sizeof(s->titles), GROUP_FMT,
			 env.by == BY_CGROUP ? "CGROUP" : "PROCESS", "UNITS",
			 "ACTIVE", "PAGES", "RATE/s", "SUM");
		for (r = 0; r < shown; r++) {
			const struct owner_group *g = &s->groups.v[r];
			char u[16], a[16], p[16], rt[16], sm[16];

			snprintf(s->shown[r], sizeof(s->shown[0]), GROUP_FMT, g->name,
				 top_fmt_num(g->units, u, sizeof(u)),
				 top_fmt_num(g->active, a, sizeof(a)),
				 top_fmt_num(g->pages, p, sizeof(p)),
				 top_fmt_num(g->rate, rt, sizeof(rt)),
				 top_fmt_num(g->sum, sm, sizeof(sm)));
		}
	} else {
		top_fmt_titles(s->titles, sizeof(s->titles), any_always_on);
		/* past the 80 columns */
		if (env.cgroup)
			strncat(s->titles, " CGROUP", sizeof(s->titles) - strlen(s->titles) - 1);
		if (env.procs)
			strncat(s->titles, " PROCESS", sizeof(s->titles) - strlen(s->titles) - 1);
		for (r = 0; r < shown; r++) {
			char row[256], own[160] = "", pr[80] = "";

			top_fmt_row(row, sizeof(row), &s->rows[r], any_always_on);
			if (env.cgroup)
				owner_fmt(s->names, &s->rows[r].own, own, sizeof(own));
			if (env.procs)
				procs_fmt(s, &s->rows[r].procs, pr, sizeof(pr));
			snprintf(s->shown[r], sizeof(s->shown[0]), "%s%s%s%s%s", row,
				 *own ? " " : "", own, *pr ? " " : "", pr);
		}
	}
	s->nshown = shown;
	s->help = false;
	display(s);
	return 0;
}

/*
 * Ctrl-Z (SIGTSTP): the terminal as it was before chmutop, then stop as
 * the signal would have; on SIGCONT, chmutop's terminal mode again and
 * the frame redrawn. A process group the shell does not control
 * (orphaned) is not stopped: it goes on at once.
 */
static void suspend(struct state *s)
{
	struct sigaction sa = { .sa_handler = on_tstp, .sa_flags = SA_RESTART };
	sigset_t tstp;

	if (s->term_set)
		tcsetattr(0, TCSANOW, &s->saved);
	fflush(stdout);
	sigemptyset(&tstp);
	sigaddset(&tstp, SIGTSTP);
	signal(SIGTSTP, SIG_DFL);
	raise(SIGTSTP);				/* pending: blocked here */
	sigprocmask(SIG_UNBLOCK, &tstp, NULL);	/* stopped here, until SIGCONT */
	sigprocmask(SIG_BLOCK, &tstp, NULL);
	sigemptyset(&sa.sa_mask);
	sigaction(SIGTSTP, &sa, NULL);
	if (s->term_set)
		tcsetattr(0, TCSANOW, &s->raw);
	term_size(s);
	if (s->help)
		show_keys(s);
	else if (s->nhead)
		display(s);
}

/*
 * Between frames (chmu_tool_loop()'s waits; frames end at fixed deadlines,
 * so they do not drift by the time each one takes to render): on a
 * terminal, a stop (Ctrl-Z) or a resize is handled once the wait it ended
 * returns, and keys as they come.
 */
static void on_wake(void *ctx)
{
	struct state *s = ctx;

	if (!s->interactive)
		return;
	if (suspended) {
		suspended = 0;
		suspend(s);
	}
	if (resized) {
		/* the frame on screen again, fitted to the new size */
		resized = 0;
		term_size(s);
		if (s->help)
			show_keys(s);
		else if (s->nhead)
			display(s);
	}
}

static bool on_key(void *ctx, int fd)
{
	struct state *s = ctx;
	char c;
	int r = top_read_key(fd, &c);

	if (r < 0)
		return false;	/* the terminal is gone: no more keys */
	if (!r)
		return true;
	if (c == 'q') {
		chmu_exiting = 1;
		return true;
	}
	/* any key leaves the list of keys (and does what it does) */
	if (s->help && c != '?' && c != 'h') {
		s->help = false;
		display(s);
	}
	if (c == 's') {
		env.sort = (env.sort + 1) % TOP_SORT_NR;
	} else if (c == 'p') {
		s->paused = !s->paused;
		if (s->paused && !s->help && s->nhead)
			display(s);	/* now marked PAUSED */
	} else if (c == '?' || c == 'h') {
		s->help = true;
		show_keys(s);
	}
	return true;
}

/*
 * A frame: the interval's counts, read once no drain still writes them.
 * Ended by a signal or 'q' on a terminal, the run leaves without a frame
 * of the cut interval; in batch and JSON output that frame is printed.
 */
static int on_frame(void *ctx, uint64_t n)
{
	struct state *s = ctx;
	uint64_t t1;
	__u32 g;
	int err;

	if (chmu_exiting && !env.batch && !env.json)
		return 0;
	frame_end(s);
	t1 = s->end_ns;
	g = chmu_gen_advance(&s->skel->bss->gen, s->skel->bss->gen_busy);
	err = read_units(s, g, (t1 - s->t0) / 1e9);
	if (err) {
		fprintf(stderr, TOOL ": reading the maps: %s\n", strerror(-err));
		return err;
	}
	if (s->paused)
		frame_skip(s);
	else if (frame(s, (t1 - s->t0) / 1e9, n))
		return -EIO;
	s->t0 = t1;
	return 0;
}

/*
 * The screen: interactive on a terminal (keys, colour unless NO_COLOR,
 * raw input), and the signals that end a wait between frames
 */
static void screen_setup(struct state *s)
{
	s->interactive = !env.batch && !env.json && isatty(1) && isatty(0);
	s->color = s->interactive && !chmu_no_color(stdout);
	/*
	 * The signals that end the run, and a resize, end the wait between
	 * frames (ppoll is never restarted); other calls restart. They are
	 * blocked outside that wait, so that none arriving between the check
	 * and the wait is slept through.
	 */
	{
		struct sigaction sa = { .sa_handler = on_winch, .sa_flags = SA_RESTART };
		static const int waking[] = { SIGINT, SIGTERM, SIGHUP, SIGWINCH, SIGTSTP };
		sigset_t block;
		unsigned int j;

		sigemptyset(&block);
		for (j = 0; j < sizeof(waking) / sizeof(waking[0]); j++)
			sigaddset(&block, waking[j]);
		sigprocmask(SIG_BLOCK, &block, &s->waitmask);
		for (j = 0; j < sizeof(waking) / sizeof(waking[0]); j++)
			sigdelset(&s->waitmask, waking[j]);
		if (s->interactive) {
			sigemptyset(&sa.sa_mask);
			sigaction(SIGWINCH, &sa, NULL);
			sa.sa_handler = on_tstp;	/* the terminal back first */
			sigaction(SIGTSTP, &sa, NULL);
			term_size(s);
		}
	}
	if (s->interactive && !tcgetattr(0, &s->saved)) {
		s->raw = s->saved;
		s->raw.c_lflag &= ~(ICANON | ECHO);
		s->raw.c_cc[VMIN] = 0;
		s->raw.c_cc[VTIME] = 0;
		s->term_set = !tcsetattr(0, TCSANOW, &s->raw);
	}
}

int main(int argc, char **argv)
{
	static const struct argp argp = {
		.options = opts,
		.parser = parse_arg,
		.children = chmu_argp_children,
		.args_doc = "[interval [count]]",
		.doc = "Live view of the hottest CXL memory (CHMU hotlists) and of the monitor's health.\n\n"
		       "EXAMPLES:\n"
		       "  chmutop               # refresh every second; keys: s sort, p pause, q quit, ? keys\n"
		       "  chmutop -b 5 12       # a minute of plain 5 s frames, for logs\n"
		       "  chmutop -s rate -g 2M # regions of 2 MiB, by rate\n"
		       "  chmutop -j 1 10       # NDJSON\n",
	};
	struct state s = {};
	struct chmu_tool t = { .name = TOOL, .verbose = &env.verbose };
	struct chmu_loop loop = { .on_interval = on_frame, .on_wake = on_wake, .ctx = &s };
	int err, n = 0, stats_fd = -1;
	unsigned int shift = 63;

	err = chmu_tool_start(&t, &argp, argc, argv);
	if (err)
		return err;
	s.insts = t.insts;
	s.ninst = n = t.ninst;
	s.prev = calloc(n, sizeof(*s.prev));
	s.dprev = calloc(n, sizeof(*s.dprev));
	s.pprev = calloc(n, sizeof(*s.pprev));
	s.cur = calloc(n, sizeof(*s.cur));
	s.prom = calloc(n, sizeof(*s.prom));
	s.cfg_events = calloc(n, sizeof(*s.cfg_events));
	s.shown = calloc(env.rows, sizeof(*s.shown));
	s.head = calloc(TOP_HEAD_MAX(n), sizeof(*s.head));
	if (!s.prev || !s.dprev || !s.pprev || !s.cur || !s.shown || !s.head ||
	    !s.prom || !s.cfg_events) {
		err = CHMU_EXIT_ENV;
		goto cleanup;
	}
	for (int i = 0; i < n; i++) {	/* the first interval starts now */
		char path[700];

		snprintf(path, sizeof(path), "%s/promote", s.insts[i].path);
		s.prom[i] = !access(path, F_OK);
		s.dprev[i] = drain_read(s.insts[i].path, &s.dprev[i]);
		s.pprev[i] = promote_read(&s, i, true);
	}
	for (int i = 0; i < n; i++)
		if (s.insts[i].unit_shift < shift)
			shift = s.insts[i].unit_shift;
	if (env.gran)
		shift = __builtin_ctzll(env.gran);

	s.skel = chmutop_bpf__open();
	if (!s.skel) {
		fprintf(stderr, TOOL ": cannot open the BPF object: %s\n", strerror(errno));
		err = CHMU_EXIT_ENV;
		goto cleanup;
	}
	CHMU_TOOL_TARGETS(s.skel);
	s.skel->rodata->gran_shift = shift;
	bpf_map__set_max_entries(s.skel->maps.units, env.max_units);
	if (direct_plan(&s, shift)) {
		fprintf(stderr, TOOL ": out of memory\n");
		err = CHMU_EXIT_ENV;
		goto cleanup;
	}
	if (env.procs && procmap_init(&s.pm, SCAN_FRAMES, NULL, 0)) {
		fprintf(stderr, TOOL ": out of memory\n");
		err = CHMU_EXIT_ENV;
		goto cleanup;
	}
	/* attribution's program, only when asked for; per frame, not in the drain */
	t.owner = CHMU_OWNER_BPF(s.skel);
	/* the configuration's program, as the batch's: tp_btf, else raw_tp */
	chmu_pick_prog(s.skel->progs.config_btf, s.skel->progs.config_raw, t.tp_btf);
	err = chmu_tool_load(&t, s.skel->skeleton, s.skel->progs.batch_btf,
			     s.skel->progs.batch_raw, env.cgroup, NULL);
	if (err)
		goto cleanup;
	err = direct_map(&s);
	if (err) {
		fprintf(stderr, TOOL ": cannot map the direct unit map: %s\n", strerror(-err));
		err = CHMU_EXIT_ENV;
		goto cleanup;
	}
	s.owner = t.owner;
	s.names = t.names;	/* the runtime's: chmu_tool_stop() frees them */
	if (env.procs && !env.cgroup) {
		/* the regions' interleave only (map_procs() reads it each
		 * frame): no cgroup2 needed; ours to free */
		s.names = s.own_names = owner_names_new("/");
	}
	/*
	 * chmu:chmu_config reports every change from now on; one read now
	 * covers those between the instances' listing and the attach.
	 */
	for (int i = 0; i < n; i++)
		chmu_inst_read(&s.insts[i]);
	/* BPF run-time statistics for the cost line, on request: all BPF
	 * programs of the machine pay for them while they are on */
	if (env.bpf_stats) {
		stats_fd = bpf_enable_stats(BPF_STATS_RUN_TIME);
		if (stats_fd < 0) {
			fprintf(stderr, TOOL ": --bpf-stats: cannot enable the BPF statistics: %s\n",
				strerror(errno));
			env.bpf_stats = false;
		}
	}

	screen_setup(&s);

	frame_end(&s);	/* batch times in wall-clock time: one offset */
	s.mono_to_wall = s.end_wall_ns - s.end_ns;
	s.t0 = now_ns();
	loop.interval = env.interval;
	loop.count = env.count;
	loop.waitmask = &s.waitmask;
	if (s.interactive) {
		loop.on_input = on_key;
		loop.in_fd = 0;
	}
	err = chmu_tool_loop(&t, &loop);
	if (err) {
		err = CHMU_EXIT_ENV;
		goto cleanup;
	}
	err = 0;

cleanup:
	if (s.term_set)
		tcsetattr(0, TCSANOW, &s.saved);
	if (stats_fd >= 0)
		close(stats_fd);
	if (s.direct)
		munmap((void *)s.direct, s.direct_len);
	if (s.touched)
		munmap((void *)s.touched, s.touched_len);
	top_touched_free(&s.touched_read);
	free(s.dbase);
	free(s.dslots);
	chmutop_bpf__destroy(s.skel);
	owner_groups_free(&s.groups);
	owner_names_free(s.own_names);
	procmap_free(&s.pm);
	free(s.ranges);
	free(s.pnames);
	free(s.rows);
	free(s.shown);
	free(s.head);
	free(s.prev);
	free(s.dprev);
	free(s.pprev);
	free(s.cur);
	free(s.prom);
	free(s.cfg_events);
	chmu_tool_stop(&t);
	return err;
}
