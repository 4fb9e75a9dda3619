/* SPDX-License-Identifier: GPL-2.0 */
/* Shared by chmu-exporter.bpf.c and chmu-exporter.c. */
#ifndef CHMU_EXPORTER_H
#define CHMU_EXPORTER_H

#define EXP_MAX_INST		64
#define EXP_MAX_NODES		(EXP_MAX_INST * 16)	/* (instance, node) pairs */
#define EXP_HIST_BUCKETS	33	/* log2 buckets 0..31, 32: >= 2^32 */
#define EXP_DEFAULT_REGIONS	4096

struct exp_inst {
	__u64 batches;
	__u64 entries;
	__u64 count_sum;	/* sum of the entries' counts */
	__u64 overflows;	/* batches that saw the overflow status */
	__u64 lost;		/* the driver's count since enable, as last reported */
	__u64 region_dropped;	/* entries whose region had no series (cap) */
	__u64 region_dropped_counts;
	__u64 batch_ns;		/* the last batch's time: its entries' time */
	__u64 hist[EXP_HIST_BUCKETS];	/* entries by log2 of their count */
};

struct exp_region_key {
	__u32 inst;		/* CHMU_INST_ID */
	__u32 pad;
	__u64 slot;		/* DPA >> region shift */
};

struct exp_region {
	__u64 count_sum;
	__u64 entries;
	__s32 nid;		/* of the last entry in the region */
	__u32 pad;
};

struct exp_node_key {
	__u32 inst;
	__s32 nid;
};

/*
 * Hot units per node in fixed windows of the instance's epoch length:
 * window number win holds cur entries, the window before it (pwin) prev.
 */
struct exp_node {
	__u64 win, cur;
	__u64 pwin, prev;
};

#endif
