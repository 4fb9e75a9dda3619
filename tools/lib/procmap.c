// SPDX-License-Identifier: GPL-2.0
/* Which processes map which page frames: see procmap.h. */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>

#include "procmap.h"

#define PM_PRESENT	(1ULL << 63)
#define PM_PFN_MASK	((1ULL << 55) - 1)
#define PM_CHUNK	4096	/* pagemap entries read at once */

int procmap_init(struct procmap *m, size_t max, const struct procmap_range *ranges,
		 size_t nranges)
{
	memset(m, 0, sizeof(*m));
	m->max = max;
	m->ranges = ranges;
	m->nranges = nranges;
	m->cap = 1024;
	m->v = calloc(m->cap, sizeof(*m->v));
	return m->v ? 0 : -ENOMEM;
}

void procmap_reset(struct procmap *m)
{
	memset(m->v, 0, m->cap * sizeof(*m->v));
	m->used = 0;
	m->skipped = 0;
	m->scanned = 0;
	m->truncated = 0;
	m->ioctl_scans = 0;
}

void procmap_free(struct procmap *m)
{
	free(m->v);
	m->v = NULL;
}

static size_t slot_of(const struct procmap *m, uint64_t pfn)
{
	uint64_t h = (pfn + 1) * 0x9e3779b97f4a7c15ULL;

	return (h >> 17) & (m->cap - 1);
}

static struct procmap_slot *find(const struct procmap *m, uint64_t pfn)
{
	size_t i = slot_of(m, pfn);

	while (m->v[i].pfn && m->v[i].pfn != pfn + 1)
		i = (i + 1) & (m->cap - 1);
	return &m->v[i];
}

static int grow(struct procmap *m)
{
	struct procmap *n = &(struct procmap){ .cap = 2 * m->cap };
	size_t i;

	n->v = calloc(n->cap, sizeof(*n->v));
	if (!n->v)
		return -ENOMEM;
	for (i = 0; i < m->cap; i++)
		if (m->v[i].pfn)
			*find(n, m->v[i].pfn - 1) = m->v[i];
	free(m->v);
	m->v = n->v;
	m->cap = n->cap;
	return 0;
}

