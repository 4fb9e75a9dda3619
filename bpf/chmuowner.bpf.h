/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Who owns a hot unit's memory: for each page frame of the unit, the
 * memory cgroup charged for it, or why none is. Read from the frame's
 * struct page through CO-RE (fields found by name in the kernel's BTF), at
 * the time of the call: a page freed since shows as free, not as its last
 * owner. The reads are probes, racing with the page's owner as
 * /proc/kpagecgroup's do; a frame whose struct page cannot be read counts
 * as none. x86-64 only (the programs are built for it).
 *
 * Per page: a tail page of a folio is looked up through its head, and the
 * rest of the folio is counted with it (a 2 MiB THP is one lookup). A
 * head with no reference is free (the buddy allocator and the per-CPU
 * lists); one in use whose memcg_data is empty, or marks kernel memory
 * (slab object extensions, kmem), is kernel; otherwise the memcg it points
 * to, or its nearest online ancestor when the cgroup was removed (as
 * /proc/kpagecgroup does), gives the cgroup2 id.
 */
#ifndef CHMU_OWNER_BPF_H
#define CHMU_OWNER_BPF_H

#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>
#include "lib/chmuabi.h"

/* The virtual memory map's base: a variable with a dynamic memory layout */
extern const void vmemmap_base __ksym __weak;

/* ... and this, x86-64's with 4-level paging, without one */
#define CHMU_VMEMMAP_L4 0xffffea0000000000ULL

enum chmu_own { CHMU_OWN_NONE, CHMU_OWN_FREE, CHMU_OWN_KERNEL, CHMU_OWN_CGROUP };

/*
 * What differs between kernels, read as libbpf-tools' core_fixes.bpf.h
 * does: local flavours of the kernel's types (the ___ suffix is dropped
 * when libbpf matches them against the kernel's BTF), each member or
 * enumerator taken only where bpf_core_field_exists() /
 * bpf_core_enum_value_exists() says the running kernel has it; the
 * branches for the others are never taken and the verifier drops them.
 *
 * A large folio's order: since 6.6 the low byte of the first tail page's
 * flags (folio->_flags_1); 6.1 to 6.5 a byte of its own
 * (folio->_folio_order); before, the first tail page's compound_order.
 */
struct folio___flags1 {
	unsigned long _flags_1;
} __attribute__((preserve_access_index));

struct folio___order {
	unsigned char _folio_order;
} __attribute__((preserve_access_index));

struct page___order {
	unsigned char compound_order;
} __attribute__((preserve_access_index));

/*
 * memcg_data's low bits: MEMCG_DATA_OBJEXTS since 6.10 (MEMCG_DATA_OBJCGS
 * before, the same bit), MEMCG_DATA_KMEM, and __NR_MEMCG_DATA_FLAGS, the
 * first value past the flags. The values here are never used: the
 * kernel's are.
 */
enum page_memcg_data_flags___x {
	MEMCG_DATA_OBJEXTS___x = 1,
	MEMCG_DATA_OBJCGS___x = 1,
	MEMCG_DATA_KMEM___x = 2,
	__NR_MEMCG_DATA_FLAGS___x = 4,
};

/* The flags of memcg_data that mark memory no cgroup owns as user memory */
static __always_inline __u64 chmu_memcg_kernel_flags(void)
{
	__u64 m = 0;

	if (bpf_core_enum_value_exists(enum page_memcg_data_flags___x, MEMCG_DATA_OBJEXTS___x))
		m |= bpf_core_enum_value(enum page_memcg_data_flags___x, MEMCG_DATA_OBJEXTS___x);
	if (bpf_core_enum_value_exists(enum page_memcg_data_flags___x, MEMCG_DATA_OBJCGS___x))
		m |= bpf_core_enum_value(enum page_memcg_data_flags___x, MEMCG_DATA_OBJCGS___x);
	if (bpf_core_enum_value_exists(enum page_memcg_data_flags___x, MEMCG_DATA_KMEM___x))
		m |= bpf_core_enum_value(enum page_memcg_data_flags___x, MEMCG_DATA_KMEM___x);
	return m;
}

/* The bits of memcg_data below the memcg's address; 0: unknown layout */
static __always_inline __u64 chmu_memcg_flag_bits(void)
{
	if (bpf_core_enum_value_exists(enum page_memcg_data_flags___x, __NR_MEMCG_DATA_FLAGS___x))
		return bpf_core_enum_value(enum page_memcg_data_flags___x, __NR_MEMCG_DATA_FLAGS___x) - 1;
	return 0;
}

/*
 * The order of the large folio whose head page and first tail page are at
 * @buf (2 * @psz bytes copied); 0 if this kernel keeps it where none of
 * the above has it.
 */
static __always_inline __u64 chmu_folio_order(const __u64 *buf, __u64 psz)
{
	__u64 off;

	if (bpf_core_field_exists(struct folio___flags1, _flags_1)) {
		off = bpf_core_field_offset(struct folio___flags1, _flags_1);
		if (off + sizeof(unsigned long) <= 2 * psz && off + sizeof(unsigned long) <= 128)
			return *(unsigned long *)((void *)buf + off) & 0xff;
	} else if (bpf_core_field_exists(struct folio___order, _folio_order)) {
		off = bpf_core_field_offset(struct folio___order, _folio_order);
		if (off + 1 <= 2 * psz && off + 1 <= 128)
			return *(unsigned char *)((void *)buf + off);
	} else if (bpf_core_field_exists(struct page___order, compound_order)) {
		off = psz + bpf_core_field_offset(struct page___order, compound_order);
		if (off + 1 <= 2 * psz && off + 1 <= 128)
			return *(unsigned char *)((void *)buf + off);
	}
	return 0;
}

/* The removed cgroups walked up through to an online one, at most */
#define CHMU_OWNER_DEPTH 8

static __always_inline __u64 chmu_vmemmap(void)
{
	__u64 v = 0;

	if (&vmemmap_base)
		bpf_probe_read_kernel(&v, sizeof(v), &vmemmap_base);
	return v ? v : CHMU_VMEMMAP_L4;
}

/*
 * The cgroups of the last memcgs seen, so that a drain's units of one
 * cgroup read its memcg's chain once: for one drain (the batch programs
 * reset it, slot 0) or one run of chmu_resolve (slot 1), on one CPU.
 */
#define CHMU_OWNER_CACHED 4

struct chmu_owner_cache {
	__u64 memcg[CHMU_OWNER_CACHED];
	__u64 cgid[CHMU_OWNER_CACHED];
	__u32 next;
	__u32 used;	/* slot 0: struct page reads of this drain so far */
};

/* Per drain, struct page reads at most (user space: --max-attr-pages) */
const volatile __u32 chmu_owner_budget = CHMU_OWNER_DRAIN_PAGES;
/* entries whose unit was not attributed: the drain's budget was spent */
__u64 chmu_owner_unattributed;

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 2);
	__type(key, __u32);
	__type(value, struct chmu_owner_cache);
} chmu_owner_caches SEC(".maps");

