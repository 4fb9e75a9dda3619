// SPDX-License-Identifier: GPL-2.0
/*
 * chmuheat: aggregate each drain of the CHMU hotlist in the kernel into a
 * log2 histogram of counts per instance, per-region statistics and
 * histograms, and address x interval heatmap cells. One program run per
 * drain (chmu:chmu_hotlist_batch) walks its entries; nothing per entry
 * goes to user space.
 */
#include "vmlinux.h"
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include "chmuheat.h"
#include "chmu.bpf.h"
#include "chmuowner.bpf.h"
#include "chmugen.bpf.h"

const volatile __u32 region_shift = 28;
const volatile __u32 row_shift = 25;
const volatile __u64 max_rows = 16;	/* the heatmap's rows */
const volatile bool by_cgroup;		/* --by cgroup */

__u64 entries;		/* entries seen */
__u64 batches;		/* drains seen */
__u64 overflows;	/* drains that saw the device's overflow status */
__u64 lost;		/* the driver's lost entries since the tool's first drain */
/* entries missing from one aggregate, by reason (the others have them) */
__u64 dropped_hist;	/* the histogram map was full */
__u64 dropped_region;	/* the region map was full */
__u64 dropped_cell;	/* the heatmap cell map was full */
__u64 dropped_read;	/* unreadable entries (in no aggregate) */
__u64 beyond_rows;	/* DPA past the heatmap's rows (the capacity) */
__u64 dropped_owner;	/* --by cgroup: the owner histogram map was full */

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, CHMUHEAT_MAX_INST * 2);
	__type(key, struct hist_key);
	__type(value, struct hist);
} hists SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, CHMUHEAT_MAX_REGIONS);
	__type(key, struct region_key);
	__type(value, struct region_val);
} regions SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, CHMUHEAT_MAX_CELLS);
	__type(key, struct cell_key);
	__type(value, __u64);
} cells SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, CHMUHEAT_MAX_OWNERS);
	__type(key, struct owner_key);
	__type(value, struct owner_hist);
} owner_hists SEC(".maps");

/* The last lost count seen per instance: the driver's is cumulative */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, CHMUHEAT_MAX_INST);
	__type(key, __u32);
	__type(value, __u64);
} inst_lost SEC(".maps");

/*
 * One drain's aggregates, built on this CPU while its entries are walked
 * and added to the maps once per run of entries of one region (or cell)
 * and once per drain for the histogram: a map update per region a drain
 * touches, not per entry. A program does not run twice at once on a CPU.
 */
struct scratch {
	struct hist h;
	struct region_key rk;
	struct region_val rv;
	struct cell_key ck;
	__u64 cell;
	__u64 cell_entries;
	__u32 have_region;
	__u32 have_cell;
	__u32 gen;		/* the interval this run writes (chmu_gen_enter) */
	/* --by cgroup: the run of entries of one owner being summed */
	struct owner_key ok;
	struct owner_hist oh;
	__u32 have_owner;
};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct scratch);
} scratch SEC(".maps");

static const struct hist zero_hist;
static const struct region_val zero_region = { .hpa_lo = ~0ULL };
static const __u64 zero;

static const struct owner_hist zero_owner_hist;

struct walk {
	const struct chmu_entry *entries;
	__u32 nr;
	__u32 id;
	__u32 unit_shift;
};

static __always_inline void flush_owner(struct scratch *s)
{
	struct owner_hist *h;
	int j;

	if (!s->have_owner)
		return;
	s->have_owner = 0;
	s->ok.gen = s->gen;	/* the run's interval, as the cells */
	h = chmu_lookup_init(&owner_hists, &s->ok, &zero_owner_hist);
	if (!h) {
		__sync_fetch_and_add(&dropped_owner, s->oh.entries);
		return;
	}
	__sync_fetch_and_add(&h->entries, s->oh.entries);
	__sync_fetch_and_add(&h->sum, s->oh.sum);
	if (s->oh.mixed)
		__sync_fetch_and_add(&h->mixed, s->oh.mixed);
	for (j = 0; j < CHMUHEAT_SLOTS; j++)
		if (s->oh.slots[j])
			__sync_fetch_and_add(&h->slots[j], s->oh.slots[j]);
}

/*
 * --by cgroup: the entry in the histogram of its unit's main owner, read
 * at the drain (online memory only: a unit with no node is none); summed
 * on this CPU over a run of entries of one owner, one map update per run
 */
static __always_inline void owner_entry(struct walk *w, struct scratch *s,
					 const struct chmu_ent *e, __u32 slot)
{
	struct chmu_main_owner mo = {};

	chmu_main_owner(e->hpa, e->nid, 1ULL << (w->unit_shift & 63), &mo);
	if (s->have_owner && s->ok.owner != mo.key)
		flush_owner(s);
	if (!s->have_owner) {
		__builtin_memset(&s->oh, 0, sizeof(s->oh));
		s->ok.inst = w->id;
		s->ok.owner = mo.key;
		s->have_owner = 1;
	}
	s->oh.entries++;
	s->oh.sum += e->count;
	s->oh.mixed += mo.mixed;
	if (slot < CHMUHEAT_SLOTS)
		s->oh.slots[slot]++;
}

