/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the BPF programs (bpf/chmu.bpf.h, bpf/chmuowner.bpf.h) and user
 * space (chmubtf.c, owner.c, the tools) must agree on: both include it.
 */
#ifndef CHMU_ABI_H
#define CHMU_ABI_H

#ifndef __VMLINUX_H__
#include <linux/types.h>
#endif

/* The largest struct chmu_entry the programs take; a multiple of 8 */
#define CHMU_ENTRY_MAX_SIZE 64

/*
 * Who owns a hot unit's memory, page by page (bpf/chmuowner.bpf.h): the
 * memory cgroups charged for its pages, the first CHMU_OWNERS of them told
 * apart, and the pages no cgroup owns. Every page of the unit looked at is
 * in exactly one of the counters; pages past CHMU_OWNER_MAX_PAGES are not
 * looked at (unwalked), so that a drain's cost per entry stays bounded.
 */
#define CHMU_OWNERS		4
#define CHMU_OWNER_MAX_PAGES	512	/* 2 MiB of 4 KiB pages */
#define CHMU_PAGE_SHIFT		12	/* x86-64, the architecture built for */

struct chmu_owners {
	__u64 cgid[CHMU_OWNERS];	/* cgroup2 ids (the directory's inode), 0: unused */
	__u32 pages[CHMU_OWNERS];
	__u32 free;		/* no reference: in the page allocator */
	__u32 kernel;		/* in use, charged to no cgroup, or kernel memory */
	__u32 other;		/* charged to cgroups past the first CHMU_OWNERS */
	__u32 none;		/* no readable struct page (not online memory) */
	__u32 unwalked;		/* past CHMU_OWNER_MAX_PAGES */
	__u32 reads;		/* struct page lookups the walk made (a folio: one) */
};

/*
 * The CXL regions that interleave, for the drain's attribution: a unit's
 * HPA range from its first byte is contiguous only up to the end of its
 * granule there (tools fill chmu_owner_regions and chmu_owner_nregions).
 */
#define CHMU_OWNER_REGIONS	16

struct chmu_owner_region {
	__u64 start, size;	/* HPA */
	__u64 gran;		/* interleave granularity */
};

/*
 * A unit's main owner (most pages; ties: the first found) as one key, for
 * the tools that aggregate by owner at the drain: a cgroup2 id, or one of
 * these (ids are inode numbers, never this large).
 */
#define CHMU_KEY_FREE		(~0ULL - 0)
#define CHMU_KEY_KERNEL		(~0ULL - 1)
#define CHMU_KEY_NONE		(~0ULL - 2)
#define CHMU_KEY_OTHER		(~0ULL - 3)
#define CHMU_KEY_UNATTRIBUTED	(~0ULL - 4)	/* the drain's budget was spent */

/*
 * Attribution at the drain is bounded per drain: at most this many struct
 * page reads (a large folio is one) by default, the tools' --max-attr-pages;
 * a unit met once they are spent is not attributed (CHMU_KEY_UNATTRIBUTED,
 * counted in chmu_owner_unattributed), one met with fewer left than it
 * has pages is walked that far (the rest unwalked).
 */
#define CHMU_OWNER_DRAIN_PAGES	16384
#define CHMU_OWNER_DRAIN_PAGES_MAX	(1U << 24)

/*
 * Attribution on demand: user space fills the first n of chmu_owner_q,
 * runs the chmu_resolve program (BPF_PROG_RUN) with n as its context and
 * reads the owners back (chmu_owner_run(), chmubpf.h).
 */
#define CHMU_RESOLVE		1024

struct chmu_owner_req {
	__u64 hpa;		/* of the unit's first byte */
	__u64 bytes;		/* the unit's size */
	__u64 contig;		/* of them contiguous in HPA from hpa */
	struct chmu_owners o;
};

struct chmu_resolve_args {
	__u32 n;
};

/*
 * An instance's configuration as the chmu:chmu_config tracepoint last
 * reported it (bpf/chmucfg.bpf.h), keyed by CHMU_ID: tools learn a
 * reconfiguration from it instead of reading sysfs every interval. @events
 * counts the events seen; user space applies a record whose count moved.
 */
#define CHMU_CFG_MAX_INST	256

struct chmu_cfg {
	__u64 events;
	__u64 epoch_us;
	__u32 enabled, mode, threshold, unit_shift;
	__u32 ds_shift, access, range_first, range_count;
};

#endif