static __always_inline struct chmu_owner_cache *chmu_owner_cache(__u32 slot)
{
	return bpf_map_lookup_elem(&chmu_owner_caches, &slot);
}

/* Forget the cached memcgs of @slot: at the start of a drain or a run */
static __always_inline void chmu_owner_cache_reset(__u32 slot)
{
	struct chmu_owner_cache *c = chmu_owner_cache(slot);

	if (c)
		__builtin_memset(c, 0, sizeof(*c));
}

/* The cgroup2 id of @memcg's nearest online cgroup, 0 if unreadable */
static __always_inline __u64 chmu_memcg_cgid(struct mem_cgroup *memcg)
{
	int i;

	for (i = 0; i < CHMU_OWNER_DEPTH; i++) {
		struct cgroup_subsys_state *parent;

		if (BPF_CORE_READ(memcg, css.flags) & CSS_ONLINE)
			break;
		parent = BPF_CORE_READ(memcg, css.parent);
		if (!parent)
			break;
		/* css is a memcg's first member */
		memcg = (struct mem_cgroup *)((void *)parent -
			bpf_core_field_offset(struct mem_cgroup, css));
	}
	return BPF_CORE_READ(memcg, css.cgroup, kn, id);
}

/* Field @f of struct @T in a copy of it at @buf of @n bytes (0 if past it) */
#define CHMU_COPY_FIELD(buf, n, T, f, type)					\
	(bpf_core_field_offset(T, f) + sizeof(type) <= (n) &&			\
	 bpf_core_field_offset(T, f) + sizeof(type) <= sizeof(buf) ?		\
	 *(type *)((void *)(buf) + bpf_core_field_offset(T, f)) : 0)

