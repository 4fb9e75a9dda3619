// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE	/* ppoll */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "chmutool.h"
#include "chmuabi.h"
#include "memspec.h"

static int read_str(const char *dir, const char *attr, char *buf, size_t len)
{
	char path[700];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "%s/%s", dir, attr);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n < 0)
		return -errno;
	while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
		n--;
	buf[n] = '\0';
	return 0;
}

uint64_t chmu_attr_u64(const char *dir, const char *attr)
{
	char buf[64];

	if (read_str(dir, attr, buf, sizeof(buf)))
		return 0;
	return strtoull(buf, NULL, 0);
}

static int write_str(const char *dir, const char *attr, const char *val)
{
	char path[700];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "%s/%s", dir, attr);
	fd = open(path, O_WRONLY | O_TRUNC);
	if (fd < 0)
		return -errno;
	n = write(fd, val, strlen(val));
	close(fd);
	return n < 0 ? -errno : 0;
}

void chmu_settings_init(struct chmu_settings *s)
{
	s->threshold = s->unit_shift = s->epoch_us = s->access = -1;
	s->ds_shift = s->range_first = s->range_count = -1;
	s->fill_threshold = s->poll_ms = -1;
	s->mode = NULL;
}

bool chmu_settings_given(const struct chmu_settings *s)
{
	return s->threshold >= 0 || s->unit_shift >= 0 || s->epoch_us >= 0 ||
	       s->access >= 0 || s->ds_shift >= 0 || s->range_first >= 0 ||
	       s->range_count >= 0 || s->fill_threshold >= 0 ||
	       s->poll_ms >= 0 || s->mode;
}

int chmu_inst_read(struct chmu_inst *in)
{
	char buf[64], dir[96];

	if (read_str(in->path, "hotlist_size", buf, sizeof(buf)))
		return -ENODEV;
	in->hotlist_size = strtoul(buf, NULL, 0);
	in->num_ranges = chmu_attr_u64(in->path, "num_ranges");
	in->unit_sizes = chmu_attr_u64(in->path, "unit_sizes");
	in->ds_factors = chmu_attr_u64(in->path, "ds_factors");
	if (!read_str(in->path, "modes", buf, sizeof(buf))) {
		in->epoch_mode = strstr(buf, "epoch") != NULL;
		in->always_on = strstr(buf, "always-on") != NULL;
	}
	in->threshold = chmu_attr_u64(in->path, "threshold");
	in->unit_shift = chmu_attr_u64(in->path, "unit_shift");
	in->epoch_us = chmu_attr_u64(in->path, "epoch_us");
	in->access = chmu_attr_u64(in->path, "access");
	in->ds_shift = chmu_attr_u64(in->path, "ds_shift");
	in->range_first = chmu_attr_u64(in->path, "range_first");
	in->range_count = chmu_attr_u64(in->path, "range_count");
	in->fill_threshold = chmu_attr_u64(in->path, "fill_threshold");
	in->poll_ms = chmu_attr_u64(in->path, "poll_ms");
	in->mode_always_on = !read_str(in->path, "mode", buf, sizeof(buf)) &&
			     !strcmp(buf, "always-on");
	in->enabled = chmu_attr_u64(in->path, "enable") == 1;
	if (read_str(in->path, "owner", in->owner, sizeof(in->owner)))
		strcpy(in->owner, in->enabled ? "sysfs" : "none");
	snprintf(dir, sizeof(dir), CHMU_SYSFS_DEVICES "/mem%d/ram", in->memdev);
	in->capacity = chmu_attr_u64(dir, "size");
	return 0;
}

void chmu_inst_apply_cfg(struct chmu_inst *in, const struct chmu_cfg *c)
{
	in->enabled = c->enabled;
	in->mode_always_on = c->mode == 1;
	in->threshold = c->threshold;
	in->unit_shift = c->unit_shift;
	in->epoch_us = c->epoch_us;
	in->ds_shift = c->ds_shift;
	in->access = c->access;
	in->range_first = c->range_first;
	in->range_count = c->range_count;
	if (read_str(in->path, "owner", in->owner, sizeof(in->owner)))
		strcpy(in->owner, in->enabled ? "sysfs" : "none");
}

