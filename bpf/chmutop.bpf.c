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
__u64 dropped;		/* entries not counted: the unit map was full */

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
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


__u64 batch_ns;		/* the last batch event's time: its entries' time */

static __always_inline int on_batch(struct chmu_batch *b)
{
	int memdev, chmu, inst;
	struct inst_stat *st;
	__u64 nr;
	__u32 id, g;

	if (!b)
		return 0;
	memdev = BPF_CORE_READ(b, memdev);
	chmu = BPF_CORE_READ(b, chmu);
	inst = BPF_CORE_READ(b, inst);
	nr = BPF_CORE_READ(b, nr);
	id = CHMU_ID(memdev, chmu, inst);
	if (!chmu_wanted(memdev, chmu, inst))
		return 0;
	batch_ns = bpf_ktime_get_ns();
	st = chmu_lookup_init(&insts, &id, &zero_inst);
	if (!st)
		return 0;
	st->batches++;
	st->last_ns = batch_ns;
	g = *(volatile __u32 *)&gen;
	if (st->fgen != g || !st->first_ns) {
		st->fgen = g;
		st->first_ns = batch_ns;
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
 * Per entry, one unit-map lookup (and an insert the first time a unit is
 * seen): no clock read (entries take their batch's time; drains of two
 * instances interleaving on two CPUs can shift a unit's seen times by one
 * drain) and no per-instance state (the batch event counts entries; the
 * drain time comes from the driver's drain_ns in sysfs).
 */
static __always_inline int on_entry(int memdev, int chmu, int inst, __u64 seq,
				    __u64 dpa, __u64 hpa, int nid, __u64 count)
{
	__u32 id = CHMU_ID(memdev, chmu, inst), g = *(volatile __u32 *)&gen;
	__u64 now = *(volatile __u64 *)&batch_ns;
	struct unit_key k = {};
	struct unit_stat *u, init = {};

	if (!chmu_wanted(memdev, chmu, inst))
		return 0;
	k.inst = id;
	k.slot = dpa >> gran_shift;
	u = bpf_map_lookup_elem(&units, &k);
	if (!u) {
		init.hpa = hpa;
		init.nid = nid;
		init.first_ns = now;
		init.igen = g;
		bpf_map_update_elem(&units, &k, &init, BPF_NOEXIST);
		u = bpf_map_lookup_elem(&units, &k);
		if (!u) {
			__sync_fetch_and_add(&dropped, 1);
			return 0;
		}
	}
	if (u->igen != g) {
		u->igen = g;
		u->isum = 0;
	}
	u->isum += count;
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