static __always_inline void flush_region(struct scratch *s)
{
	struct region_val *rv;
	int j;

	if (!s->have_region)
		return;
	s->have_region = 0;
	rv = chmu_lookup_init(&regions, &s->rk, &zero_region);
	if (!rv) {
		__sync_fetch_and_add(&dropped_region, s->rv.entries);
		return;
	}
	__sync_fetch_and_add(&rv->entries, s->rv.entries);
	__sync_fetch_and_add(&rv->sum, s->rv.sum);
	for (j = 0; j < CHMUHEAT_SLOTS; j++)
		if (s->rv.slots[j])
			__sync_fetch_and_add(&rv->slots[j], s->rv.slots[j]);
	/* Racy min/max: drains of one instance are serialized anyway */
	if (s->rv.max > rv->max)
		rv->max = s->rv.max;
	if (s->rv.hpa_lo < rv->hpa_lo)
		rv->hpa_lo = s->rv.hpa_lo;
	if (s->rv.hpa_hi > rv->hpa_hi)
		rv->hpa_hi = s->rv.hpa_hi;
}

static __always_inline void flush_cell(struct scratch *s)
{
	__u64 *cell;

	if (!s->have_cell)
		return;
	s->have_cell = 0;
	s->ck.gen = s->gen;	/* the run's interval: a drain lands in one */
	cell = chmu_lookup_init(&cells, &s->ck, &zero);
	if (cell)
		__sync_fetch_and_add(cell, s->cell);
	else
		__sync_fetch_and_add(&dropped_cell, s->cell_entries);
}

static long on_entry(__u32 i, void *ctx)
{
	struct walk *w = ctx;
	struct chmu_ent e;
	struct scratch *s;
	__u32 slot, zero_key = 0;
	__u64 region, row;

	s = bpf_map_lookup_elem(&scratch, &zero_key);
	if (!s)
		return 1;
	if (chmu_entry_get(w->entries, i, w->nr, &e)) {
		__sync_fetch_and_add(&dropped_read, 1);
		return 0;
	}
	slot = chmu_log2(e.count);
	if (slot >= CHMUHEAT_SLOTS)
		slot = CHMUHEAT_SLOTS - 1;
	s->h.slots[slot]++;
	if (by_cgroup)
		owner_entry(w, s, &e, slot);

	region = e.dpa >> region_shift;
	if (s->have_region && s->rk.region != region)
		flush_region(s);
	if (!s->have_region) {
		/*
		 * The value first: clang 14 drops stores to *s made just
		 * before a struct copy into s->rv.
		 */
		__builtin_memset(&s->rv, 0, sizeof(s->rv));
		s->rv.hpa_lo = ~0ULL;
		s->rk.inst = w->id;
		s->rk.region = region;
		s->have_region = 1;
	}
	s->rv.entries++;
	s->rv.sum += e.count;
	s->rv.slots[slot]++;
	if (e.count > s->rv.max)
		s->rv.max = e.count;
	if (e.hpa != ~0ULL) {
		if (e.hpa < s->rv.hpa_lo)
			s->rv.hpa_lo = e.hpa;
		if (e.hpa > s->rv.hpa_hi)
			s->rv.hpa_hi = e.hpa;
	}

	row = e.dpa >> row_shift;
	if (row >= max_rows) {
		__sync_fetch_and_add(&beyond_rows, 1);
		return 0;
	}
	if (s->have_cell && s->ck.row != row)
		flush_cell(s);
	if (!s->have_cell) {
		s->have_cell = 1;
		s->ck.inst = w->id;
		s->ck.row = row;
		s->cell = 0;
		s->cell_entries = 0;
	}
	s->cell += e.count;
	s->cell_entries++;
	return 0;
}

static __always_inline int on_batch(struct chmu_batch *b)
{
	struct hist_key hk = {};
	struct walk w = {};
	struct scratch *s;
	struct hist *h;
	int j;
	__u64 l, *lp;
	__u32 nr, zero_key = 0;

	if (!chmu_batch_wanted(b, &w.id))
		return 0;
	__sync_fetch_and_add(&batches, 1);
	if (BPF_CORE_READ(b, overflow))
		__sync_fetch_and_add(&overflows, 1);
	/*
	 * The driver's lost count runs from the instance's enable: add what
	 * is new since the first drain this tool saw (a re-enable restarts it)
	 */
	l = BPF_CORE_READ(b, lost);
	lp = bpf_map_lookup_elem(&inst_lost, &w.id);
	if (!lp) {
		bpf_map_update_elem(&inst_lost, &w.id, &l, BPF_NOEXIST);
	} else if (l != *lp) {
		if (l > *lp)
			__sync_fetch_and_add(&lost, l - *lp);
		*lp = l;
	}
	nr = BPF_CORE_READ(b, nr);
	w.entries = BPF_CORE_READ(b, entries);
	w.unit_shift = BPF_CORE_READ(b, unit_shift);
	if (!nr || !w.entries)
		return 0;
	s = bpf_map_lookup_elem(&scratch, &zero_key);
	if (!s)
		return 0;
	__builtin_memset(&s->h, 0, sizeof(s->h));
	s->have_region = s->have_cell = s->have_owner = 0;
	s->gen = chmu_gen_enter();
	__sync_fetch_and_add(&entries, nr);
	w.nr = nr;
	if (by_cgroup)
		chmu_owner_cache_reset(0);
	bpf_loop(nr, on_entry, &w, 0);
	flush_region(s);
	flush_cell(s);
	flush_owner(s);

	hk.inst = w.id;
	hk.gen = s->gen;	/* as the cells: the run's interval */
	h = chmu_lookup_init(&hists, &hk, &zero_hist);
	for (j = 0; j < CHMUHEAT_SLOTS; j++) {
		if (!s->h.slots[j])
			continue;
		if (h)
			__sync_fetch_and_add(&h->slots[j], s->h.slots[j]);
		else
			__sync_fetch_and_add(&dropped_hist, s->h.slots[j]);
	}
	chmu_gen_exit(s->gen);
	return 0;
}

CHMU_BATCH_PROGS(on_batch)

char LICENSE[] SEC("license") = "GPL";
