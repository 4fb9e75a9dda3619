/* SPDX-License-Identifier: GPL-2.0 */
/*
 * chmutop's pure logic: its rows, the sort keys, rates, and the 80-column
 * formatting of the header, the health lines and the rows.
 */
#ifndef CHMU_TOP_H
#define CHMU_TOP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "chmuabi.h"
#include "procmap.h"

enum top_sort { TOP_SORT_COUNT, TOP_SORT_SUM, TOP_SORT_RATE, TOP_SORT_SEEN,
		TOP_SORT_ADDR, TOP_SORT_NR };

struct top_row {
	char inst[32];		/* "mem0.0.0" */
	uint64_t dpa, hpa;	/* hpa ~0: no region maps it */
	int nid;
	uint64_t last_count, sum, isum, seen;
	double first_age, last_age;	/* seconds ago */
	double rate;		/* isum per second over the interval */
	uint64_t unit_bytes;	/* the instance's unit size */
	struct chmu_owners own;	/* who owns it (-G, --by cgroup) */
	bool owned;		/* own is filled */
	struct procmap_unit procs;	/* who maps it (-p, --by process) */
	bool mapped;		/* procs is filled */
};

int top_parse_sort(const char *s);		/* enum top_sort or -1 */
const char *top_sort_name(int key);
double top_rate(uint64_t delta, double secs);

/* Sort by @key, hottest first (addr: lowest first); ties by address. */
void top_sort(struct top_row *rows, size_t n, int key);

/* "12s", "5m", "3h", "2d": whole units elapsed (truncated) */
const char *top_fmt_age(double secs, char *buf, size_t len);
/* "999", "1.2k", "45.6M" */
const char *top_fmt_num(double v, char *buf, size_t len);

#define TOP_WIDTH 80

/*
 * Column titles and one row, at most TOP_WIDTH characters. In always-on
 * mode a count only means the unit reached the threshold: the count
 * columns say so.
 */
void top_fmt_titles(char *buf, size_t len, bool always_on);
void top_fmt_row(char *buf, size_t len, const struct top_row *r,
		 bool always_on);

/* The monitor's health over an interval, per instance. */
struct top_health {
	double secs;
	uint64_t batches, entries, overflows, lost;
	uint64_t fill_sum, fill_max, size;
	/* the driver's counters (sysfs drain_ns, batches, entries) */
	uint64_t drain_ns, drain_batches, drain_entries;
	uint64_t bpf_ns, bpf_runs;
	bool bpf_stats;		/* bpf_ns and bpf_runs were measured */
};

/* Two lines (one '\n' between them), each within TOP_WIDTH columns. */
void top_fmt_health(char *buf, size_t len, const struct top_health *h);

/* The promoter of an instance: its sysfs promote/ directory (kernel 0013). */
enum {
	TOP_PF_GONE,
	TOP_PF_NOT_LRU,
	TOP_PF_ISOLATE,
	TOP_PF_NO_MEMORY,
	TOP_PF_ON_TARGET,
	TOP_PF_BUSY,
	TOP_PF_WATERMARK,
	TOP_PF_POLICY,
	TOP_PF_RATE_LIMITED,
	TOP_PF_SETTLING,
	TOP_PF_NR,
};

/* The reasons' names, as in the sysfs failed_* counters */
extern const char *const top_pf_names[TOP_PF_NR];

struct top_promote {
	bool present;		/* the driver has a promoter */
	bool enabled;
	int64_t node;		/* -1: the nearest top-tier node */
	uint64_t pending;	/* records queued now */
	/* counters since the promoter's enable */
	uint64_t queued, dropped, expired, tried, promoted, worker_ns;
	uint64_t failed[TOP_PF_NR];
};

/*
 * The promoter over an interval of @secs from @prev to @cur (a counter
 * below its previous value was reset by an enable: counted from zero):
 * two lines (one '\n' between them), each within TOP_WIDTH columns, while
 * it is enabled; nothing when it is off or absent.
 */
void top_fmt_promote(char *buf, size_t len, const struct top_promote *cur,
		     const struct top_promote *prev, double secs,
		     unsigned int page_size);

/*
 * How many of @nrows rows a terminal of @lines lines shows below @head
 * lines (header, blank line and column titles): all that fit with the
 * last line left free; when some do not, one line fewer and *@note set,
 * for a line saying how many are hidden (no note where only one row
 * fits); at least one row. @lines <= 0 (no terminal size): all of them.
 */
size_t top_fit_rows(int lines, size_t head, size_t nrows, bool *note);

/*
 * The direct-indexed unit map: @n instances of @capacity bytes each get
 * capacity >> @shift slots (rounded up; a slot per unit or -g region),
 * one after another from slot 0, in their order, while they fit in
 * @budget slots in all; one that does not fit gets base 0 and nslots 0
 * (its units go to the hash) and the next ones are still tried. Returns
 * the slots given out.
 */
uint64_t top_plan_direct(const uint64_t *capacity, size_t n, unsigned int shift,
			 uint64_t budget, uint32_t *base, uint32_t *nslots);

/*
 * The direct map's list of slots in use, as its BPF program writes it:
 * position by position, 1 + slot each, 0 while a writer has taken the
 * position but not yet written it (a hole). What user space has read.
 */
struct top_touched {
	uint32_t *known;	/* per position: 0 not read yet, 1 + slot, or
				 * UINT32_MAX (a slot listed twice, or out of range) */
	uint8_t *listed;	/* a bit per slot: in known */
	uint64_t nslots;
	uint64_t nread;		/* positions read up to */
	uint64_t hole;		/* the first position not read yet */
};

int top_touched_init(struct top_touched *t, uint64_t nslots);	/* -ENOMEM */
void top_touched_free(struct top_touched *t);
/*
 * Read positions [hole, @nr) of @list: the new ones, and the holes of
 * earlier reads, each read again until it is written (so a slot listed
 * after a hole is not held back). Each slot is known once.
 */
void top_touched_read(struct top_touched *t, const uint64_t *list, uint64_t nr);

/*
 * One key from terminal @fd in chmutop's raw mode (VMIN 0, VTIME 0): 1
 * with *c set, 0 for no key now, -1 once the terminal is gone (hung up).
 */
int top_read_key(int fd, char *c);

#endif
