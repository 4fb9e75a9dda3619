/* SPDX-License-Identifier: GPL-2.0 */
/* Helpers shared by the CHMU BPF programs. */
#ifndef CHMU_BPF_H
#define CHMU_BPF_H

/* Bucket of @v: 0 holds 0 and 1, k holds 2^k .. 2^(k+1)-1. */
static __always_inline __u32 chmu_log2(__u64 v)
{
	__u32 r = 0, s;

	s = (v > 0xffffffffULL) << 5; v >>= s; r |= s;
	s = (v > 0xffff) << 4; v >>= s; r |= s;
	s = (v > 0xff) << 3; v >>= s; r |= s;
	s = (v > 0xf) << 2; v >>= s; r |= s;
	s = (v > 0x3) << 1; v >>= s; r |= s;
	r |= (v >> 1);
	return r;
}

#define CHMU_ID(m, c, i) (((__u32)(m) << 16) | ((__u32)(c) << 8) | (__u32)(i))

/* The instances a tool watches, set by user space before load (-1: any). */
const volatile int targ_memdev = -1;
const volatile int targ_chmu = -1;
const volatile int targ_inst = -1;

static __always_inline bool chmu_wanted(int memdev, int chmu, int inst)
{
	return (targ_memdev < 0 || memdev == targ_memdev) &&
	       (targ_chmu < 0 || chmu == targ_chmu) &&
	       (targ_inst < 0 || inst == targ_inst);
}

/*
 * The two programs on chmu:chmu_hotlist_entry every tool carries: tp_btf
 * where the driver's module BTF allows it, raw_tp otherwise (user space
 * keeps one). Both call HANDLER(memdev, chmu, inst, seq, dpa, hpa, nid,
 * count): seq is the batch (drain) of the instance the entry came in.
 */
#define CHMU_ENTRY_PROGS(HANDLER)						\
SEC("tp_btf/chmu_hotlist_entry")						\
int BPF_PROG(entry_btf, int memdev, int chmu, int inst, u64 seq, u64 unit,	\
	     u64 dpa, u64 hpa, int nid, u64 count, u32 unit_shift)		\
{										\
	return HANDLER(memdev, chmu, inst, seq, dpa, hpa, nid, count);		\
}										\
SEC("raw_tp/chmu_hotlist_entry")						\
int BPF_PROG(entry_raw, int memdev, int chmu, int inst, u64 seq, u64 unit,	\
	     u64 dpa, u64 hpa, int nid, u64 count, u32 unit_shift)		\
{										\
	return HANDLER(memdev, chmu, inst, seq, dpa, hpa, nid, count);		\
}

/*
 * The pair on chmu:chmu_hotlist_batch, as CHMU_ENTRY_PROGS: both call
 * HANDLER(struct chmu_batch *), which reads the batch through CO-RE.
 */
#define CHMU_BATCH_PROGS(HANDLER)						\
SEC("tp_btf/chmu_hotlist_batch")						\
int BPF_PROG(batch_btf, struct chmu_batch *b)					\
{										\
	return HANDLER(b);							\
}										\
SEC("raw_tp/chmu_hotlist_batch")						\
int BPF_PROG(batch_raw, struct chmu_batch *b)					\
{										\
	return HANDLER(b);							\
}

/* Lookup, or insert zeroed and look up again; NULL when the map is full. */
static __always_inline void *chmu_lookup_init(void *map, const void *key,
					      const void *init)
{
	void *v = bpf_map_lookup_elem(map, key);

	if (v)
		return v;
	bpf_map_update_elem(map, key, init, BPF_NOEXIST);
	return bpf_map_lookup_elem(map, key);
}

#endif
