// SPDX-License-Identifier: GPL-2.0
/*
 * chmu-exporter: cumulative per-instance counters, a log2 histogram of
 * entry counts, summed counts per DPA region (a bounded map: entries of
 * regions that find no room are counted) and hot units per NUMA node of
 * the latest posting, from the chmu:chmu_hotlist_batch tracepoint (one
 * program run per drain walks its entries). User space reads the maps when
 * Prometheus scrapes; nothing is reset by reading.
 */
#include "vmlinux.h"
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include "chmu-exporter.h"
#include "chmu.bpf.h"
#include "chmuowner.bpf.h"

const volatile __u32 region_shift = 21;
const volatile bool by_cgroup;			/* --cgroups */

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, EXP_MAX_INST);
	__type(key, __u32);
	__type(value, struct exp_inst);
} insts SEC(".maps");

/*
 * Window length per instance in ns (the epoch, 1 s in always-on mode),
 * written by user space at start and on every scrape (default 1 s).
 */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, EXP_MAX_INST);
	__type(key, __u32);
	__type(value, __u64);
} windows SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(map_flags, BPF_F_NO_PREALLOC);	/* memory as regions appear */
	__uint(max_entries, EXP_DEFAULT_REGIONS);	/* set by user space */
	__type(key, struct exp_region_key);
	__type(value, struct exp_region);
} regions SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, EXP_MAX_NODES);
	__type(key, struct exp_node_key);
	__type(value, struct exp_node);
} nodes SEC(".maps");

/* --cgroups: entries by owner, at most --max-cgroups owners (all instances) */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, EXP_DEFAULT_CGROUPS);	/* set by user space */
	__type(key, struct exp_owner_key);
	__type(value, struct exp_owner);
} owners SEC(".maps");

__u64 untracked;	/* entries with no instance state (map full), or unreadable */

static const struct exp_inst zero_inst;
static const struct exp_node zero_node;
static const struct exp_region zero_region;
static const struct exp_owner zero_owner;

static __always_inline __u64 window_len(__u32 id)
{
	__u64 *len = bpf_map_lookup_elem(&windows, &id);

	return len && *len ? *len : 1000000000ULL;
}

static __always_inline void count_node(struct exp_inst *st, __u32 id, int nid)
{
	struct exp_node_key k = { .inst = id, .nid = nid };
	struct exp_node *n;

	n = chmu_lookup_init(&nodes, &k, &zero_node);
	if (!n) {
		__sync_fetch_and_add(&st->node_dropped, 1);
		return;
	}
	if (n->group != st->group) {
		n->group = st->group;
		n->cur = 0;
	}
	n->cur++;
}

struct walk {
	const struct chmu_entry *entries;
	__u32 nr;
	struct exp_inst *st;
	__u32 id;
	__u32 unit_shift;
};

/*
 * --cgroups: the run of entries of one owner being summed, on this CPU
 * (in a map, not on the walk's stack: the verifier would follow every
 * value it takes through the loop)
 */
struct owner_run {
	__u64 owner;
	__u64 entries, counts;
};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct owner_run);
} owner_runs SEC(".maps");

static __always_inline void flush_owner(struct walk *w, struct owner_run *run)
{
	struct exp_owner_key k = { .inst = w->id };
	struct exp_owner *o;

	if (!run->entries)
		return;
	k.owner = run->owner;
	o = chmu_lookup_init(&owners, &k, &zero_owner);
	if (o) {
		__sync_fetch_and_add(&o->entries, run->entries);
		__sync_fetch_and_add(&o->count_sum, run->counts);
	} else {
		__sync_fetch_and_add(&w->st->owner_dropped, run->entries);
		__sync_fetch_and_add(&w->st->owner_dropped_counts, run->counts);
	}
	run->entries = run->counts = 0;
}

/*
 * --cgroups: the entry under its unit's main owner, read at the drain;
 * summed over a run of entries of one owner, one map update per run
 */
