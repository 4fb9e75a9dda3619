/* SPDX-License-Identifier: GPL-2.0 */
/* Helpers shared by the CHMU BPF programs. */
#include <bpf/bpf_core_read.h>
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
 * Is batch @b of an instance the tool watches? Its CHMU_ID in *@id. Read
 * through CO-RE, as every batch field.
 */
static __always_inline bool chmu_batch_wanted(struct chmu_batch *b, __u32 *id)
{
	int memdev, chmu, inst;

	if (!b)
		return false;
	memdev = BPF_CORE_READ(b, memdev);
	chmu = BPF_CORE_READ(b, chmu);
	inst = BPF_CORE_READ(b, inst);
	*id = CHMU_ID(memdev, chmu, inst);
	return chmu_wanted(memdev, chmu, inst);
}

/*
 * The pair of programs on chmu:chmu_hotlist_batch every tool carries:
 * tp_btf where the driver's module BTF allows it, raw_tp otherwise (user
 * space keeps one). Both call HANDLER(struct chmu_batch *), which reads the
 * batch, and walks its decoded entries, through CO-RE: every field is
 * found by name in the driver's BTF, so a driver that orders them
 * differently is read right, and one that lacks a field fails the load
 * (user space checks the types first and says which: chmubtf.h).
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

/* What a tool takes from one decoded entry (struct chmu_entry). */
struct chmu_ent {
	__u64 unit;
	__u64 dpa;
	__u64 hpa;
	__u64 count;
	__s32 nid;
};

/* CHMU_ENTRY_MAX_SIZE: the largest struct chmu_entry (checked: chmubtf.c) */
#include "lib/chmuabi.h"

#define CHMU_ENT_FIELD(raw, type, field)					\
	(*(type *)((void *)(raw) + bpf_core_field_offset(struct chmu_entry, field)))

/* Entries read from the driver's array at once, into this CPU's buffer */
#define CHMU_CHUNK 16

struct chmu_chunk {
	__u64 raw[CHMU_CHUNK * CHMU_ENTRY_MAX_SIZE / 8];
	__u32 bad;	/* the read failed: its entries are unreadable */
};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct chmu_chunk);
} chmu_chunks SEC(".maps");

/*
 * Entry @i of the @nr a batch's array at @base holds, for a walk that asks
 * for 0, 1, ..., nr - 1 in order (bpf_loop): every CHMU_CHUNK entries one
 * read into this CPU's buffer (a program does not run twice at once on a
 * CPU), each entry's size and each field's offset as the driver's BTF has
 * them (CO-RE, by name); the field sizes are the ones user space checked
 * before loading (chmubtf.c). -1: unreadable.
 */
static __always_inline int chmu_entry_get(const struct chmu_entry *base,
					  __u32 i, __u32 nr, struct chmu_ent *e)
{
	__u64 sz = bpf_core_type_size(struct chmu_entry);
	__u64 idx = i & (CHMU_CHUNK - 1), n;
	__u32 k = 0;
	struct chmu_chunk *c = bpf_map_lookup_elem(&chmu_chunks, &k);
	void *p;

	if (!c)
		return -1;
	if (!idx) {
		/* 64-bit: the verifier sees the bound clang computes */
		n = i < nr ? (__u64)nr - i : 0;
		if (n > CHMU_CHUNK)
			n = CHMU_CHUNK;
		c->bad = !!bpf_probe_read_kernel(c->raw, n * sz,
						  (const void *)base + (__u64)i * sz);
	}
	if (c->bad)
		return -1;
	p = (void *)c->raw + idx * sz;
	e->unit = CHMU_ENT_FIELD(p, __u64, unit);
	e->dpa = CHMU_ENT_FIELD(p, __u64, dpa);
	e->hpa = CHMU_ENT_FIELD(p, __u64, hpa);
	e->count = CHMU_ENT_FIELD(p, __u64, count);
	e->nid = CHMU_ENT_FIELD(p, __s32, nid);
	return 0;
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
