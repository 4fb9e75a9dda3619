/* SPDX-License-Identifier: GPL-2.0 */
/* Shared by chmuheat.bpf.c and chmuheat.c. */
#ifndef CHMUHEAT_H
#define CHMUHEAT_H

#define CHMUHEAT_SLOTS		40	/* log2 buckets of hotlist counts */
#define CHMUHEAT_MAX_INST	64
#define CHMUHEAT_MAX_REGIONS	16384
#define CHMUHEAT_MAX_CELLS	65536

/*
 * Interval-cleared maps are keyed by the interval's number (gen, which
 * only increases: bpf/chmugen.bpf.h); it is the second 32-bit word of
 * each such key (chmuheat.c relies on that).
 */
struct hist_key {
	__u32 inst;		/* CHMU_INST_ID */
	__u32 gen;
};

struct hist {
	__u64 slots[CHMUHEAT_SLOTS];
};

/*
 * --by cgroup: the histogram of an instance's entries per owner of their
 * units (the main owner, as a CHMU_KEY: lib/chmuabi.h), per interval.
 */
#define CHMUHEAT_MAX_OWNERS	4096

struct owner_key {
	__u32 inst;
	__u32 gen;
	__u64 owner;		/* CHMU_KEY */
};

struct owner_hist {
	__u64 entries;
	__u64 sum;		/* of the entries' counts */
	__u64 mixed;		/* entries whose unit had other owners too */
	__u64 slots[CHMUHEAT_SLOTS];
};

struct region_key {
	__u32 inst;
	__u32 pad;
	__u64 region;		/* DPA >> region_shift */
};

struct region_val {
	__u64 entries;
	__u64 sum;
	__u64 max;
	__u64 hpa_lo;		/* lowest and highest HPA seen, ~0: none */
	__u64 hpa_hi;
	__u64 slots[CHMUHEAT_SLOTS];
};

struct cell_key {
	__u32 inst;
	__u32 gen;
	__u64 row;		/* DPA >> row_shift */
};

#endif