/*
 * The owner of frame @pfn; *@span: the frames from @pfn to the end of its
 * folio, all of the same owner (at least 1). One read of the struct page
 * (its head's for a tail page, and the second page of a large folio for
 * its order), the memcg's chain only when @cache does not have it.
 */
static __always_inline int chmu_page_owner(__u64 vmemmap, __u64 pfn,
					   __u64 *cgid, __u64 *span,
					   struct chmu_owner_cache *cache)
{
	__u64 psz = bpf_core_type_size(struct page), n, buf[16];
	__u64 head = vmemmap + pfn * psz, ch, flags, md, order, memcg;
	int ref, k;

	*span = 1;
	n = psz;
	if (2 * psz > sizeof(buf) || bpf_probe_read_kernel(buf, psz, (void *)head))
		return CHMU_OWN_NONE;
	ch = CHMU_COPY_FIELD(buf, n, struct page, compound_head, unsigned long);
	if (ch & 1) {	/* a tail page: its head's */
		head = ch - 1;
		if (bpf_probe_read_kernel(buf, psz, (void *)head))
			return CHMU_OWN_NONE;
	}
	flags = CHMU_COPY_FIELD(buf, n, struct page, flags, unsigned long);
	ref = CHMU_COPY_FIELD(buf, n, struct page, _refcount, int);
	/*
	 * A large folio: its order in the second page's flags, read only
	 * then (past a frame at the end of a memory block there may be no
	 * struct page to read)
	 */
	if ((flags & (1UL << bpf_core_enum_value(enum pageflags, PG_head))) &&
	    !bpf_probe_read_kernel((void *)buf + psz, psz, (void *)(head + psz))) {
		n = 2 * psz;
		order = chmu_folio_order(buf, psz);
		if (order > 0 && order <= 18) {
			__u64 end = (head - vmemmap) / psz + (1ULL << order);

			if (end > pfn)
				*span = end - pfn;
		}
	}
	if (!ref)
		return CHMU_OWN_FREE;
	if (!bpf_core_field_exists(struct page, memcg_data))
		return CHMU_OWN_KERNEL;	/* no memory cgroups */
	md = CHMU_COPY_FIELD(buf, n, struct page, memcg_data, unsigned long);
	if (!md || (md & chmu_memcg_kernel_flags()))
		return CHMU_OWN_KERNEL;
	if (!chmu_memcg_flag_bits())
		return CHMU_OWN_NONE;	/* a memcg_data this program cannot read */
	memcg = md & ~chmu_memcg_flag_bits();
	for (k = 0; k < CHMU_OWNER_CACHED; k++) {
		if (cache->memcg[k] == memcg) {
			*cgid = cache->cgid[k];
			return CHMU_OWN_CGROUP;
		}
	}
	*cgid = chmu_memcg_cgid((struct mem_cgroup *)memcg);
	if (!*cgid)
		return CHMU_OWN_NONE;
	k = cache->next++ % CHMU_OWNER_CACHED;
	if (k >= 0 && k < CHMU_OWNER_CACHED) {	/* for the verifier */
		cache->memcg[k] = memcg;
		cache->cgid[k] = *cgid;
	}
	return CHMU_OWN_CGROUP;
}

static __always_inline void chmu_owner_add(struct chmu_owners *o, __u64 cgid,
					   __u32 n)
{
	int k;

	for (k = 0; k < CHMU_OWNERS; k++) {
		if (o->cgid[k] == cgid) {
			o->pages[k] += n;
			return;
		}
		if (!o->cgid[k]) {
			o->cgid[k] = cgid;
			o->pages[k] = n;
			return;
		}
	}
	o->other += n;
}

