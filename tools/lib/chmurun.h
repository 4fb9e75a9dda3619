/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The runtime every CHMU BPF tool runs in, in libbpf-tools' order: check
 * the environment, catch the signals, select (and with --enable enable)
 * the instances, then, around the tool's own skeleton (opened and
 * configured by the tool: its .rodata is its own), choose the batch
 * program, prepare attribution, load, check attribution, attach; one
 * interval loop (ppoll with a signal mask: a signal that ends the run is
 * never slept through; a ring buffer consumed as records come; the
 * interval's end on a fixed schedule); and one cleanup. A tool supplies
 * what is its own: configure (between chmu_tool_start() and
 * chmu_tool_load()), on_interval (chmu_loop), on_exit (after the loop).
 *
 *	struct chmu_tool t = { .name = TOOL, .verbose = &env.verbose };
 *
 *	err = chmu_tool_start(&t, &argp, argc, argv);
 *	if (err)
 *		return err;
 *	skel = tool_bpf__open();			configure: rodata, map sizes
 *	CHMU_TOOL_TARGETS(skel);
 *	t.owner = CHMU_OWNER_BPF(skel);
 *	err = chmu_tool_load(&t, skel->skeleton, skel->progs.batch_btf,
 *			     skel->progs.batch_raw, attribute, &skel->rodata->by_cgroup);
 *	err = chmu_tool_loop(&t, &loop);			on_interval
 *	...						on_exit
 *	tool_bpf__destroy(skel);
 *	chmu_tool_stop(&t);
 *
 * A new tool: tools/NAME.c, tools/NAME.h and bpf/NAME.bpf.c, NAME in the
 * Makefile's BPF_TOOLS (README, "Adding a tool").
 */
#ifndef CHMU_RUN_H
#define CHMU_RUN_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <bpf/libbpf.h>

#include "chmubpf.h"
#include "chmutool.h"

struct owner_names;

struct chmu_tool {
	const char *name;		/* "chmutop": the prefix of every message */
	const bool *verbose;		/* -v (the tool's), read after parsing */
	bool any_instance;		/* start with no instance enabled (a daemon) */
	/* set by chmu_tool_start() */
	bool tp_btf;			/* tp_btf programs attach, else raw_tp */
	struct chmu_inst *insts;
	int ninst;
	sigset_t waitmask;		/* the mask that lets the ending signals in */
	/* the tool's, before chmu_tool_load(): CHMU_OWNER_BPF(skel) */
	struct chmu_owner_bpf owner;
	/* set by chmu_tool_load() with attribution */
	struct owner_names *names;
	bool drain_attr;		/* it attributes in its drain program */
};

/* The instance selection (-m, -i) into the skeleton's .rodata */
#define CHMU_TOOL_TARGETS(skel) do {					\
	(skel)->rodata->targ_memdev = chmu_opts.memdev;			\
	(skel)->rodata->targ_chmu = chmu_opts.chmu;			\
	(skel)->rodata->targ_inst = chmu_opts.inst;			\
} while (0)

/*
 * The command line (@argp: usage errors exit 1, with one line), the
 * environment check (chmu_env_ok()), libbpf's messages, the signals
 * that end the run (caught, and blocked but in waitmask: chmu_tool_loop()
 * and chmu_sleep_until() let them in while waiting), and the instances
 * (chmu_open(): listed, selected, enabled with --enable; with
 * any_instance, listed and selected only). 0, or the exit status with its
 * one-line reason printed.
 */
#include <argp.h>
int chmu_tool_start(struct chmu_tool *t, const struct argp *argp, int argc, char **argv);

/*
 * Keep the tp_btf or the raw_tp program of the pair; attribution's
 * program only if @attribute, and then the drain's switch *@drain (NULL:
 * the tool attributes per frame, not in its drain) set; load; with
 * attribution, its start-up check; attach. 0, or CHMU_EXIT_ENV with the
 * reason printed.
 */
int chmu_tool_load(struct chmu_tool *t, struct bpf_object_skeleton *s,
		   struct bpf_program *btf, struct bpf_program *raw,
		   bool attribute, bool *drain);

/*
 * The interval loop: until a signal ends the run or @count intervals
 * (< 0: no end), every @interval seconds from the start (after a stall,
 * a whole one from then) on_interval(ctx, n), n from 0. Meanwhile the
 * ring buffer @rb (or none) is consumed as records come and on_wake(ctx)
 * (or none) runs after each wake-up, at least every @wake_ms (0: at the
 * interval's end only). Before each on_interval, a tool that
 * attributes in its drain has the CXL regions read again. on_interval
 * returns 0 to go on, > 0 to stop (returned), < 0 for an error (returned).
 */
struct chmu_loop {
	long interval, count;
	long wake_ms;
	struct ring_buffer *rb;
	int (*on_interval)(void *ctx, uint64_t n);
	void (*on_wake)(void *ctx);
	/* input to wait for as well (a terminal's keys): on_input when in_fd
	 * is readable (or hung up); only with on_input set. It returns false
	 * when in_fd is no longer worth waiting for (hung up, end of file) */
	bool (*on_input)(void *ctx, int fd);
	int in_fd;
	/* the mask while waiting, if the tool lets more signals in (a
	 * terminal's resize and stop); t->waitmask otherwise */
	const sigset_t *waitmask;
	void *ctx;
};
int chmu_tool_loop(struct chmu_tool *t, const struct chmu_loop *l);

/* What chmu_tool_start() and _load() set up, undone; --enable's restored. */
void chmu_tool_stop(struct chmu_tool *t);

#endif
