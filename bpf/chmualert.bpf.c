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


__u64 sent;
__u64 dropped;

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 256 * 1024);
} events SEC(".maps");

static __always_inline int on_entry(int memdev, int chmu, int inst, __u64 seq,
				    __u64 dpa, __u64 hpa, int nid, __u64 count)
{
	struct alert_entry *e;

	if (!chmu_wanted(memdev, chmu, inst))
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
	e->seq = seq;
	e->inst = CHMU_ID(memdev, chmu, inst);
	e->nid = nid;
	bpf_ringbuf_submit(e, 0);
	__sync_fetch_and_add(&sent, 1);
	return 0;
}

CHMU_ENTRY_PROGS(on_entry)

char LICENSE[] SEC("license") = "GPL";
