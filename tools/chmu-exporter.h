/* SPDX-License-Identifier: GPL-2.0 */
/* Shared by chmu-exporter.bpf.c and chmu-exporter.c. */
#ifndef CHMU_EXPORTER_H
#define CHMU_EXPORTER_H

#define EXP_MAX_INST		64
#define EXP_MAX_NODES		(EXP_MAX_INST * 16)	/* (instance, node) pairs */
#define EXP_HIST_BUCKETS	33	/* log2 buckets 0..31, 32: >= 2^32 */
#define EXP_DEFAULT_REGIONS	4096
#define EXP_DEFAULT_CGROUPS	64	/* --cgroups: owners with series */

struct exp_inst {
	__u64 batches;
	__u64 entries;
	__u64 count_sum;	/* sum of the entries' counts */
	__u64 overflows;	/* batches that saw the overflow status */
	__u64 region_dropped;	/* entries whose region had no series (cap) */
	__u64 region_dropped_counts;
	__u64 node_dropped;	/* entries the node map had no room for */
	__u64 owner_dropped;	/* --cgroups: entries of owners past the cap */
	__u64 owner_dropped_counts;
	__u64 batch_ns;		/* the last batch's time: its entries' time */
	/*
	 * Postings: batches drained within half a window of a posting's
	 * first batch belong to it (one epoch's hot units, drained in one or
	 * more batches); group counts postings, group_ns is the latest's
	 * first batch.
	 */
	__u64 group, group_ns;
	__u64 hist[EXP_HIST_BUCKETS];	/* entries by log2 of their count */
};

/* A region of a node: a region whose units move node gets a new series. */
struct exp_region_key {
	__u32 inst;		/* CHMU_INST_ID */
	__s32 nid;
	__u64 slot;		/* DPA >> region shift */
};

struct exp_region {
	__u64 count_sum;
	__u64 entries;
};

struct exp_node_key {
	__u32 inst;
	__s32 nid;
};

/* Entries of one node in posting number group of its instance. */
struct exp_node {
	__u64 group;
	__u64 cur;
};

/* --cgroups: an instance's entries by their unit's main owner (CHMU_KEY) */
struct exp_owner_key {
	__u32 inst;
	__u32 pad;
	__u64 owner;
};

struct exp_owner {
	__u64 entries;
	__u64 count_sum;
};

#endif
