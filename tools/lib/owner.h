/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Who owns hot CXL memory, in user space: the cgroup2 paths of the ids
 * the BPF programs report (bpf/chmuowner.bpf.h), a unit's owners as
 * shares of its pages, their text and NDJSON forms, and the sums per
 * owner that the tools' "--by cgroup" views print.
 */
#ifndef CHMU_OWNER_H
#define CHMU_OWNER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "chmuabi.h"

/*
 * What owns a share of a unit: a cgroup, or why no cgroup does. In this
 * order where shares are equal, as the BPF programs pick a main owner.
 */
enum owner_kind {
	OWNER_CGROUP,
	OWNER_FREE,	/* "free" */
	OWNER_KERNEL,	/* "kernel" */
	OWNER_OTHER,	/* cgroups past the CHMU_OWNERS told apart */
	OWNER_NONE,	/* "-": not online memory (or no struct page) */
};

struct owner_share {
	int kind;
	uint64_t cgid;		/* OWNER_CGROUP */
	uint32_t pages;
	int idx;		/* cgroups: in the order the pages were walked */
};

/* Pages of the unit looked at (all but the unwalked) */
uint32_t owner_pages(const struct chmu_owners *o);

/*
 * The unit's owners, most pages first (ties: cgroups in the order found,
 * then free, kernel, other, none: the main owner is the BPF programs'),
 * into @out (at most @max); returns how many. A unit with
 * no page looked at has one owner, none, of 0 pages.
 */
size_t owner_shares(const struct chmu_owners *o, struct owner_share *out,
		    size_t max);

/* cgroup2 ids to paths ("/", "/system.slice/db.service") */
struct owner_names;

/*
 * The paths under the cgroup2 mount @mount (NULL: the first cgroup2 mount
 * of /proc/self/mountinfo). NULL and errno set if there is none.
 */
struct owner_names *owner_names_new(const char *mount);
void owner_names_free(struct owner_names *n);
const char *owner_names_mount(const struct owner_names *n);

/*
 * The path of cgroup @id, the cgroup tree walked again if it is not known
 * (once per owner_names_expire()); "cgroup:ID" for an id not found.
 */
const char *owner_name(struct owner_names *n, uint64_t id);
/* Let the next unknown id walk the tree again (once per frame, say) */
void owner_names_expire(struct owner_names *n);
/* Add a path for @id by hand (tests; a tree that is not mounted) */
int owner_names_add(struct owner_names *n, uint64_t id, const char *path);

/*
 * The cgroup2 id of the cgroup charged for the calling process's memory:
 * its own, or its nearest ancestor with a memory controller of its own;
 * 0 if unknown, or if memory cgroups are not on the cgroup2 hierarchy.
 */
uint64_t owner_self_cgroup(struct owner_names *n);

/*
 * The CXL regions under @dir (CHMU_SYSFS_DEVICES: its region* entries)
 * and their interleave, read again on each call; -errno if @dir cannot be
 * read. Then owner_contig(): the bytes from @hpa on that are contiguous in
 * HPA within a unit (the interleave granularity of the region holding it,
 * if it interleaves; UINT64_MAX otherwise or outside every region).
 */
int owner_regions_load(struct owner_names *n, const char *dir);
uint64_t owner_contig(const struct owner_names *n, uint64_t hpa);
/* The regions that interleave, into @out (at most @max); how many */
size_t owner_interleaved(const struct owner_names *n,
			 struct chmu_owner_region *out, size_t max);

/* The name of a CHMU_KEY: a cgroup's path, "free", "kernel", "-", "other", "unattributed" */
const char *owner_key_name(struct owner_names *n, uint64_t key);

/* The text of one share: its cgroup's path, "other", "free", "kernel", "-" */
const char *owner_share_name(struct owner_names *n,
			     const struct owner_share *s);

/*
 * A column's text for a unit: its owner's name when one owns all its
 * pages looked at, else the main owner and its share ("/a 75%"); with
 * "+" when pages were not looked at.
 */
const char *owner_fmt(struct owner_names *n, const struct chmu_owners *o,
		      char *buf, size_t len);

/*
 * NDJSON fields of a unit: "cgroup" (the main owner's name) and "owners",
 * an array of {"cgroup", "pages"}, most pages first, and "owner_pages"
 * (pages looked at) and "owner_unwalked" when some were not.
 */
void owner_json(FILE *f, struct owner_names *n, const struct chmu_owners *o);

/* Sums per owner (the "--by cgroup" views) */
struct owner_group {
	char name[256];
	double sum;		/* counts, each unit's split by page shares */
	double rate;
	double units;		/* units, split by page shares */
	double active;		/* ... of them with a rate above 0 */
	uint64_t touched;	/* units with at least a page of the owner */
	uint64_t pages;
};

struct owner_groups {
	struct owner_group *v;
	size_t n, cap;
};

/*
 * Add a unit whose counts sum to @sum (at @rate per second) to the groups
 * of its owners, in proportion to their pages. -ENOMEM if a group cannot
 * be added.
 */
int owner_groups_add(struct owner_groups *g, struct owner_names *n,
		     const struct chmu_owners *o, double sum, double rate);
/* The same for a share @w (0..1) of a unit, @pages of it, owned by @name */
int owner_groups_add_share(struct owner_groups *g, const char *name, double w,
			   uint32_t pages, double sum, double rate);
/* By rate (@by_sum: by sum), largest first; ties by name */
void owner_groups_sort(struct owner_groups *g, bool by_sum);
void owner_groups_reset(struct owner_groups *g);
void owner_groups_free(struct owner_groups *g);

#endif
