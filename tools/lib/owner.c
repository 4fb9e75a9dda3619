// SPDX-License-Identifier: GPL-2.0
/* Who owns hot CXL memory, in user space: see owner.h. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "chmutool.h"
#include "owner.h"

uint32_t owner_pages(const struct chmu_owners *o)
{
	uint32_t n = o->free + o->kernel + o->other + o->none;

	for (int k = 0; k < CHMU_OWNERS; k++)
		n += o->pages[k];
	return n;
}

static int share_cmp(const void *a, const void *b)
{
	const struct owner_share *x = a, *y = b;

	if (x->pages != y->pages)
		return x->pages > y->pages ? -1 : 1;
	if (x->kind != y->kind)
		return x->kind < y->kind ? -1 : 1;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

size_t owner_shares(const struct chmu_owners *o, struct owner_share *out,
		    size_t max)
{
	struct owner_share v[CHMU_OWNERS + 4];
	size_t n = 0, i;

	for (int k = 0; k < CHMU_OWNERS; k++)
		if (o->cgid[k] && o->pages[k])
			v[n++] = (struct owner_share){ OWNER_CGROUP, o->cgid[k], o->pages[k], k };
	if (o->other)
		v[n++] = (struct owner_share){ OWNER_OTHER, 0, o->other, 0 };
	if (o->free)
		v[n++] = (struct owner_share){ OWNER_FREE, 0, o->free, 0 };
	if (o->kernel)
		v[n++] = (struct owner_share){ OWNER_KERNEL, 0, o->kernel, 0 };
	if (o->none || !n)
		v[n++] = (struct owner_share){ OWNER_NONE, 0, o->none, 0 };
	qsort(v, n, sizeof(v[0]), share_cmp);
	for (i = 0; i < n && i < max; i++)
		out[i] = v[i];
	return i;
}

struct owner_name {
	uint64_t id;
	char *path;
	unsigned int seen;	/* the last walk that found it */
};

/* Names of removed cgroups kept at most (a daemon with cgroups that come and go) */
#define OWNER_STALE_MAX 4096

struct owner_region {
	uint64_t start, size, gran;	/* gran: 0 if not interleaved */
};

struct owner_names {
	char mount[PATH_MAX];
	struct owner_region *reg;
	size_t nreg;
	struct owner_name *v;
	size_t n, cap;
	bool walked;		/* since the last expiry */
	unsigned int walks;
	char unknown[48];
};

static int find_cgroup2(char *buf, size_t len)
{
	FILE *f = fopen("/proc/self/mountinfo", "r");
	char line[4096];
	int err = -ENOENT;

	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		/* id parent maj:min root mountpoint opts ... - fstype source ... */
		char *dash = strstr(line, " - "), mnt[PATH_MAX], fstype[64];

		if (!dash || sscanf(dash, " - %63s", fstype) != 1 ||
		    strcmp(fstype, "cgroup2") ||
		    sscanf(line, "%*s %*s %*s %*s %4095s", mnt) != 1)
			continue;
		snprintf(buf, len, "%s", mnt);
		err = 0;
		break;
	}
	fclose(f);
	return err;
}

struct owner_names *owner_names_new(const char *mount)
{
	struct owner_names *n = calloc(1, sizeof(*n));
	struct stat st;
	int err;

	if (!n)
		return NULL;
	if (mount) {
		snprintf(n->mount, sizeof(n->mount), "%s", mount);
	} else if ((err = find_cgroup2(n->mount, sizeof(n->mount)))) {
		free(n);
		errno = -err;
		return NULL;
	}
	if (stat(n->mount, &st) || !S_ISDIR(st.st_mode)) {
		err = errno ? errno : ENOTDIR;
		free(n);
		errno = err;
		return NULL;
	}
	return n;
}

const char *owner_names_mount(const struct owner_names *n)
{
	return n->mount;
}

static void names_clear(struct owner_names *n)
{
	for (size_t i = 0; i < n->n; i++)
		free(n->v[i].path);
	n->n = 0;
}

void owner_names_free(struct owner_names *n)
{
	if (!n)
		return;
	names_clear(n);
	free(n->v);
	free(n->reg);
	free(n);
}

static const struct owner_name *lookup(struct owner_names *n, uint64_t id);