struct chmu_owner_walk {
	__u64 vmemmap;
	__u64 pfn, end;
	struct chmu_owners *o;
	struct chmu_owner_cache *cache;
	__u32 steps;	/* struct page reads (a folio: one) */
	__u32 max;	/* ... at most: then the rest is unwalked */
};

static long chmu_owner_step(__u32 i, void *ctx)
{
	struct chmu_owner_walk *w = ctx;
	struct chmu_owners *o = w->o;
	__u64 cgid = 0, span;
	int kind;

	if (w->pfn >= w->end)
		return 1;
	if (w->steps >= w->max) {
		o->unwalked += w->end - w->pfn;
		return 1;
	}
	w->steps++;
	kind = chmu_page_owner(w->vmemmap, w->pfn, &cgid, &span, w->cache);
	if (span > w->end - w->pfn)
		span = w->end - w->pfn;
	w->pfn += span;
	switch (kind) {
	case CHMU_OWN_CGROUP:
		chmu_owner_add(o, cgid, span);
		break;
	case CHMU_OWN_FREE:
		o->free += span;
		break;
	case CHMU_OWN_KERNEL:
		o->kernel += span;
		break;
	default:
		o->none += span;
	}
	return 0;
}

/*
 * The owners of the unit of @bytes at @hpa into *@o (zeroed first). Only
 * its first @contig bytes are known to be contiguous in HPA (a region
 * interleaved at a granularity below the unit size has the rest on other
 * devices' frames): at most that many, and at most CHMU_OWNER_MAX_PAGES
 * pages, are looked at, the rest counted unwalked; so is what is left
 * when @max struct page reads were made (a large folio takes one). A unit
 * smaller than a page is its page. Returns the reads made.
 */
static __always_inline __u32 chmu_unit_owners(__u64 hpa, __u64 bytes,
					      __u64 contig,
					      struct chmu_owners *o,
					      struct chmu_owner_cache *cache,
					      __u32 max)
{
	struct chmu_owner_walk w = {};
	__u64 pages = bytes >> CHMU_PAGE_SHIFT, walk;

	__builtin_memset(o, 0, sizeof(*o));
	if (!pages)
		pages = 1;
	walk = contig < bytes ? contig >> CHMU_PAGE_SHIFT : pages;
	if (!walk)
		walk = 1;
	if (walk > CHMU_OWNER_MAX_PAGES)
		walk = CHMU_OWNER_MAX_PAGES;
	o->unwalked = pages - walk;
	w.vmemmap = chmu_vmemmap();
	w.pfn = hpa >> CHMU_PAGE_SHIFT;
	w.end = w.pfn + walk;
	w.o = o;
	w.cache = cache;
	w.max = max;
	if (walk == 1)	/* a unit of a page or less: no loop to set up */
		chmu_owner_step(0, &w);
	else
		bpf_loop(walk, chmu_owner_step, &w, 0);
	o->reads = w.steps;
	return w.steps;
}

/*
 * The regions that interleave, in two banks: user space writes the one
 * not in use and then publishes it in chmu_owner_sel (bank << 16 | count),
 * so that a drain reads one consistent list (chmu_owner_regions_sync())
 */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 2 * CHMU_OWNER_REGIONS);
	__type(key, __u32);
	__type(value, struct chmu_owner_region);
} chmu_owner_regions SEC(".maps");

__u32 chmu_owner_sel;

/* Bytes from @hpa contiguous in HPA within its granule; ~0 if it does not interleave */
static __always_inline __u64 chmu_owner_contig(__u64 hpa)
{
	__u32 sel = *(volatile __u32 *)&chmu_owner_sel;
	__u32 n = sel & 0xffff, base = (sel >> 16) ? CHMU_OWNER_REGIONS : 0;
	int i;

	/* unrolled: a loop over a map lookup's key reads as endless to it */
#pragma clang loop unroll(full)
	for (i = 0; i < CHMU_OWNER_REGIONS; i++) {
		__u32 k = base + i;
		struct chmu_owner_region *r;

		if ((__u32)i >= n)
			break;
		r = bpf_map_lookup_elem(&chmu_owner_regions, &k);
		if (r && r->gran && hpa >= r->start && hpa - r->start < r->size)
			return r->gran - (hpa - r->start) % r->gran;
	}
	return ~0ULL;
}

