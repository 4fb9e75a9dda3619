/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What every CHMU BPF tool shares: the instances the cxl_hmu driver
 * exposes in sysfs (list, configure, enable, attach), checks of the
 * environment (root, tracepoints, BTF) with one-line reasons and exit
 * status 2, and NDJSON output helpers.
 */
#ifndef CHMU_TOOL_H
#define CHMU_TOOL_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <argp.h>
#include <time.h>

#define CHMU_SYSFS_DEVICES	"/sys/bus/cxl/devices"
#define CHMU_EXIT_USAGE		1
#define CHMU_EXIT_ENV		2
#define CHMU_JSON_VERSION	1

/* Instance id as the BPF programs key it: memdev, block, instance. */
#define CHMU_INST_ID(m, c, i)	(((uint32_t)(m) << 16) | ((c) << 8) | (i))
#define CHMU_ID_MEMDEV(id)	((id) >> 16)
#define CHMU_ID_CHMU(id)	(((id) >> 8) & 0xff)
#define CHMU_ID_INST(id)	((id) & 0xff)

struct chmu_inst {
	char path[600];		/* .../hmu_memX.Y/hmu_memX.Y.Z */
	char name[32];		/* "mem0.0.0" */
	int memdev, chmu, inst;
	uint32_t id;
	/* capabilities */
	unsigned int hotlist_size, num_ranges;
	uint64_t unit_sizes, ds_factors;
	bool epoch_mode, always_on;
	/* configuration and state */
	uint64_t threshold, unit_shift, epoch_us, access, ds_shift;
	uint64_t range_first, range_count, fill_threshold, poll_ms;
	bool mode_always_on, enabled;
	char owner[16];
	uint64_t capacity;	/* bytes of the memdev's volatile partition */
	bool we_enabled;	/* chmu_inst_enable() turned it on */
	/* what chmu_inst_enable() changed: the values to put back */
	struct chmu_settings {
		int64_t threshold, unit_shift, epoch_us, access, ds_shift;
		int64_t range_first, range_count, fill_threshold, poll_ms;
		const char *mode;	/* "epoch" or "always-on" */
	} restore;
};

/*
 * Settings for chmu_inst_enable() (struct chmu_settings, above); negative /
 * NULL: keep the instance's.
 */

void chmu_settings_init(struct chmu_settings *s);

/* Instances in sysfs, sorted by memdev, block, instance; -errno. */
int chmu_list(struct chmu_inst **out, int *n);
int chmu_inst_read(struct chmu_inst *in);
/*
 * A chmu:chmu_config record (lib/chmuabi.h) into @in: the configuration
 * and state it carries, and the owner, read again from sysfs (an enable
 * or a disable changes it; one file). The rest (capabilities, capacity)
 * does not change while the instance exists.
 */
struct chmu_cfg;
void chmu_inst_apply_cfg(struct chmu_inst *in, const struct chmu_cfg *c);
/* A number from sysfs file DIR/ATTR (any base strtoull takes); 0 if unreadable. */
uint64_t chmu_attr_u64(const char *dir, const char *attr);

/*
 * Parse "memN" into N and "C.I" into block and instance; -EINVAL.
 * chmu_select() keeps the instances matching (-1: any).
 */
int chmu_parse_memdev(const char *s, int *memdev);
int chmu_parse_instance(const char *s, int *chmu, int *inst);
int chmu_select(struct chmu_inst *v, int n, int memdev, int chmu, int inst);

/*
 * Configure and enable @in through sysfs. An instance already enabled is
 * attached to as it is, unless settings were asked for: then -EBUSY.
 * chmu_inst_restore() disables what chmu_inst_enable() enabled and puts
 * back every configuration attribute it wrote (also when enabling failed
 * half way: chmu_inst_enable() does that itself).
 */
int chmu_inst_enable(struct chmu_inst *in, const struct chmu_settings *s,
		     char *why, size_t whylen);
void chmu_inst_restore(struct chmu_inst *in);
bool chmu_settings_given(const struct chmu_settings *s);

/*
 * The options every tool shares, as an argp child: -m/--memdev,
 * -i/--instance, and --enable with -t, -u, -e, -M, -d. Results land in
 * chmu_opts.
 */
struct chmu_opts {
	int memdev, chmu, inst;
	bool enable;
	struct chmu_settings set;
};

extern struct chmu_opts chmu_opts;
extern const struct argp chmu_argp;

