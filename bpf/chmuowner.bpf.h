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
 * The owner of frame @pfn; *@span: the frames from @pfn to the end of its
 * folio, all of the same owner (at least 1).
 */
static __always_inline int chmu_page_owner(__u64 vmemmap, __u64 pfn,
					   __u64 *cgid, __u64 *span)
{
	__u64 psz = bpf_core_type_size(struct page);
	struct page *pg = (struct page *)(vmemmap + pfn * psz), *head = pg;
	unsigned long ch = 0, flags = 0, md = 0, order;
	struct mem_cgroup *memcg;
	int ref = 0, i;

	*span = 1;
	if (bpf_core_read(&ch, sizeof(ch), &pg->compound_head))
		return CHMU_OWN_NONE;
	if (ch & 1)
		head = (struct page *)(ch - 1);
	if (bpf_core_read(&flags, sizeof(flags), &head->flags) ||
	    bpf_core_read(&ref, sizeof(ref), &head->_refcount.counter))
		return CHMU_OWN_NONE;
	if (flags & (1UL << bpf_core_enum_value(enum pageflags, PG_head))) {
		/* a large folio: its order in the second page's flags */
		order = BPF_CORE_READ((struct folio *)head, _flags_1) & 0xff;
		if (order > 0 && order <= 18) {
			__u64 hpfn = ((__u64)head - vmemmap) / psz;
			__u64 end = hpfn + (1ULL << order);

			if (end > pfn)
				*span = end - pfn;
		}
	}
	if (!ref)
		return CHMU_OWN_FREE;
	if (!bpf_core_field_exists(head->memcg_data))
		return CHMU_OWN_KERNEL;	/* no memory cgroups */
	if (bpf_core_read(&md, sizeof(md), &head->memcg_data))
		return CHMU_OWN_NONE;
	if (!md || (md & (MEMCG_DATA_OBJEXTS | MEMCG_DATA_KMEM)))
		return CHMU_OWN_KERNEL;
	memcg = (struct mem_cgroup *)(md & ~(unsigned long)(__NR_MEMCG_DATA_FLAGS - 1));
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
	*cgid = BPF_CORE_READ(memcg, css.cgroup, kn, id);
	return *cgid ? CHMU_OWN_CGROUP : CHMU_OWN_NONE;
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
};

static long chmu_owner_step(__u32 i, void *ctx)
{
	struct chmu_owner_walk *w = ctx;
	struct chmu_owners *o = w->o;
	__u64 cgid = 0, span;
	int kind;

	if (w->pfn >= w->end)
		return 1;
	kind = chmu_page_owner(w->vmemmap, w->pfn, &cgid, &span);
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
 * pages, are looked at, the rest counted unwalked. A unit smaller than a
 * page is its page.
 */
static __always_inline void chmu_unit_owners(__u64 hpa, __u64 bytes,
					     __u64 contig,
					     struct chmu_owners *o)
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
	bpf_loop(walk, chmu_owner_step, &w, 0);
}

/*
 * The main owner of a unit of @bytes at @hpa on node @nid, as a CHMU_KEY
 * in out->key: the owner of most of its pages looked at (ties: cgroups
 * first, in the order found); out->mixed if it has other owners too. A
 * unit that is not online memory (no node) is CHMU_KEY_NONE without a
 * look. A global function: the verifier checks it once, not once per
 * path of the drain's walk that calls it.
 */
struct chmu_main_owner {
	__u64 key;
	__u32 mixed;
	__u32 pad;
};

__noinline int chmu_main_owner(__u64 hpa, int nid, __u64 bytes, __u64 contig,
			       struct chmu_main_owner *out)
{
	struct chmu_owners o;
	__u64 key = CHMU_KEY_NONE;
	__u32 best = 0, total;
	int j;

	if (!out)
		return -1;
	out->key = key;
	out->mixed = 0;
	if (nid < 0 || hpa == ~0ULL)
		return 0;
	chmu_unit_owners(hpa, bytes, contig, &o);
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
 * once at start on a page of its own (chmu_owner_check()). Autoloaded
 * only when the tool attributes.
 */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, CHMU_RESOLVE);
	__type(key, __u32);
	__type(value, struct chmu_owner_req);
} chmu_owner_q SEC(".maps");

static long chmu_resolve_one(__u32 i, void *ctx)
{
	struct chmu_owner_req *r = bpf_map_lookup_elem(&chmu_owner_q, &i);

	if (!r)
		return 1;
	chmu_unit_owners(r->hpa, r->bytes, r->contig, &r->o);
	return 0;
}

SEC("syscall")
int chmu_resolve(struct chmu_resolve_args *a)
{
	__u32 n = a->n;

	if (n > CHMU_RESOLVE)
		n = CHMU_RESOLVE;
	bpf_loop(n, chmu_resolve_one, NULL, 0);
	return 0;
}

#endif
