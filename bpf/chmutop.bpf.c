// SPDX-License-Identifier: GPL-2.0
/*
 * chmutop: per-unit (or per-slot of -g bytes) statistics of the CHMU
 * hotlist and per-instance health of the monitor, aggregated in bounded
 * maps from the chmu:chmu_hotlist_batch and chmu:chmu_hotlist_entry
 * tracepoints.
 */
#include "vmlinux.h"
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include "chmutop.h"
#include "chmu.bpf.h"

const volatile __u32 gran_shift;	/* 0: per unit */

__u32 gen;		/* the interval number, advanced by user space */
__u64 dropped;		/* entries not counted: no unit could be evicted */
__u64 inserted;		/* units (slots) added to the map: less its size, evicted */

/* Least recently seen units make room for new ones: the view stays live */
struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, CHMUTOP_MAX_UNITS);
	__type(key, struct unit_key);
	__type(value, struct unit_stat);
} units SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, CHMUTOP_MAX_INST);
	__type(key, __u32);
	__type(value, struct inst_stat);
} insts SEC(".maps");

static const struct inst_stat zero_inst;

/*
 * The batch being drained on this CPU: its entries follow its batch event
 * and take its time. An entry of another batch (the drain moved to another
 * CPU, or no batch event was seen) reads the clock itself.
 */
struct batch_ctx {
	__u64 ns;
	__u64 seq;
	__u32 id;
};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct batch_ctx);
} batch_now SEC(".maps");

static __always_inline int on_batch(struct chmu_batch *b)
{
	int memdev, chmu, inst;
	struct inst_stat *st;
	struct batch_ctx *bc;
	__u32 id, g, zero = 0;
	__u64 nr, now;

	if (!b)
		return 0;
	memdev = BPF_CORE_READ(b, memdev);
	chmu = BPF_CORE_READ(b, chmu);
	inst = BPF_CORE_READ(b, inst);
	nr = BPF_CORE_READ(b, nr);
	id = CHMU_ID(memdev, chmu, inst);
	if (!chmu_wanted(memdev, chmu, inst))
		return 0;
	now = bpf_ktime_get_ns();
	bc = bpf_map_lookup_elem(&batch_now, &zero);
	if (bc) {
		bc->ns = now;
		bc->seq = BPF_CORE_READ(b, seq);
		bc->id = id;
	}
	st = chmu_lookup_init(&insts, &id, &zero_inst);
	if (!st)
		return 0;
	st->batches++;
	st->last_ns = now;
	g = *(volatile __u32 *)&gen;
	if (st->fgen != g || !st->first_ns) {
		st->fgen = g;
		st->first_ns = now;
	}
	st->entries += nr;
	st->fill_sum += nr;
	if (nr > st->fill_max)
		st->fill_max = nr;
	st->size = BPF_CORE_READ(b, size);
	if (BPF_CORE_READ(b, overflow))
		st->overflows++;
	st->lost = BPF_CORE_READ(b, lost);
	return 0;
}

/*
 * Per entry, one per-CPU lookup (the batch's time) and one unit-map lookup
 * (and an insert the first time a unit is seen): no clock read unless the
 * batch event was not seen on this CPU, and no per-instance state (the
 * batch event counts entries; the drain time comes from the driver's
 * drain_ns in sysfs).
 */
static __always_inline int on_entry(int memdev, int chmu, int inst, __u64 seq,
				    __u64 dpa, __u64 hpa, int nid, __u64 count)
{
	__u32 id = CHMU_ID(memdev, chmu, inst), g = *(volatile __u32 *)&gen;
	__u32 zero = 0, slot = g & 1;
	struct unit_key k = {};
	struct unit_stat *u, init = {};
	struct batch_ctx *bc;
	__u64 now;

	if (!chmu_wanted(memdev, chmu, inst))
		return 0;
	bc = bpf_map_lookup_elem(&batch_now, &zero);
	/* its own batch only: a drain may move to another CPU midway */
	now = bc && bc->id == id && bc->seq == seq && bc->ns ? bc->ns :
	      bpf_ktime_get_ns();
	k.inst = id;
	k.slot = dpa >> gran_shift;
	u = bpf_map_lookup_elem(&units, &k);
	if (!u) {
		init.hpa = hpa;
		init.nid = nid;
		init.first_ns = now;
		init.igen[0] = init.igen[1] = g;
		if (!bpf_map_update_elem(&units, &k, &init, BPF_NOEXIST))
			__sync_fetch_and_add(&inserted, 1);
		u = bpf_map_lookup_elem(&units, &k);
		if (!u) {
			__sync_fetch_and_add(&dropped, 1);
			return 0;
		}
	}
	/*
	 * Interval sums alternate between two slots: the one user space reads
	 * after advancing gen is not written meanwhile.
	 */
	if (slot) {	/* constant indices: the verifier takes no pointer ORs */
		if (u->igen[1] != g) {
			u->igen[1] = g;
			u->isum[1] = 0;
		}
		u->isum[1] += count;
	} else {
		if (u->igen[0] != g) {
			u->igen[0] = g;
			u->isum[0] = 0;
		}
		u->isum[0] += count;
	}
	u->sum += count;
	/*
	 * A region (-g) may get several entries in one batch: its count is
	 * the largest, its HPA and node the hottest unit's.
	 */
	if (!u->seen || u->lseq != seq || count > u->last_count) {
		u->last_count = count;
		u->hpa = hpa;
		u->nid = nid;
	}
	u->lseq = seq;
	u->seen++;
	u->last_ns = now;
	return 0;
}

CHMU_BATCH_PROGS(on_batch)

CHMU_ENTRY_PROGS(on_entry)

char LICENSE[] SEC("license") = "GPL";