static __always_inline void count_owner(struct walk *w, const struct chmu_ent *e)
{
	struct chmu_main_owner mo = {};
	struct owner_run *run;
	__u32 zero_key = 0;

	run = bpf_map_lookup_elem(&owner_runs, &zero_key);
	if (!run)
		return;
	chmu_main_owner(e->hpa, e->nid, 1ULL << (w->unit_shift & 63), &mo);
	if (run->entries && run->owner != mo.key)
		flush_owner(w, run);
	run->owner = mo.key;
	run->entries++;
	run->counts += e->count;
}

static long on_entry(__u32 i, void *ctx)
{
	struct walk *w = ctx;
	struct exp_region_key rk = {};
	struct exp_inst *st = w->st;
	struct exp_region *r;
	struct chmu_ent e;
	__u32 b;

	if (!st)
		return 1;
	if (chmu_entry_get(w->entries, i, w->nr, &e)) {
		__sync_fetch_and_add(&untracked, 1);
		return 0;
	}
	__sync_fetch_and_add(&st->entries, 1);
	__sync_fetch_and_add(&st->count_sum, e.count);
	b = chmu_log2(e.count);
	if (b >= EXP_HIST_BUCKETS)
		b = EXP_HIST_BUCKETS - 1;
	__sync_fetch_and_add(&st->hist[b], 1);

	rk.inst = w->id;
	rk.nid = e.nid;
	rk.slot = e.dpa >> region_shift;
	r = chmu_lookup_init(&regions, &rk, &zero_region);
	if (r) {
		__sync_fetch_and_add(&r->count_sum, e.count);
		__sync_fetch_and_add(&r->entries, 1);
	} else {
		__sync_fetch_and_add(&st->region_dropped, 1);
		__sync_fetch_and_add(&st->region_dropped_counts, e.count);
	}
	count_node(st, w->id, e.nid);
	if (by_cgroup)
		count_owner(w, &e);
	return 0;
}

/* One run per drain: the instance's counters, then its entries. */
static __always_inline int on_batch(struct chmu_batch *b)
{
	struct walk w = {};
	struct exp_inst *st;
	__u64 now;
	__u32 nr;

	if (!chmu_batch_wanted(b, &w.id))
		return 0;
	nr = BPF_CORE_READ(b, nr);
	st = chmu_lookup_init(&insts, &w.id, &zero_inst);
	if (!st) {
		__sync_fetch_and_add(&untracked, nr);
		return 0;
	}
	now = bpf_ktime_get_ns();
	st->batch_ns = now;
	/* the driver drains an instance on one CPU at a time */
	if (!st->group || now - st->group_ns >= window_len(w.id) / 2) {
		st->group++;
		st->group_ns = now;
	}
	__sync_fetch_and_add(&st->batches, 1);
	if (BPF_CORE_READ(b, overflow))
		__sync_fetch_and_add(&st->overflows, 1);
	w.entries = BPF_CORE_READ(b, entries);
	w.unit_shift = BPF_CORE_READ(b, unit_shift);
	w.nr = nr;
	if (by_cgroup)
		chmu_owner_cache_reset(0);
	w.st = st;
	if (by_cgroup) {
		__u32 zero_key = 0;
		struct owner_run *run = bpf_map_lookup_elem(&owner_runs, &zero_key);

		if (!run) {	/* cannot happen: a per-CPU array's element */
			__sync_fetch_and_add(&untracked, nr);
			return 0;
		}
		run->entries = run->counts = 0;
		if (nr && w.entries)
			bpf_loop(nr, on_entry, &w, 0);
		flush_owner(&w, run);
		return 0;
	}
	if (nr && w.entries)
		bpf_loop(nr, on_entry, &w, 0);
	return 0;
}

CHMU_BATCH_PROGS(on_batch)

char LICENSE[] SEC("license") = "GPL";
