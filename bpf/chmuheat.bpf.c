// SPDX-License-Identifier: GPL-2.0
/*
 * chmuheat: aggregate chmu:chmu_hotlist_entry in the kernel into a log2
 * histogram of counts per instance, per-region statistics and
 * histograms, and address x interval heatmap cells. Nothing per entry
 * goes to user space.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include "chmuheat.h"
#include "chmu.bpf.h"

const volatile __u32 region_shift = 28;
const volatile __u32 row_shift = 25;
const volatile __u64 max_rows = 16;	/* the heatmap's rows */

__u32 gen;		/* flipped by user space each interval */
__u64 entries;		/* entries seen */
/* entries missing from one aggregate, by reason (the others have them) */
__u64 dropped_hist;	/* the histogram map was full */
__u64 dropped_region;	/* the region map was full */
__u64 dropped_cell;	/* the heatmap cell map was full */
__u64 beyond_rows;	/* DPA past the heatmap's rows (the capacity) */

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

static const struct hist zero_hist;
static const struct region_val zero_region = { .hpa_lo = ~0ULL };
static const __u64 zero;

static __always_inline int handle(int memdev, int chmu, int inst, __u64 seq,
				  __u64 dpa, __u64 hpa, int nid, __u64 count)
{
	struct hist_key hk = {};
	struct region_key rk = {};
	struct cell_key ck = {};
	struct region_val *rv;
	struct hist *h;
	__u64 *cell;
	__u32 slot, g = *(volatile __u32 *)&gen;

	if (!chmu_wanted(memdev, chmu, inst))
		return 0;

	slot = chmu_log2(count);
	if (slot >= CHMUHEAT_SLOTS)
		slot = CHMUHEAT_SLOTS - 1;

	__sync_fetch_and_add(&entries, 1);
	/* each aggregate on its own: a full map loses the entry there only */
	hk.inst = CHMU_ID(memdev, chmu, inst);
	hk.gen = g;
	h = chmu_lookup_init(&hists, &hk, &zero_hist);
	if (h)
		__sync_fetch_and_add(&h->slots[slot], 1);
	else
		__sync_fetch_and_add(&dropped_hist, 1);

	rk.inst = hk.inst;
	rk.region = dpa >> region_shift;
	rv = chmu_lookup_init(&regions, &rk, &zero_region);
	if (rv) {
		__sync_fetch_and_add(&rv->entries, 1);
		__sync_fetch_and_add(&rv->sum, count);
		__sync_fetch_and_add(&rv->slots[slot], 1);
		/* Racy min/max: drains of one instance are serialized anyway */
		if (count > rv->max)
			rv->max = count;
		if (hpa != ~0ULL) {
			if (hpa < rv->hpa_lo)
				rv->hpa_lo = hpa;
			if (rv->hpa_hi == 0 || hpa > rv->hpa_hi)
				rv->hpa_hi = hpa;
		}
	} else {
		__sync_fetch_and_add(&dropped_region, 1);
	}

	ck.inst = hk.inst;
	ck.gen = g;
	ck.row = dpa >> row_shift;
	if (ck.row >= max_rows) {
		__sync_fetch_and_add(&beyond_rows, 1);
		return 0;
	}
	cell = chmu_lookup_init(&cells, &ck, &zero);
	if (cell)
		__sync_fetch_and_add(cell, count);
	else
		__sync_fetch_and_add(&dropped_cell, 1);
	return 0;
}

CHMU_ENTRY_PROGS(handle)

char LICENSE[] SEC("license") = "GPL";