static int cmp_inst(const void *a, const void *b)
{
	const struct chmu_inst *x = a, *y = b;

	return x->id < y->id ? -1 : x->id > y->id;
}

int chmu_list(struct chmu_inst **out, int *n)
{
	struct chmu_inst *v = NULL, *nv;
	struct dirent *blk, *ent;
	DIR *d, *bd;
	int cnt = 0;

	d = opendir(CHMU_SYSFS_DEVICES);
	if (!d)
		return -errno;
	while ((blk = readdir(d))) {
		char bpath[300];
		int m, c;

		if (sscanf(blk->d_name, "hmu_mem%d.%d", &m, &c) != 2 ||
		    strchr(strchr(blk->d_name, '.') + 1, '.'))
			continue;
		snprintf(bpath, sizeof(bpath), CHMU_SYSFS_DEVICES "/%s", blk->d_name);
		bd = opendir(bpath);
		if (!bd)
			continue;
		while ((ent = readdir(bd))) {
			int m2, c2, i;
			struct chmu_inst *in;

			if (sscanf(ent->d_name, "hmu_mem%d.%d.%d", &m2, &c2, &i) != 3)
				continue;
			nv = realloc(v, (cnt + 1) * sizeof(*v));
			if (!nv) {
				closedir(bd);
				closedir(d);
				free(v);
				return -ENOMEM;
			}
			v = nv;
			in = &v[cnt];
			memset(in, 0, sizeof(*in));
			chmu_settings_init(&in->restore);
			snprintf(in->path, sizeof(in->path), "%s/%s", bpath, ent->d_name);
			snprintf(in->name, sizeof(in->name), "mem%d.%d.%d", m2, c2, i);
			in->memdev = m2;
			in->chmu = c2;
			in->inst = i;
			in->id = CHMU_INST_ID(m2, c2, i);
			if (!chmu_inst_read(in))
				cnt++;
		}
		closedir(bd);
	}
	closedir(d);
	if (cnt)
		qsort(v, cnt, sizeof(*v), cmp_inst);
	*out = v;
	*n = cnt;
	return 0;
}

int chmu_parse_memdev(const char *s, int *memdev)
{
	char *end;
	long v;

	if (strncmp(s, "mem", 3) || !s[3])
		return -EINVAL;
	v = strtol(s + 3, &end, 10);
	if (*end || v < 0 || v > 65535)
		return -EINVAL;
	*memdev = v;
	return 0;
}

int chmu_parse_instance(const char *s, int *chmu, int *inst)
{
	char *end, *end2;
	long c, i;

	c = strtol(s, &end, 10);
	if (end == s || *end != '.' || c < 0 || c > 255)
		return -EINVAL;
	i = strtol(end + 1, &end2, 10);
	if (end2 == end + 1 || *end2 || i < 0 || i > 255)
		return -EINVAL;
	*chmu = c;
	*inst = i;
	return 0;
}

int chmu_select(struct chmu_inst *v, int n, int memdev, int chmu, int inst)
{
	int i, k = 0;

	for (i = 0; i < n; i++) {
		if ((memdev >= 0 && v[i].memdev != memdev) ||
		    (chmu >= 0 && v[i].chmu != chmu) ||
		    (inst >= 0 && v[i].inst != inst))
			continue;
		v[k++] = v[i];
	}
	return k;
}

static int set_u64(struct chmu_inst *in, const char *attr, int64_t v,
		   char *why, size_t whylen)
{
	char buf[32];
	int rc;

	if (v < 0)
		return 0;
	snprintf(buf, sizeof(buf), "%" PRId64, v);
	rc = write_str(in->path, attr, buf);
	if (rc)
		snprintf(why, whylen, "%s: %s=%s refused: %s", in->name, attr,
			 buf, strerror(-rc));
	return rc;
}

