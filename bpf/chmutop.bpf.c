// SPDX-License-Identifier: GPL-2.0
/*
 * chmutop: per-unit (or per-slot of -g bytes) statistics of the CHMU
 * hotlist and per-instance health of the monitor, aggregated in bounded
 * maps from the chmu:chmu_hotlist_batch tracepoint: one program run per
 * drain walks the entries of the drain.
 *
 * An instance whose units (or -g regions) fit in the direct map has a
 * range of its slots there, indexed by DPA >> gran_shift: an entry's
 * lookup is an index, not a hash, and nothing is evicted. The others,
 * and any DPA past an instance's capacity, go to the LRU hash. User space
 * maps the direct map and learns which slots are in use from the touched
 * list, in the order they were first seen.
 */
#include "vmlinux.h"
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include "chmutop.h"
#include "chmu.bpf.h"
#include "chmuowner.bpf.h"
#include "chmugen.bpf.h"
#include "chmucfg.bpf.h"

const volatile __u32 gran_shift;	/* 0: per unit */
/* the instances with a range of the direct map: id, first slot, slots */
const volatile __u32 direct_nr;
const volatile __u32 direct_id[CHMUTOP_MAX_INST];
const volatile __u32 direct_base[CHMUTOP_MAX_INST];
const volatile __u32 direct_slots[CHMUTOP_MAX_INST];

__u64 dropped;		/* entries not counted: no unit could be evicted */
__u64 unreadable;	/* entries not counted: not readable from the driver's batch */
__u64 touched_nr;	/* slots of the direct map taken: entries of touched */
__u64 hashed;		/* units added to the hash: while 0, it is empty */

/* Least recently seen units make room for new ones: the view stays live */
struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, CHMUTOP_MAX_UNITS);
	__type(key, struct unit_key);
	__type(value, struct unit_stat);
} units SEC(".maps");

/* Sized by user space (top_plan_direct()); mapped by it, read-only */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(map_flags, BPF_F_MMAPABLE);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct unit_stat);
} direct SEC(".maps");

/* The direct map's slots in use, 1 + slot each; 0: being written */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(map_flags, BPF_F_MMAPABLE);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
} touched SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, CHMUTOP_MAX_INST);
	__type(key, __u32);
	__type(value, struct inst_stat);
} insts SEC(".maps");

static const struct inst_stat zero_inst;

/* What the walk over one batch's entries shares */
struct walk {
	const struct chmu_entry *entries;
	__u32 nr;
	__u64 now;
	__u64 seq;
	__u32 id;
	__u32 gen;
	__u32 base, slots;	/* the instance's range of the direct map */
};

/* The slot of the direct map for @slot of the walk's instance, or NULL */
static __always_inline struct unit_stat *direct_get(struct walk *w, __u64 slot,
						    const struct chmu_ent *e)
{
	struct unit_stat *u;
	__u32 idx, pos;
	__u64 *t;

	if (slot >= w->slots)
		return NULL;
	idx = w->base + (__u32)slot;
	u = bpf_map_lookup_elem(&direct, &idx);
	if (!u || u->seen)
		return u;
	/*
	 * First sight. The driver drains an instance under its mutex: no
	 * other run writes this slot meanwhile.
	 */
	u->hpa = e->hpa;
	u->nid = e->nid;
	u->first_ns = w->now;
	u->igen[0] = u->igen[1] = w->gen;
	pos = __sync_fetch_and_add(&touched_nr, 1);
	t = bpf_map_lookup_elem(&touched, &pos);
	if (t)
		*t = idx + 1;
	return u;
}

/*
 * Per entry, one lookup: an index into the direct map, or (for an
 * instance not there) the hash, with an insert the first time a unit is
 * seen; the time and the interval are the batch's.
 */
static long on_entry(__u32 i, void *ctx)
{
	struct walk *w = ctx;
	struct unit_key k = {};
	struct unit_stat *u, init = {};
	struct chmu_ent e;
	__u32 g = w->gen;	/* the run's: a drain lands in one interval */

	if (chmu_entry_get(w->entries, i, w->nr, &e)) {
		__sync_fetch_and_add(&unreadable, 1);
		return 0;
	}
	k.inst = w->id;
	k.slot = e.dpa >> gran_shift;
	u = direct_get(w, k.slot, &e);
	if (!u)
		u = bpf_map_lookup_elem(&units, &k);
	if (!u) {
		init.hpa = e.hpa;
		init.nid = e.nid;
		init.first_ns = w->now;
		init.igen[0] = init.igen[1] = g;
		if (!bpf_map_update_elem(&units, &k, &init, BPF_NOEXIST))
			__sync_fetch_and_add(&hashed, 1);
		u = bpf_map_lookup_elem(&units, &k);
		if (!u) {
			__sync_fetch_and_add(&dropped, 1);
			return 0;
		}
	}
	/*
	 * Interval sums alternate between two slots: the one user space reads
	 * after advancing gen (and waiting for the runs still writing it) is
	 * not written meanwhile.
	 */
	if (g & 1) {	/* constant indices: the verifier takes no pointer ORs */
		if (u->igen[1] != g) {
			u->igen[1] = g;
			u->isum[1] = 0;
		}
		u->isum[1] += e.count;
	} else {
		if (u->igen[0] != g) {
			u->igen[0] = g;
			u->isum[0] = 0;
		}
		u->isum[0] += e.count;
	}
	u->sum += e.count;
	/*
	 * A region (-g) may get several entries in one batch: its count is
	 * the largest, its HPA and node the hottest unit's.
	 */
	if (!u->seen || u->lseq != w->seq || e.count > u->last_count) {
		u->last_count = e.count;
		u->hpa = e.hpa;
		u->nid = e.nid;
	}
	u->lseq = w->seq;
	u->seen++;
	u->last_ns = w->now;
	return 0;
}

/*
 * One run per drain: the instance's health from the batch, then the
 * batch's entries, walked with bpf_loop.
 */
static __always_inline int on_batch(struct chmu_batch *b)
{
	struct walk w = {};
	struct inst_stat *st;
	__u32 nr;

	if (!chmu_batch_wanted(b, &w.id))
		return 0;
	nr = BPF_CORE_READ(b, nr);
	w.now = bpf_ktime_get_ns();
	w.seq = BPF_CORE_READ(b, seq);
	w.gen = chmu_gen_enter();
	w.entries = BPF_CORE_READ(b, entries);
	w.nr = nr;
	for (__u32 i = 0; i < CHMUTOP_MAX_INST && i < direct_nr; i++) {
		if (direct_id[i] == w.id) {
			w.base = direct_base[i];
			w.slots = direct_slots[i];
			break;
		}
	}
	st = chmu_lookup_init(&insts, &w.id, &zero_inst);
	if (st) {
		st->batches++;
		st->last_ns = w.now;
		if (st->fgen != w.gen || !st->first_ns) {
			st->fgen = w.gen;
			st->first_ns = w.now;
		}
		st->entries += nr;
		st->fill_sum += nr;
		if (nr > st->fill_max)
			st->fill_max = nr;
		st->size = BPF_CORE_READ(b, size);
		if (BPF_CORE_READ(b, overflow))
			st->overflows++;
		st->lost = BPF_CORE_READ(b, lost);
	}
	if (nr && w.entries)
		bpf_loop(nr, on_entry, &w, 0);
	chmu_gen_exit(w.gen);
	return 0;
}

CHMU_BATCH_PROGS(on_batch)

char LICENSE[] SEC("license") = "GPL";