int owner_names_add(struct owner_names *n, uint64_t id, const char *path)
{
	struct owner_name *e = (struct owner_name *)lookup(n, id);
	char *p;

	if (e) {	/* known: the path it has now (a cgroup can be renamed) */
		e->seen = n->walks;
		if (strcmp(e->path, path)) {
			p = strdup(path);
			if (!p)
				return -ENOMEM;
			free(e->path);
			e->path = p;
		}
		return 0;
	}

	if (n->n == n->cap) {
		size_t cap = n->cap ? 2 * n->cap : 64;
		struct owner_name *v = realloc(n->v, cap * sizeof(*v));

		if (!v)
			return -ENOMEM;
		n->v = v;
		n->cap = cap;
	}
	p = strdup(path);
	if (!p)
		return -ENOMEM;
	{	/* kept sorted by id: its place */
		size_t lo = 0, hi = n->n;

		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;

			if (n->v[mid].id < id)
				lo = mid + 1;
			else
				hi = mid;
		}
		memmove(&n->v[lo + 1], &n->v[lo], (n->n - lo) * sizeof(n->v[0]));
		n->v[lo] = (struct owner_name){ id, p, n->walks };
		n->n++;
	}
	return 0;
}

/* Directory @fd, at @path under the mount: it and its descendants */
static void walk(struct owner_names *n, int fd, const char *path, int depth)
{
	struct stat st;
	struct dirent *d;
	DIR *dir;

	if (fstat(fd, &st)) {
		close(fd);
		return;
	}
	owner_names_add(n, st.st_ino, path);
	if (depth >= 64 || !(dir = fdopendir(fd))) {
		close(fd);
		return;
	}
	while ((d = readdir(dir))) {
		char sub[PATH_MAX];
		int cfd;

		if (d->d_type != DT_DIR || !strcmp(d->d_name, ".") ||
		    !strcmp(d->d_name, ".."))
			continue;
		cfd = openat(dirfd(dir), d->d_name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (cfd < 0)
			continue;	/* removed meanwhile */
		snprintf(sub, sizeof(sub), "%s/%s", strcmp(path, "/") ? path : "",
			 d->d_name);
		walk(n, cfd, sub, depth + 1);
	}
	closedir(dir);
}

static uint64_t read_u64(const char *dir, const char *name, const char *attr)
{
	char path[PATH_MAX + 600], buf[64], *end;
	unsigned long long v;
	FILE *f;
	bool ok;

	snprintf(path, sizeof(path), "%s/%s/%s", dir, name, attr);
	f = fopen(path, "r");
	if (!f)
		return UINT64_MAX;
	ok = fgets(buf, sizeof(buf), f) != NULL;
	fclose(f);
	if (!ok)
		return UINT64_MAX;
	errno = 0;
	v = strtoull(buf, &end, 0);	/* decimal or 0x hex, all 64 bits */
	return errno || end == buf ? UINT64_MAX : v;
}

int owner_regions_load(struct owner_names *n, const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	size_t cap = 0;

	if (!d)
		return -errno;
	n->nreg = 0;
	while ((e = readdir(d))) {
		uint64_t start, size, ways, gran;

		if (strncmp(e->d_name, "region", 6))
			continue;
		start = read_u64(dir, e->d_name, "resource");
		size = read_u64(dir, e->d_name, "size");
		ways = read_u64(dir, e->d_name, "interleave_ways");
		gran = read_u64(dir, e->d_name, "interleave_granularity");
		if (start == UINT64_MAX || size == UINT64_MAX || !size)
			continue;	/* not committed */
		if (n->nreg == cap) {
			struct owner_region *v;

			cap = cap ? 2 * cap : 8;
			v = realloc(n->reg, cap * sizeof(*v));
			if (!v)
				break;
			n->reg = v;
		}
		n->reg[n->nreg++] = (struct owner_region){
			start, size, ways > 1 && ways != UINT64_MAX ? gran : 0 };
	}
	closedir(d);
	return 0;
}

uint64_t owner_contig(const struct owner_names *n, uint64_t hpa)
{
	for (size_t i = 0; i < n->nreg; i++) {
		const struct owner_region *r = &n->reg[i];

		if (hpa >= r->start && hpa - r->start < r->size)
			return r->gran ? r->gran - (hpa - r->start) % r->gran :
					 UINT64_MAX;
	}
	return UINT64_MAX;
}

size_t owner_interleaved(const struct owner_names *n,
			 struct chmu_owner_region *out, size_t max)
{
	size_t k = 0;

	for (size_t i = 0; i < n->nreg && k < max; i++)
		if (n->reg[i].gran)
			out[k++] = (struct chmu_owner_region){
				n->reg[i].start, n->reg[i].size, n->reg[i].gran };
	return k;
}

static int name_cmp(const void *a, const void *b)
{
	const struct owner_name *x = a, *y = b;

	return x->id < y->id ? -1 : x->id > y->id;
}

static const struct owner_name *lookup(struct owner_names *n, uint64_t id)
{
	struct owner_name key = { id, NULL, 0 };

	return n->n ? bsearch(&key, n->v, n->n, sizeof(n->v[0]), name_cmp) : NULL;
}

/*
 * Past OWNER_STALE_MAX names of cgroups the last walk did not find, those
 * not found for longest go (their ids then read cgroup:ID)
 */
static void forget_stale(struct owner_names *n)
{
	size_t stale = 0, i, k;
	unsigned int oldest = n->walks;

	for (i = 0; i < n->n; i++)
		if (n->v[i].seen != n->walks) {
			stale++;
			if (n->v[i].seen < oldest)
				oldest = n->v[i].seen;
		}
	while (stale > OWNER_STALE_MAX) {
		for (i = k = 0; i < n->n; i++) {
			if (n->v[i].seen == oldest) {
				free(n->v[i].path);
				stale--;
				continue;
			}
			n->v[k++] = n->v[i];
		}
		n->n = k;
		oldest++;
	}
}

const char *owner_name(struct owner_names *n, uint64_t id)
{
	const struct owner_name *e = lookup(n, id);
	int fd;

	if (!e && !n->walked) {
		n->walked = true;
		/*
		 * Added to what is known, never cleared: a removed cgroup's
		 * pages can still be charged to it, and its id keeps its path
		 */
		fd = open(n->mount, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (fd >= 0) {
			n->walks++;
			walk(n, fd, "/", 0);
			forget_stale(n);
		}
		e = lookup(n, id);
	}
	if (e)
		return e->path;
	snprintf(n->unknown, sizeof(n->unknown), "cgroup:%" PRIu64, id);
	return n->unknown;
}

void owner_names_expire(struct owner_names *n)
{
	n->walked = false;
}

/* Does directory @dir list "memory" in its cgroup.controllers */
static bool has_memory(const char *dir)
{
	char path[2 * PATH_MAX + 64], word[64];
	bool yes = false;
	FILE *f;

	snprintf(path, sizeof(path), "%s/cgroup.controllers", dir);
	f = fopen(path, "r");
	if (!f)
		return false;
	while (!yes && fscanf(f, "%63s", word) == 1)
		yes = !strcmp(word, "memory");
	fclose(f);
	return yes;
}

uint64_t owner_self_cgroup(struct owner_names *n)
{
	FILE *f = fopen("/proc/self/cgroup", "r");
	char line[PATH_MAX + 16], path[2 * PATH_MAX + 32], *rel = NULL, *slash;
	struct stat st;
	uint64_t id = 0;

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		/* cgroup2: "0::/path" */
		if (!strncmp(line, "0::", 3)) {
			line[strcspn(line, "\n")] = '\0';
			rel = line + 3;
			break;
		}
	}
	fclose(f);
	if (!rel || *rel != '/')
		return 0;
	/*
	 * The nearest cgroup that has a memory controller of its own (the
	 * parent enabled it): it is charged for our pages. None, not even
	 * the root: memory cgroups are not on this hierarchy (cgroup v1).
	 */
	for (;;) {
		snprintf(path, sizeof(path), "%s%s", n->mount, rel);
		if (has_memory(path)) {
			if (!stat(path, &st))
				id = st.st_ino;
			break;
		}
		if (!strcmp(rel, "/"))
			break;
		slash = strrchr(rel, '/');
		if (slash == rel)
			slash[1] = '\0';
		else
			*slash = '\0';
	}
	return id;
}

const char *owner_key_name(struct owner_names *n, uint64_t key)
{
	switch (key) {
	case CHMU_KEY_FREE:
		return "free";
	case CHMU_KEY_KERNEL:
		return "kernel";
	case CHMU_KEY_NONE:
		return "-";
	case CHMU_KEY_OTHER:
		return "other";
	case CHMU_KEY_UNATTRIBUTED:
		return "unattributed";
	default:
		return owner_name(n, key);
	}
}

const char *owner_share_name(struct owner_names *n, const struct owner_share *s)
{
	switch (s->kind) {
	case OWNER_CGROUP:
		return owner_name(n, s->cgid);
	case OWNER_OTHER:
		return "other";
	case OWNER_FREE:
		return "free";
	case OWNER_KERNEL:
		return "kernel";
	default:
		return "-";
	}
}

const char *owner_fmt(struct owner_names *n, const struct chmu_owners *o,
		      char *buf, size_t len)
{
	struct owner_share s;
	uint32_t total = owner_pages(o);

	owner_shares(o, &s, 1);
	if (!total || s.pages == total)
		snprintf(buf, len, "%s%s", owner_share_name(n, &s),
			 o->unwalked ? "+" : "");
	else
		snprintf(buf, len, "%s %u%%%s", owner_share_name(n, &s),
			 (unsigned int)(100ULL * s.pages / total),
			 o->unwalked ? "+" : "");
	return buf;
}

void owner_json(FILE *f, struct owner_names *n, const struct chmu_owners *o)
{
	struct owner_share s[CHMU_OWNERS + 4];
	size_t k, ns = owner_shares(o, s, CHMU_OWNERS + 4);

	chmu_json_str(f, "cgroup", owner_share_name(n, &s[0]));
	fputs(",\"owners\":[", f);
	for (k = 0; k < ns; k++) {
		fputs(k ? ",{\"cgroup\":" : "{\"cgroup\":", f);
		chmu_json_quote(f, owner_share_name(n, &s[k]));
		fprintf(f, ",\"pages\":%u}", s[k].pages);
	}
	fputc(']', f);
	chmu_json_u64(f, "owner_pages", owner_pages(o));
	if (o->unwalked)
		chmu_json_u64(f, "owner_unwalked", o->unwalked);
}

static struct owner_group *group(struct owner_groups *g, const char *name)
{
	struct owner_group *e;

	for (size_t i = 0; i < g->n; i++)
		if (!strcmp(g->v[i].name, name))
			return &g->v[i];
	if (g->n == g->cap) {
		size_t cap = g->cap ? 2 * g->cap : 16;
		struct owner_group *v = realloc(g->v, cap * sizeof(*v));

		if (!v)
			return NULL;
		g->v = v;
		g->cap = cap;
	}
	e = &g->v[g->n++];
	memset(e, 0, sizeof(*e));
	snprintf(e->name, sizeof(e->name), "%s", name);
	return e;
}

int owner_groups_add_share(struct owner_groups *g, const char *name, double w,
			   uint32_t pages, double sum, double rate)
{
	struct owner_group *e = group(g, name);

	if (!e)
		return -ENOMEM;
	e->sum += sum * w;
	e->rate += rate * w;
	e->units += w;
	if (rate > 0)
		e->active += w;
	e->touched++;
	e->pages += pages;
	return 0;
}

int owner_groups_add(struct owner_groups *g, struct owner_names *n,
		     const struct chmu_owners *o, double sum, double rate)
{
	struct owner_share s[CHMU_OWNERS + 4];
	size_t k, ns = owner_shares(o, s, CHMU_OWNERS + 4);
	uint32_t total = owner_pages(o);
	int err;

	for (k = 0; k < ns; k++) {
		/* shares of the pages looked at; a unit with none: all of it */
		err = owner_groups_add_share(g, owner_share_name(n, &s[k]),
					     total ? (double)s[k].pages / total : 1.0,
					     s[k].pages, sum, rate);
		if (err)
			return err;
	}
	return 0;
}

static bool g_by_sum;

static int group_cmp(const void *a, const void *b)
{
	const struct owner_group *x = a, *y = b;
	double kx = g_by_sum ? x->sum : x->rate, ky = g_by_sum ? y->sum : y->rate;

	if (kx != ky)
		return kx > ky ? -1 : 1;
	return strcmp(x->name, y->name);
}

void owner_groups_sort(struct owner_groups *g, bool by_sum)
{
	g_by_sum = by_sum;
	if (g->n)
		qsort(g->v, g->n, sizeof(g->v[0]), group_cmp);
}

void owner_groups_reset(struct owner_groups *g)
{
	g->n = 0;
}

void owner_groups_free(struct owner_groups *g)
{
	free(g->v);
	g->v = NULL;
	g->n = g->cap = 0;
}