/*
 * The option of the tools that attribute in their drain program, as an
 * argp child: --max-attr-pages N, the drain's budget of struct page reads
 * (lib/chmuabi.h), in chmu_attr_pages; chmu_owner_prepare() sets it.
 */
extern unsigned int chmu_attr_pages;
extern const struct argp chmu_attr_argp;

/* A tool's argp children: the shared options, and with --max-attr-pages */
extern const struct argp_child chmu_argp_children[];
extern const struct argp_child chmu_argp_children_attr[];

/*
 * A number in min..max for option @key (or a positional argument,
 * ARGP_KEY_ARG), or argp_error() (exit 1) naming it as the user would:
 * "-r/--rows: invalid number '0' (1..10000)", "interval: ...".
 */
long long chmu_argp_num(struct argp_state *st, int key, const char *arg,
		       long long min, long long max);
/* How the user names option @key (or ARGP_KEY_ARG): "-r/--rows", "interval" */
const char *chmu_argp_name(const struct argp_state *st, int key, char *buf,
			   size_t len);
/* -g/--granularity SIZE: a power of two >= 256 (docs/options.md), or argp_error() */
uint64_t chmu_argp_granularity(struct argp_state *st, const char *arg);
/* --by unit (false) or cgroup (true), or argp_error() */
bool chmu_argp_by_cgroup(struct argp_state *st, const char *arg);
/* The positional "[interval [count]]" of every tool. */
int chmu_argp_interval(struct argp_state *st, const char *arg, long *interval,
		       long *count);

/*
 * List, select (chmu_opts), enable with --enable, and require at least one
 * enabled instance; on failure print "TOOL: reason" and return
 * CHMU_EXIT_ENV. chmu_close() restores what --enable changed.
 */
int chmu_open(const char *tool, struct chmu_inst **v, int *n);
void chmu_close(struct chmu_inst *v, int n);

/*
 * Numbers as users write them, always decimal: "010" is ten, not eight;
 * "0x10", blanks and '+' are refused (-EINVAL), as is a value out of
 * range of the type.
 */
int chmu_parse_num(const char *s, long long *out);
/* Seconds: "5", "0.5", "010" (decimal digits, one optional point); -EINVAL. */
int chmu_parse_secs(const char *s, double *out);
/* Sizes: "256M", "4k", "4096" (decimal, K/M/G binary units); -EINVAL. */
int chmu_parse_size(const char *s, uint64_t *out);
/* "256 MiB", "4 KiB", "1.5 GiB"... into @buf. */
const char *chmu_fmt_size(uint64_t bytes, char *buf, size_t len);
/*
 * A measured value (count, rate) into @buf, never in exponent form:
 * integral values in full, others with up to 6 decimals, trailing zeros
 * dropped.
 */
const char *chmu_fmt_num(double v, char *buf, size_t len);
/*
 * @t as local "HH:MM:SS" into @buf. localtime_r(): the time zone is read
 * once (chmu_tool_start() calls tzset()), not stat'ed again per call as
 * localtime() does.
 */
const char *chmu_fmt_clock(time_t t, char *buf, size_t len);

/*
 * NDJSON: start a record with "version", "type" and "time" (wall clock,
 * seconds since the epoch with microseconds: now, or @when); fields; end.
 */
void chmu_json_begin(FILE *f, const char *type);
void chmu_json_begin_at(FILE *f, const char *type, double when);
void chmu_json_str(FILE *f, const char *key, const char *val);
/* @val as a JSON string, quotes and escapes included */
void chmu_json_quote(FILE *f, const char *val);
void chmu_json_u64(FILE *f, const char *key, uint64_t val);
void chmu_json_i64(FILE *f, const char *key, int64_t val);
void chmu_json_end(FILE *f);

/* CLOCK_MONOTONIC, in ns */
uint64_t chmu_now_ns(void);

/*
 * Sleep until @deadline (CLOCK_MONOTONIC ns), or until *@stop is set (by
 * a signal handler). The caller keeps the signals that set *@stop blocked;
 * @mask (the signal mask without them) lets them in only while the
 * process sleeps, so that one arriving after the check of *@stop ends the
 * sleep at once instead of being slept through. true if stopped.
 */
#include <signal.h>
bool chmu_sleep_until(uint64_t deadline, const sigset_t *mask,
		      volatile sig_atomic_t *stop);

/* NO_COLOR set, or not a terminal. */
bool chmu_no_color(FILE *f);

#endif
