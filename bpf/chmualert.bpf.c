// SPDX-License-Identifier: GPL-2.0
/*
 * chmualert: hand each chmu:chmu_hotlist_entry of the selected instances
 * to user space through a BPF ring buffer, where the alert state machine
 * runs; entries the ring buffer cannot take are counted.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include "chmualert.h"
#include "chmu.bpf.h"

const volatile int targ_memdev = -1;
const volatile int targ_chmu = -1;
const volatile int targ_inst = -1;

__u64 sent;
__u64 dropped;

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 256 * 1024);
} events SEC(".maps");

static __always_inline int on_entry(int memdev, int chmu, int inst, __u64 dpa,
				    __u64 hpa, int nid, __u64 count)
{
	struct alert_entry *e;

	if ((targ_memdev >= 0 && memdev != targ_memdev) ||
	    (targ_chmu >= 0 && chmu != targ_chmu) ||
	    (targ_inst >= 0 && inst != targ_inst))
		return 0;
	e = bpf_ringbuf_reserve(&events, sizeof(*e), 0);
	if (!e) {
		__sync_fetch_and_add(&dropped, 1);
		return 0;
	}
	e->ts = bpf_ktime_get_ns();
	e->dpa = dpa;
	e->hpa = hpa;
	e->count = count;
	e->inst = CHMU_ID(memdev, chmu, inst);
	e->nid = nid;
	bpf_ringbuf_submit(e, 0);
	__sync_fetch_and_add(&sent, 1);
	return 0;
}

SEC("tp_btf/chmu_hotlist_entry")
int BPF_PROG(entry_btf, int memdev, int chmu, int inst, u64 seq, u64 unit,
	     u64 dpa, u64 hpa, int nid, u64 count, u32 unit_shift)
{
	return on_entry(memdev, chmu, inst, dpa, hpa, nid, count);
}

SEC("raw_tp/chmu_hotlist_entry")
int BPF_PROG(entry_raw, int memdev, int chmu, int inst, u64 seq, u64 unit,
	     u64 dpa, u64 hpa, int nid, u64 count, u32 unit_shift)
{
	return on_entry(memdev, chmu, inst, dpa, hpa, nid, count);
}

char LICENSE[] SEC("license") = "GPL";
