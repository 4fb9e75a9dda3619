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
