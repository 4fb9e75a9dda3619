/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Which processes map which page frames (chmutop -p, --by process): each
 * process's present pages from /proc/PID/maps and /proc/PID/pagemap
 * (page frame numbers need CAP_SYS_ADMIN), kept for the frames in the
 * ranges asked for (the CXL regions), in a table rebuilt every frame.
 */
#ifndef CHMU_PROCMAP_H
#define CHMU_PROCMAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct procmap_range {
	uint64_t lo, hi;	/* page frames [lo, hi) */
};

struct procmap {
	struct procmap_slot {
		uint64_t pfn;	/* + 1: 0 is an empty slot */
		pid_t pid;	/* the first process found mapping it */
		pid_t last;	/* the last one */
		uint32_t mappers;	/* processes mapping it */
	} *v;
	size_t cap, used, max;	/* slots, frames, most frames kept */
	uint64_t skipped;	/* frames not kept: the table was full */
	uint64_t scanned;	/* pagemap entries read */
	uint64_t truncated;	/* processes whose scan hit the budget */
	uint64_t ioctl_scans;	/* processes scanned through PAGEMAP_SCAN */
	uint64_t budget;	/* pagemap entries per process, 0: PROCMAP_BUDGET */
	bool no_scan_ioctl;	/* read every mapping (tests: as before 6.7) */
	const struct procmap_range *ranges;
	size_t nranges;
};

/*
 * An empty table of at most @max frames, keeping frames in @ranges
 * (sorted by lo, not overlapping)
 */
int procmap_init(struct procmap *m, size_t max, const struct procmap_range *ranges,
		 size_t nranges);
void procmap_reset(struct procmap *m);
void procmap_free(struct procmap *m);

/* pagemap entries read per process at most (32 MiB of them: 16 GiB mapped) */
#define PROCMAP_BUDGET (1ULL << 22)

/*
 * Add the present pages of process @pid (its files under @proc, "/proc")
 * whose frames are in the ranges; each process once per reset. Where
 * the kernel has PAGEMAP_SCAN (6.7), pagemap is read for its present
 * pages only; else for every mapping. At most budget entries are read (a
 * process past it counts in truncated). 0; -ESRCH if the process is gone;
 * -EPERM if pagemap gives no frame numbers (CAP_SYS_ADMIN).
 */
int procmap_scan(struct procmap *m, const char *proc, pid_t pid);

/* How many processes map frame @pfn, the first in *@pid (0: none) */
uint32_t procmap_lookup(const struct procmap *m, uint64_t pfn, pid_t *pid);

/* The processes mapping a unit's pages (procmap_unit()) */
#define PROCMAP_UNIT_PIDS 4
struct procmap_unit {
	pid_t pid[PROCMAP_UNIT_PIDS];	/* first mappers, most pages first */
	uint32_t pages[PROCMAP_UNIT_PIDS];
	uint32_t other;		/* pages first mapped by further processes */
	uint32_t none;		/* pages no scanned process maps */
	uint32_t shared;	/* pages more than one process maps */
};

/*
 * Frames [@pfn, @pfn + @n) of a unit: each page counted for the first
 * process found mapping it.
 */
void procmap_unit(const struct procmap *m, uint64_t pfn, uint64_t n,
		  struct procmap_unit *u);

/* "comm[pid]" of process @pid into @buf ("[pid]" if its comm is gone) */
const char *procmap_name(const char *proc, pid_t pid, char *buf, size_t len);

/* Parse "PID,PID,..." into @pids (at most @max); count, or -EINVAL */
int procmap_parse_pids(const char *s, pid_t *pids, int max);

/*
 * The page frame number behind address @p of this process
 * (/proc/self/pagemap); 0 if the page is not present or the frame number
 * is hidden (it takes CAP_SYS_ADMIN).
 */
uint64_t procmap_self_pfn(const void *p);
/* The kernel's flags of frame @pfn (/proc/kpageflags, CAP_SYS_ADMIN); 0 if unreadable */
uint64_t procmap_kpageflags(uint64_t pfn);
#define PROCMAP_KPF_COMPOUND_HEAD	(1ULL << 15)
#define PROCMAP_KPF_THP			(1ULL << 22)

#endif
