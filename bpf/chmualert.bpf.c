// SPDX-License-Identifier: GPL-2.0
/*
 * chmualert: hand the entries of each drain of the selected instances to
 * user space, where the alert state machine runs: one program run per
 * drain (chmu:chmu_hotlist_batch), one ring-buffer record per 64 of its
 * entries. Entries the ring buffer cannot take are counted.
 */
#include "vmlinux.h"
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include "chmualert.h"
#include "chmu.bpf.h"
#include "chmuowner.bpf.h"

const volatile bool by_cgroup;			/* --by cgroup */

__u64 sent;
__u64 dropped;		/* refused by the full ring buffer */
__u64 unreadable;	/* could not be read from the driver's batch */

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 256 * 1024);
} events SEC(".maps");

/* The chunk being filled on this CPU (a program never runs twice at once on one) */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct alert_chunk);
} chunk SEC(".maps");

struct walk {
	const struct chmu_entry *entries;
	__u32 nr;
	__u32 unit_shift;
};

static __always_inline void ship(struct alert_chunk *c)
{
	__u32 n = c->n;

	if (!n)
		return;
	if (n > ALERT_CHUNK)
		n = ALERT_CHUNK;
	if (bpf_ringbuf_output(&events, c, offsetof(struct alert_chunk, e) +
			       n * sizeof(struct alert_item), 0))
		__sync_fetch_and_add(&dropped, n);
	else
		__sync_fetch_and_add(&sent, n);
	c->n = 0;
}

static long on_entry(__u32 i, void *ctx)
{
	struct walk *w = ctx;
	struct alert_chunk *c;
	struct alert_item *it;
	struct chmu_ent e;
	__u32 k = 0, n;

	c = bpf_map_lookup_elem(&chunk, &k);
	if (!c)
		return 1;
	if (chmu_entry_get(w->entries, i, w->nr, &e)) {
		__sync_fetch_and_add(&unreadable, 1);
		return 0;
	}
	n = c->n;
	if (n >= ALERT_CHUNK)
		return 1;
	it = &c->e[n];
	it->dpa = e.dpa;
	it->hpa = e.hpa;
	it->count = e.count;
	it->nid = e.nid;
	it->owner = 0;
	if (by_cgroup) {
		struct chmu_main_owner mo = {};

		chmu_main_owner(e.hpa, e.nid, 1ULL << (w->unit_shift & 63), &mo);
		it->owner = mo.key;
	}
	c->n = n + 1;
	if (c->n == ALERT_CHUNK)
		ship(c);
	return 0;
}

static __always_inline int on_batch(struct chmu_batch *b)
{
	struct alert_chunk *c;
	struct walk w = {};
	__u32 k = 0, nr, id;

	if (!chmu_batch_wanted(b, &id))
		return 0;
	nr = BPF_CORE_READ(b, nr);
	w.entries = BPF_CORE_READ(b, entries);
	w.unit_shift = BPF_CORE_READ(b, unit_shift);
	if (!nr || !w.entries)
		return 0;
	c = bpf_map_lookup_elem(&chunk, &k);
	if (!c)
		return 0;
	c->ts = bpf_ktime_get_ns();
	c->seq = BPF_CORE_READ(b, seq);
	c->inst = id;
	c->n = 0;
	w.nr = nr;
	if (by_cgroup)
		chmu_owner_cache_reset(0);
	bpf_loop(nr, on_entry, &w, 0);
	ship(c);
	return 0;
}

CHMU_BATCH_PROGS(on_batch)

char LICENSE[] SEC("license") = "GPL";
