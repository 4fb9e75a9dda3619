/* SPDX-License-Identifier: GPL-2.0 */
/* libbpf plumbing every CHMU BPF tool shares (linked into them only). */
#ifndef CHMU_BPF_USER_H
#define CHMU_BPF_USER_H

#include <signal.h>
#include <stdbool.h>
#include <bpf/libbpf.h>

/*
 * Set by SIGINT, SIGTERM and SIGHUP once chmu_catch_signals() ran, and by
 * chmu_output_broken(). Tools call chmu_catch_signals() before chmu_open()
 * (which may enable instances), so that every way out goes through their
 * cleanup and chmu_close() restores what --enable changed.
 */
extern volatile sig_atomic_t chmu_exiting;

/* libbpf messages on stderr, its debug output only when @verbose. */
void chmu_libbpf_init(bool verbose);
/* The signals above end the run; SIGPIPE is ignored (see below). */
void chmu_catch_signals(void);
/*
 * Block the signals above from now on, and put the mask that lets them in
 * into *@wait: for chmu_sleep_until() (lib/chmutool.h) and ppoll, so that
 * none arriving between a check of chmu_exiting and the wait is slept
 * through.
 */
void chmu_block_signals(sigset_t *wait);
/*
 * Flush @f; if its reader is gone (EPIPE: "tool | head") or writing
 * failed otherwise, end the run (chmu_exiting) and return true. Other
 * errors than EPIPE are reported on stderr as "TOOL: writing the output:
 * reason".
 */
bool chmu_output_broken(const char *tool, FILE *f);
/*
 * The environment check every BPF tool runs first, by probing rather than
 * guessing: the capabilities to load and attach its programs (CAP_BPF and
 * CAP_PERFMON, or CAP_SYS_ADMIN; not necessarily root), kernel BTF, the
 * chmu_hotlist_batch tracepoint (tracefs need not be mounted), and the
 * driver's module BTF with the tracepoint types as the programs read them
 * (chmu_btf_types_ok()). On failure it prints "TOOL: reason" and returns
 * false. *tp_btf says whether tp_btf programs can attach (probed as
 * libbpf-tools do: a program that does nothing, loaded for each
 * tracepoint's btf_trace_ type in the driver's BTF), else raw_tp;
 * CHMU_RAW_TP=1 in the environment forces raw_tp.
 */
bool chmu_env_ok(const char *tool, bool *tp_btf);

struct owner_names;
struct chmu_owner_req;

/*
 * Attribution (bpf/chmuowner.bpf.h): the parts of a tool's skeleton that
 * attribute, which every tool including chmuowner.bpf.h has.
 */
struct chmu_owner_bpf {
	struct bpf_map *q;		/* chmu_owner_q */
	struct bpf_map *regions;	/* chmu_owner_regions */
	struct bpf_program *resolve;	/* chmu_resolve */
	__u32 *sel;			/* .bss chmu_owner_sel */
	__u32 *budget;			/* .rodata chmu_owner_budget */
	__u64 *unattributed;		/* .bss chmu_owner_unattributed */
};

/*
 * Taken after the skeleton's open: .bss stays at the address it has then
 * (libbpf maps the map's memory over it at load)
 */
#define CHMU_OWNER_BPF(skel) ((struct chmu_owner_bpf){			\
	.q = (skel)->maps.chmu_owner_q,					\
	.regions = (skel)->maps.chmu_owner_regions,			\
	.resolve = (skel)->progs.chmu_resolve,				\
	.sel = &(skel)->bss->chmu_owner_sel,				\
	.budget = (__u32 *)&(skel)->rodata->chmu_owner_budget,		\
	.unattributed = &(skel)->bss->chmu_owner_unattributed })

/*
 * Before the skeleton's load: chmu_resolve is loaded only if @on (a tool
 * without chmuowner.bpf.h leaves @b zeroed: fine unless @on). If @on,
 * the tool's cgroup names (the first cgroup2 mount; the CXL regions are
 * read by chmu_owner_regions_sync() or the tool) into *@names and, for a tool that attributes in its drain,
 * its .rodata switch *@drain (NULL: none) set and its budget per drain
 * (chmu_attr_pages, --max-attr-pages). false, with "TOOL: reason"
 * printed, if there is no cgroup2 mount.
 */
bool chmu_owner_prepare(const char *tool, const struct chmu_owner_bpf *b,
			bool on, bool *drain, struct owner_names **names);
/*
 * After the load, before attaching: a page of the tool's own, which its
 * own cgroup owns, attributed by chmu_resolve (the kernel's page frames
 * must be what the program reads) and, for a tool that attributes in its
 * drain (@drain), the interleaved regions published. false, with
 * "TOOL: reason" printed, otherwise.
 */
bool chmu_owner_ready(const char *tool, const struct chmu_owner_bpf *b,
		      struct owner_names *names, bool drain);
/*
 * The owners of @n units in @req, in runs of CHMU_RESOLVE through the
 * queue and chmu_resolve. 0 or -errno.
 */
int chmu_owner_run(const struct chmu_owner_bpf *b, struct chmu_owner_req *req,
		   size_t n);
/*
 * The CXL regions read again, and, if those that interleave changed, the
 * new list written to the bank of chmu_owner_regions not in use and
 * published in chmu_owner_sel, for the drain's attribution. 0, or -errno
 * with "TOOL: reason" printed; more interleaved regions than
 * CHMU_OWNER_REGIONS: the first ones kept, and a warning.
 */
int chmu_owner_regions_sync(const char *tool, struct owner_names *names,
			    const struct chmu_owner_bpf *b);

/*
 * Close the interval open now (bpf/chmugen.bpf.h): advance *@gen and wait
 * until no program run still writes the closed one (@busy, the tool's
 * gen_busy; 1 s at most, so a stuck run cannot stop the tool: its counts
 * then land in the next interval taken). Returns the closed interval's
 * number, whose maps are then complete.
 */
__u32 chmu_gen_advance(__u32 *gen, __u64 *busy);

/*
 * Every element of hash map @fd (keys of @ksz bytes, values of @vsz) handed
 * to @fn with @ctx, as libbpf-tools' dump_hash does: in batches of
 * CHMU_DUMP_BATCH (a few syscalls for thousands of elements), element by
 * element where the kernel has no batch operations for the map (then a key
 * deleted between next_key and lookup is skipped). The map may change
 * meanwhile; @fn must not delete from it. @fn returns 0 to go on, or a
 * value that ends the walk and is returned; else 0 or -errno.
 */
#define CHMU_DUMP_BATCH 512
typedef int (*chmu_dump_fn)(const void *key, const void *val, void *ctx);
int chmu_map_dump(int fd, size_t ksz, size_t vsz, chmu_dump_fn fn, void *ctx);

/* Keep the tp_btf or the raw_tp program of a pair, not both. */
void chmu_pick_prog(struct bpf_program *btf, struct bpf_program *raw,
		    bool tp_btf);

#endif
