/* SPDX-License-Identifier: GPL-2.0 */
/* Shared by chmutop.bpf.c and chmutop.c. */
#ifndef CHMUTOP_H
#define CHMUTOP_H

#define CHMUTOP_MAX_UNITS	16384
#define CHMUTOP_MAX_INST	64
/* default budget of the direct-indexed unit map, in slots (--direct-slots) */
#define CHMUTOP_DIRECT_SLOTS	262144

struct unit_key {
	__u32 inst;		/* CHMU_INST_ID */
	__u32 pad;
	__u64 slot;		/* DPA >> gran_shift */
};

struct unit_stat {
	__u64 hpa;		/* of the hottest unit of the slot's last batch */
	__u64 last_count;	/* the largest count of the slot's last batch */
	__u64 lseq;		/* that batch (the instance's drain number) */
	__u64 sum;		/* since the tool started */
	__u64 seen;		/* hotlist entries */
	__u64 first_ns, last_ns;	/* bpf_ktime_get_ns() */
	__u64 isum[2];		/* in interval igen[i], for gen & 1 == i */
	__u32 igen[2];
	__s32 nid;
};

struct inst_stat {
	__u64 batches;
	__u64 entries;
	__u64 overflows;	/* batches that saw the overflow status */
	__u64 lost;		/* the driver's count, as last reported */
	__u64 fill_sum;		/* sum of batch sizes (entries per drain) */
	__u64 fill_max;
	__u64 size;		/* hotlist entries */
	__u64 last_ns;		/* bpf_ktime_get_ns() of the last batch */
	__u64 first_ns;		/* ... of the first batch of interval @fgen */
	__u32 fgen;
};

#endif