/* Put back the configuration chmu_inst_enable() wrote (disabled only). */
static void restore_config(struct chmu_inst *in)
{
	struct chmu_settings *r = &in->restore;
	char why[8];	/* best effort: nothing to report it to */

	if (r->mode)
		write_str(in->path, "mode", r->mode);
	set_u64(in, "threshold", r->threshold, why, sizeof(why));
	set_u64(in, "unit_shift", r->unit_shift, why, sizeof(why));
	set_u64(in, "epoch_us", r->epoch_us, why, sizeof(why));
	set_u64(in, "access", r->access, why, sizeof(why));
	set_u64(in, "ds_shift", r->ds_shift, why, sizeof(why));
	set_u64(in, "range_first", r->range_first, why, sizeof(why));
	set_u64(in, "range_count", r->range_count, why, sizeof(why));
	set_u64(in, "fill_threshold", r->fill_threshold, why, sizeof(why));
	set_u64(in, "poll_ms", r->poll_ms, why, sizeof(why));
	chmu_settings_init(r);
}

/* Remember the current value of every attribute @s is about to change. */
static void save_config(struct chmu_inst *in, const struct chmu_settings *s)
{
	struct chmu_settings *r = &in->restore;

#define SAVE(f) (r->f = s->f >= 0 ? (int64_t)in->f : -1)
	SAVE(threshold);
	SAVE(unit_shift);
	SAVE(epoch_us);
	SAVE(access);
	SAVE(ds_shift);
	SAVE(range_first);
	SAVE(range_count);
	SAVE(fill_threshold);
	SAVE(poll_ms);
#undef SAVE
	r->mode = !s->mode ? NULL : in->mode_always_on ? "always-on" : "epoch";
}

int chmu_inst_enable(struct chmu_inst *in, const struct chmu_settings *s,
		     char *why, size_t whylen)
{
	int rc;

	if (in->enabled) {
		if (chmu_settings_given(s)) {
			snprintf(why, whylen, "%s is already enabled (by %s): settings cannot change",
				 in->name, in->owner);
			return -EBUSY;
		}
		return 0;
	}
	save_config(in, s);
	if (s->mode) {
		rc = write_str(in->path, "mode", s->mode);
		if (rc) {
			snprintf(why, whylen, "%s: mode=%s refused: %s", in->name,
				 s->mode, strerror(-rc));
			restore_config(in);
			return rc;
		}
	}
	if ((rc = set_u64(in, "threshold", s->threshold, why, whylen)) ||
	    (rc = set_u64(in, "unit_shift", s->unit_shift, why, whylen)) ||
	    (rc = set_u64(in, "epoch_us", s->epoch_us, why, whylen)) ||
	    (rc = set_u64(in, "access", s->access, why, whylen)) ||
	    (rc = set_u64(in, "ds_shift", s->ds_shift, why, whylen)) ||
	    (rc = set_u64(in, "range_first", s->range_first, why, whylen)) ||
	    (rc = set_u64(in, "range_count", s->range_count, why, whylen)) ||
	    (rc = set_u64(in, "fill_threshold", s->fill_threshold, why, whylen)) ||
	    (rc = set_u64(in, "poll_ms", s->poll_ms, why, whylen))) {
		restore_config(in);
		return rc;
	}
	rc = write_str(in->path, "enable", "1");
	if (rc) {
		snprintf(why, whylen, "%s: enable refused: %s (see dmesg with 'module cxl_hmu +p' in dynamic_debug)",
			 in->name, strerror(-rc));
		restore_config(in);
		return rc;
	}
	in->we_enabled = true;
	rc = chmu_inst_read(in);
	if (rc) {
		/* gone meanwhile (unbound?): say so, and leave nothing on */
		snprintf(why, whylen, "%s: cannot read it back after enabling it: %s",
			 in->name, strerror(-rc));
		chmu_inst_restore(in);
	}
	return rc;
}

void chmu_inst_restore(struct chmu_inst *in)
{
	if (in->we_enabled && !write_str(in->path, "enable", "0"))
		in->we_enabled = false;
	if (!in->we_enabled)
		restore_config(in);
}

int chmu_parse_num(const char *s, long long *out)
{
	const char *d = *s == '-' ? s + 1 : s;
	char *end;
	long long v;

	if (!isdigit((unsigned char)*d))
		return -EINVAL;
	errno = 0;
	v = strtoll(s, &end, 10);
	if (errno || *end)
		return -EINVAL;
	*out = v;
	return 0;
}