static bool wanted(const struct procmap *m, uint64_t pfn)
{
	size_t lo = 0, hi = m->nranges;

	while (lo < hi) {	/* the last range starting at or below pfn */
		size_t mid = lo + (hi - lo) / 2;

		if (m->ranges[mid].lo <= pfn)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo && pfn < m->ranges[lo - 1].hi;
}

static void add(struct procmap *m, uint64_t pfn, pid_t pid)
{
	struct procmap_slot *s;

	if (!wanted(m, pfn))
		return;
	s = find(m, pfn);
	if (s->pfn) {
		/* a process mapping a page twice counts once */
		if (s->last != pid && s->mappers != UINT32_MAX) {
			s->mappers++;
			s->last = pid;
		}
		return;
	}
	if (m->used >= m->max || (2 * (m->used + 1) > m->cap && grow(m))) {
		m->skipped++;
		return;
	}
	s = find(m, pfn);
	*s = (struct procmap_slot){ pfn + 1, pid, pid, 1 };
	m->used++;
}

/* PAGEMAP_SCAN (Linux 6.7, uapi linux/fs.h), for older headers */
struct pm_region {
	uint64_t start, end, categories;
};

struct pm_scan_arg_ {
	uint64_t size, flags, start, end, walk_end, vec, vec_len, max_pages;
	uint64_t category_inverted, category_mask, category_anyof_mask, return_mask;
};

#define PM_SCAN		_IOWR('f', 16, struct pm_scan_arg_)
#define PM_IS_PRESENT	(1 << 3)

/*
 * The pagemap entries of [@lo, @hi) of the process of @fd: frames in the
 * ranges added, at most *@budget entries read (what is left of it
 * returned there). 0, or -1 when the pagemap cannot be read further.
 */
static int read_range(struct procmap *m, int fd, pid_t pid, uint64_t lo,
		      uint64_t hi, long psz, uint64_t *budget, bool *any_present,
		      bool *any_pfn)
{
	static uint64_t buf[PM_CHUNK];

	for (uint64_t va = lo; va < hi;) {
		size_t n = (hi - va) / psz, i;
		ssize_t got;

		if (!*budget) {
			m->truncated++;
			return -1;
		}
		if (n > PM_CHUNK)
			n = PM_CHUNK;
		if (n > *budget)
			n = *budget;
		got = pread(fd, buf, n * sizeof(buf[0]), (off_t)(va / psz) * sizeof(buf[0]));
		if (got <= 0)
			return -1;
		n = got / sizeof(buf[0]);
		for (i = 0; i < n; i++) {
			if (!(buf[i] & PM_PRESENT))
				continue;
			*any_present = true;
			if (!(buf[i] & PM_PFN_MASK))
				continue;
			*any_pfn = true;
			add(m, buf[i] & PM_PFN_MASK, pid);
		}
		m->scanned += n;
		*budget -= n;
		va += n * psz;
	}
	return 0;
}

int procmap_scan(struct procmap *m, const char *proc, pid_t pid)
{
	long psz = sysconf(_SC_PAGESIZE);
	uint64_t budget = m->budget ? m->budget : PROCMAP_BUDGET, lo = UINT64_MAX, hi = 0;
	bool any_pfn = false, any_present = false, scanned = false;
	char path[256], line[512];
	FILE *maps;
	int fd;

	snprintf(path, sizeof(path), "%s/%d/maps", proc, (int)pid);
	maps = fopen(path, "r");
	if (!maps)
		return -ESRCH;
	snprintf(path, sizeof(path), "%s/%d/pagemap", proc, (int)pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		fclose(maps);
		return -ESRCH;
	}
	/* the span of its mappings ([vsyscall] lies outside user space) */
	while (fgets(line, sizeof(line), maps)) {
		unsigned long long a, b;

		if (sscanf(line, "%llx-%llx", &a, &b) != 2 || b <= a ||
		    strstr(line, "[vsyscall]"))
			continue;
		if (a < lo)
			lo = a;
		if (b > hi)
			hi = b;
	}
	/*
	 * The present pages' ranges from PAGEMAP_SCAN (Linux 6.7): pagemap
	 * read for them only, whatever the mappings' size (a reservation of
	 * terabytes costs nothing)
	 */
	if (!m->no_scan_ioctl && lo < hi) {
		struct pm_region vec[256];
		struct pm_scan_arg_ a = {
			.size = sizeof(a), .start = lo, .end = hi,
			.vec = (uintptr_t)vec, .vec_len = 256,
			.category_mask = PM_IS_PRESENT, .return_mask = PM_IS_PRESENT,
		};

		for (;;) {
			int r = ioctl(fd, PM_SCAN, &a);

			if (r < 0)
				break;
			if (!scanned)
				m->ioctl_scans++;
			scanned = true;
			for (int i = 0; i < r; i++)
				if (read_range(m, fd, pid, vec[i].start, vec[i].end, psz,
					       &budget, &any_present, &any_pfn))
					goto out;
			if (a.walk_end >= a.end || a.walk_end <= a.start)
				break;
			a.start = a.walk_end;
		}
	}
	/* An older kernel: every mapping, within the budget */
	if (!scanned) {
		rewind(maps);
		while (fgets(line, sizeof(line), maps)) {
			unsigned long long a, b;

			if (sscanf(line, "%llx-%llx", &a, &b) != 2 || b <= a ||
			    strstr(line, "[vsyscall]"))
				continue;
			if (read_range(m, fd, pid, a, b, psz, &budget, &any_present,
				       &any_pfn))
				break;
		}
	}
out:
	close(fd);
	fclose(maps);
	return any_present && !any_pfn ? -EPERM : 0;
}

uint32_t procmap_lookup(const struct procmap *m, uint64_t pfn, pid_t *pid)
{
	const struct procmap_slot *s = find(m, pfn);

	*pid = s->pfn ? s->pid : 0;
	return s->pfn ? s->mappers : 0;
}

void procmap_unit(const struct procmap *m, uint64_t pfn, uint64_t n,
		  struct procmap_unit *u)
{
	memset(u, 0, sizeof(*u));
	for (uint64_t f = pfn; f < pfn + n; f++) {
		pid_t pid;
		uint32_t k = procmap_lookup(m, f, &pid);
		int i;

		if (!k) {
			u->none++;
			continue;
		}
		if (k > 1)
			u->shared++;
		for (i = 0; i < PROCMAP_UNIT_PIDS; i++) {
			if (u->pid[i] == pid || !u->pid[i]) {
				u->pid[i] = pid;
				u->pages[i]++;
				break;
			}
		}
		if (i == PROCMAP_UNIT_PIDS)
			u->other++;
	}
	/* most pages first (insertion sort of four) */
	for (int i = 1; i < PROCMAP_UNIT_PIDS; i++)
		for (int j = i; j > 0 && u->pages[j] > u->pages[j - 1]; j--) {
			pid_t tp = u->pid[j];
			uint32_t tn = u->pages[j];

			u->pid[j] = u->pid[j - 1];
			u->pages[j] = u->pages[j - 1];
			u->pid[j - 1] = tp;
			u->pages[j - 1] = tn;
		}
}

const char *procmap_name(const char *proc, pid_t pid, char *buf, size_t len)
{
	char path[256], comm[64] = "";
	FILE *f;

	snprintf(path, sizeof(path), "%s/%d/comm", proc, (int)pid);
	f = fopen(path, "r");
	if (f) {
		if (fgets(comm, sizeof(comm), f))
			comm[strcspn(comm, "\n")] = '\0';
		fclose(f);
	}
	snprintf(buf, len, "%s[%d]", comm, (int)pid);
	return buf;
}

int procmap_parse_pids(const char *s, pid_t *pids, int max)
{
	int n = 0;

	while (*s) {
		char *end;
		long v;

		errno = 0;
		v = strtol(s, &end, 10);
		if (errno || end == s || v <= 0 || v > 0x3fffffff || n >= max ||
		    (*end && *end != ','))
			return -EINVAL;
		pids[n++] = (pid_t)v;
		s = *end ? end + 1 : end;
		if (*end && !*s)
			return -EINVAL;	/* a trailing comma */
	}
	return n ? n : -EINVAL;
}

uint64_t procmap_self_pfn(const void *p)
{
	long psz = sysconf(_SC_PAGESIZE);
	uint64_t ent = 0;
	int fd = open("/proc/self/pagemap", O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return 0;
	if (pread(fd, &ent, sizeof(ent), (off_t)((uintptr_t)p / psz) * sizeof(ent)) !=
	    sizeof(ent))
		ent = 0;
	close(fd);
	return (ent & PM_PRESENT) ? ent & PM_PFN_MASK : 0;
}

uint64_t procmap_kpageflags(uint64_t pfn)
{
	uint64_t f = 0;
	int fd = open("/proc/kpageflags", O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return 0;
	if (pread(fd, &f, sizeof(f), (off_t)(pfn * sizeof(f))) != sizeof(f))
		f = 0;
	close(fd);
	return f;
}