/*
 * The main owner of a unit of @bytes at @hpa on node @nid (its first
 * granule where its region interleaves), as a CHMU_KEY in out->key: the
 * owner of most of its pages looked at; ties go to cgroups (in the order
 * found), then free, kernel, other, none: the order of enum owner_kind
 * (tools/lib/owner.h), by which user space sorts the shares, so that both
 * name the same main owner. out->mixed if it has other owners too. A
 * unit that is not online memory (no node) is CHMU_KEY_NONE without a
 * look. A global function: the verifier checks it once, not once per
 * path of the drain's walk that calls it. The batch program resets slot 0
 * of the cache at the start of each drain (chmu_owner_cache_reset(0)),
 * and with it the drain's budget of struct page reads (chmu_owner_budget):
 * once it is spent, units are CHMU_KEY_UNATTRIBUTED, counted.
 */
struct chmu_main_owner {
	__u64 key;
	__u32 mixed;
	__u32 pad;
};

__noinline int chmu_main_owner(__u64 hpa, int nid, __u64 bytes,
			       struct chmu_main_owner *out)
{
	struct chmu_owner_cache *cache = chmu_owner_cache(0);
	struct chmu_owners o;
	__u64 key = CHMU_KEY_NONE;
	__u32 best = 0, total;
	int j;

	if (!out)
		return -1;
	out->key = key;
	out->mixed = 0;
	if (nid < 0 || hpa == ~0ULL || !cache)
		return 0;
	if (cache->used >= chmu_owner_budget) {
		out->key = CHMU_KEY_UNATTRIBUTED;
		__sync_fetch_and_add(&chmu_owner_unattributed, 1);
		return 0;
	}
	cache->used += chmu_unit_owners(hpa, bytes, chmu_owner_contig(hpa), &o, cache,
					chmu_owner_budget - cache->used);
	total = o.free + o.kernel + o.other + o.none;
	for (j = 0; j < CHMU_OWNERS; j++) {
		total += o.pages[j];
		if (o.pages[j] > best) {
			best = o.pages[j];
			key = o.cgid[j];
		}
	}
	if (o.free > best) {
		best = o.free;
		key = CHMU_KEY_FREE;
	}
	if (o.kernel > best) {
		best = o.kernel;
		key = CHMU_KEY_KERNEL;
	}
	if (o.other > best) {
		best = o.other;
		key = CHMU_KEY_OTHER;
	}
	if (o.none > best) {
		best = o.none;
		key = CHMU_KEY_NONE;
	}
	out->key = key;
	out->mixed = best < total;
	return 0;
}

/*
 * Every tool that attributes carries this program, which user space runs
 * (BPF_PROG_RUN) to attribute units it names: when it draws a frame, and
 * once at start on a page of its own (chmu_owner_ready()). Autoloaded
 * only when the tool attributes.
 */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, CHMU_RESOLVE);
	__type(key, __u32);
	__type(value, struct chmu_owner_req);
} chmu_owner_q SEC(".maps");

struct chmu_resolve_ctx {
	struct chmu_owner_cache *cache;
};

static long chmu_resolve_one(__u32 i, void *ctx)
{
	struct chmu_owner_req *r = bpf_map_lookup_elem(&chmu_owner_q, &i);
	struct chmu_owner_cache *cache = ((struct chmu_resolve_ctx *)ctx)->cache;

	if (!r || !cache)
		return 1;
	chmu_unit_owners(r->hpa, r->bytes, r->contig, &r->o, cache, CHMU_OWNER_MAX_PAGES);
	return 0;
}

SEC("syscall")
int chmu_resolve(struct chmu_resolve_args *a)
{
	struct chmu_resolve_ctx c;
	__u32 n = a->n;

	chmu_owner_cache_reset(1);
	c.cache = chmu_owner_cache(1);
	if (!c.cache)
		return 0;
	if (n > CHMU_RESOLVE)
		n = CHMU_RESOLVE;
	bpf_loop(n, chmu_resolve_one, &c, 0);
	return 0;
}

#endif