int chmu_parse_secs(const char *s, double *out)
{
	const char *p = *s == '-' ? s + 1 : s;
	char *end;

	if (!isdigit((unsigned char)*p))
		return -EINVAL;
	while (isdigit((unsigned char)*p))
		p++;
	if (*p == '.')
		p++;
	while (isdigit((unsigned char)*p))
		p++;
	if (*p)
		return -EINVAL;
	errno = 0;
	*out = strtod(s, &end);	/* digits and a point only: decimal */
	return errno || *end ? -EINVAL : 0;
}

int chmu_parse_size(const char *s, uint64_t *out)
{
	/* parse_size() takes hex too (chmu-regs' offsets): not here */
	if (!isdigit((unsigned char)s[0]) || (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')))
		return -EINVAL;
	return parse_size(s, out) ? -EINVAL : 0;
}

const char *chmu_fmt_size(uint64_t b, char *buf, size_t len)
{
	static const char *const u[] = { "B", "KiB", "MiB", "GiB", "TiB" };
	int i = 0;

	while (i < 4 && b >= 1024 && !(b & 1023)) {
		b >>= 10;
		i++;
	}
	snprintf(buf, len, "%" PRIu64 " %s", b, u[i]);
	return buf;
}

const char *chmu_fmt_clock(time_t t, char *buf, size_t len)
{
	struct tm tm;

	if (!localtime_r(&t, &tm) || !strftime(buf, len, "%H:%M:%S", &tm))
		snprintf(buf, len, "--:--:--");
	return buf;
}

const char *chmu_fmt_num(double v, char *buf, size_t len)
{
	char *p;

	if (v == 0)	/* -0 too */
		v = 0;
	snprintf(buf, len, "%.6f", v);
	p = strchr(buf, '.');
	if (p) {
		char *e = p + strlen(p) - 1;

		while (e > p && *e == '0')
			*e-- = '\0';
		if (e == p)
			*e = '\0';
	}
	return buf;
}

void chmu_json_begin_at(FILE *f, const char *type, double when)
{
	fprintf(f, "{\"version\":%d,\"type\":\"%s\",\"time\":%.6f", CHMU_JSON_VERSION,
		type, when);
}

void chmu_json_begin(FILE *f, const char *type)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	chmu_json_begin_at(f, type, ts.tv_sec + ts.tv_nsec / 1e9);
}

void chmu_json_quote(FILE *f, const char *val)
{
	const char *p;

	fputc('"', f);
	for (p = val; *p; p++) {
		unsigned char c = *p;

		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c < 0x20)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

void chmu_json_str(FILE *f, const char *key, const char *val)
{
	fprintf(f, ",\"%s\":", key);
	chmu_json_quote(f, val);
}

void chmu_json_u64(FILE *f, const char *key, uint64_t val)
{
	fprintf(f, ",\"%s\":%" PRIu64, key, val);
}

void chmu_json_i64(FILE *f, const char *key, int64_t val)
{
	fprintf(f, ",\"%s\":%" PRId64, key, val);
}

void chmu_json_end(FILE *f)
{
	fputs("}\n", f);
	fflush(f);
}

uint64_t chmu_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

bool chmu_sleep_until(uint64_t deadline, const sigset_t *mask,
		      volatile sig_atomic_t *stop)
{
	uint64_t t;

	while (!*stop && (t = chmu_now_ns()) < deadline) {
		struct timespec ts = { (deadline - t) / 1000000000ULL,
				       (deadline - t) % 1000000000ULL };

		ppoll(NULL, 0, &ts, mask);
	}
	return *stop;
}

bool chmu_no_color(FILE *f)
{
	const char *nc = getenv("NO_COLOR");

	return (nc && *nc) || !isatty(fileno(f));
}

struct chmu_opts chmu_opts = { .memdev = -1, .chmu = -1, .inst = -1 };

enum { OPT_ENABLE = 0x1000 };

static const struct argp_option common_options[] = {
	{ "memdev", 'm', "memN", 0, "Only instances of this memory device", 0 },
	{ "instance", 'i', "CHMU.INST", 0, "Only this instance (block.instance)", 0 },
	{ NULL, 'h', NULL, OPTION_HIDDEN, "Show the full help", 0 },
	{ NULL, 0, NULL, 0, "Enabling instances (else attach to enabled ones):", 10 },
	{ "enable", OPT_ENABLE, NULL, 0, "Configure and enable the selected disabled instances; disable them at exit", 10 },
	{ "threshold", 't', "N", 0, "Hotness threshold", 10 },
	{ "unit", 'u', "SIZE", 0, "Unit size (a power of two, e.g. 4K)", 10 },
	{ "epoch", 'e', "US", 0, "Epoch length in microseconds", 10 },
	{ "mode", 'M', "MODE", 0, "epoch or always-on", 10 },
	{ "downsample", 'd', "N", 0, "Count one in 2^N requests", 10 },
	{},
};

/* The option of @key in @a or its children, or NULL */
static const struct argp_option *find_option(const struct argp *a, int key)
{
	const struct argp_option *o;
	const struct argp_child *c;

	for (o = a->options; o && (o->name || o->key || o->doc); o++)
		if (o->key == key && !(o->flags & OPTION_DOC))
			return o;
	for (c = a->children; c && c->argp; c++) {
		o = find_option(c->argp, key);
		if (o)
			return o;
	}
	return NULL;
}

const char *chmu_argp_name(const struct argp_state *st, int key, char *buf,
			   size_t len)
{
	const struct argp_option *o = NULL;

	if (key == ARGP_KEY_ARG)
		snprintf(buf, len, "%s", st->arg_num ? "count" : "interval");
	else if ((o = find_option(st->root_argp, key)) && o->name && key < 128 && isprint(key))
		snprintf(buf, len, "-%c/--%s", key, o->name);
	else if (o && o->name)
		snprintf(buf, len, "--%s", o->name);
	else
		snprintf(buf, len, "-%c", key);
	return buf;
}

long long chmu_argp_num(struct argp_state *st, int key, const char *arg,
		       long long min, long long max)
{
	char name[64];
	long long v = 0;

	if (!chmu_parse_num(arg, &v) && v >= min && v <= max)
		return v;
	argp_error(st, "%s: invalid number '%s' (%lld..%lld)",
		   chmu_argp_name(st, key, name, sizeof(name)), arg, min, max);
	return v;
}

static error_t common_parse(int key, char *arg, struct argp_state *st)
{
	struct chmu_opts *o = &chmu_opts;
	uint64_t sz;

	switch (key) {
	case ARGP_KEY_INIT:
		chmu_settings_init(&o->set);
		break;
	case 'h':
		argp_state_help(st, stdout, ARGP_HELP_STD_HELP);
		break;
	case 'm':
		if (chmu_parse_memdev(arg, &o->memdev))
			argp_error(st, "memdev must be memN, not '%s'", arg);
		break;
	case 'i':
		if (chmu_parse_instance(arg, &o->chmu, &o->inst))
			argp_error(st, "instance must be BLOCK.INSTANCE, not '%s'", arg);
		break;
	case OPT_ENABLE:
		o->enable = true;
		break;
	case 't':
		o->set.threshold = chmu_argp_num(st, key, arg, 1, UINT32_MAX);
		break;
	case 'u':
		if (chmu_parse_size(arg, &sz) || sz < 256 || (sz & (sz - 1)))
			argp_error(st, "unit size must be a power of two >= 256, not '%s'", arg);
		o->set.unit_shift = __builtin_ctzll(sz);
		break;
	case 'e':
		o->set.epoch_us = chmu_argp_num(st, key, arg, 1, 40950000000LL);
		break;
	case 'M':
		if (strcmp(arg, "epoch") && strcmp(arg, "always-on"))
			argp_error(st, "mode must be epoch or always-on, not '%s'", arg);
		o->set.mode = arg;
		break;
	case 'd':
		o->set.ds_shift = chmu_argp_num(st, key, arg, 0, 15);
		break;
	case ARGP_KEY_END:
		if (chmu_settings_given(&o->set) && !o->enable)
			argp_error(st, "configuration options need --enable");
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

const struct argp chmu_argp = { .options = common_options, .parser = common_parse };

enum { OPT_MAX_ATTR_PAGES = 0x1001 };

unsigned int chmu_attr_pages = CHMU_OWNER_DRAIN_PAGES;

static const struct argp_option attr_options[] = {
	{ "max-attr-pages", OPT_MAX_ATTR_PAGES, "N", 0,
	  "Attribution reads at most N struct pages per drain (default 16384); "
	  "the entries of units past them are counted unattributed", 11 },
	{},
};

static error_t attr_parse(int key, char *arg, struct argp_state *st)
{
	if (key != OPT_MAX_ATTR_PAGES)
		return ARGP_ERR_UNKNOWN;
	chmu_attr_pages = chmu_argp_num(st, key, arg, 1, CHMU_OWNER_DRAIN_PAGES_MAX);
	return 0;
}

const struct argp chmu_attr_argp = { .options = attr_options, .parser = attr_parse };

uint64_t chmu_argp_granularity(struct argp_state *st, const char *arg)
{
	uint64_t sz = 0;

	if (chmu_parse_size(arg, &sz) || sz < 256 || (sz & (sz - 1)))
		argp_error(st, "granularity must be a power of two >= 256, not '%s'", arg);
	return sz;
}

bool chmu_argp_by_cgroup(struct argp_state *st, const char *arg)
{
	if (!strcmp(arg, "cgroup"))
		return true;
	if (strcmp(arg, "unit"))
		argp_error(st, "--by must be unit or cgroup, not '%s'", arg);
	return false;
}

const struct argp_child chmu_argp_children[] = {
	{ &chmu_argp, 0, NULL, 0 },
	{},
};

const struct argp_child chmu_argp_children_attr[] = {
	{ &chmu_argp, 0, NULL, 0 },
	{ &chmu_attr_argp, 0, NULL, 0 },
	{},
};

int chmu_argp_interval(struct argp_state *st, const char *arg, long *interval,
		       long *count)
{
	if (st->arg_num == 0)
		*interval = chmu_argp_num(st, ARGP_KEY_ARG, arg, 1, 86400);
	else if (st->arg_num == 1)
		*count = chmu_argp_num(st, ARGP_KEY_ARG, arg, 1, 1000000);
	else
		argp_error(st, "unexpected argument '%s'", arg);
	return 0;
}

int chmu_open(const char *tool, struct chmu_inst **v, int *n)
{
	struct chmu_inst *all = NULL;
	char why[256];
	int cnt = 0, i;
	bool any = false;

	*v = NULL;
	*n = 0;
	if (chmu_list(&all, &cnt) || !cnt) {
		fprintf(stderr, "%s: no CHMU instance in " CHMU_SYSFS_DEVICES " (cxl_hmu bound?)\n",
			tool);
		free(all);
		return CHMU_EXIT_ENV;
	}
	cnt = chmu_select(all, cnt, chmu_opts.memdev, chmu_opts.chmu,
			  chmu_opts.inst);
	if (!cnt) {
		fprintf(stderr, "%s: no CHMU instance matches the -m/-i selection\n", tool);
		free(all);
		return CHMU_EXIT_ENV;
	}
	for (i = 0; i < cnt; i++) {
		if (chmu_opts.enable &&
		    chmu_inst_enable(&all[i], &chmu_opts.set, why, sizeof(why))) {
			fprintf(stderr, "%s: %s\n", tool, why);
			chmu_close(all, i);
			return CHMU_EXIT_ENV;
		}
		any |= all[i].enabled;
	}
	if (!any) {
		fprintf(stderr, "%s: no selected CHMU instance is enabled: enable one through sysfs, perf, or --enable\n",
			tool);
		free(all);
		return CHMU_EXIT_ENV;
	}
	*v = all;
	*n = cnt;
	return 0;
}

void chmu_close(struct chmu_inst *v, int n)
{
	int i;

	for (i = 0; i < n; i++)
		chmu_inst_restore(&v[i]);
	free(v);
}
