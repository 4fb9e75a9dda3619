// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE	/* ppoll */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "chmurun.h"
#include "owner.h"

int chmu_tool_start(struct chmu_tool *t, const struct argp *argp, int argc, char **argv)
{
	int err, cnt = 0;

	argp_err_exit_status = CHMU_EXIT_USAGE;
	if (argp_parse(argp, argc, argv, 0, NULL, NULL))
		return CHMU_EXIT_USAGE;
	if (!chmu_env_ok(t->name, &t->tp_btf))
		return CHMU_EXIT_ENV;
	chmu_libbpf_init(t->verbose && *t->verbose);
	tzset();	/* once: the tools' clocks use localtime_r() */
	/* before --enable: every way out goes through the cleanup */
	chmu_catch_signals();
	chmu_block_signals(&t->waitmask);
	if (!t->any_instance || chmu_opts.enable)
		return chmu_open(t->name, &t->insts, &t->ninst);
	/* a daemon: the instances there are, enabled or not */
	err = chmu_list(&t->insts, &cnt);
	if (err && err != -ENOENT) {
		fprintf(stderr, "%s: cannot list " CHMU_SYSFS_DEVICES ": %s\n", t->name,
			strerror(-err));
		return CHMU_EXIT_ENV;
	}
	if (!cnt) {
		fprintf(stderr, "%s: no CHMU instance in " CHMU_SYSFS_DEVICES " (cxl_hmu bound?)\n",
			t->name);
		return CHMU_EXIT_ENV;
	}
	t->ninst = chmu_select(t->insts, cnt, chmu_opts.memdev, chmu_opts.chmu, chmu_opts.inst);
	if (!t->ninst) {
		fprintf(stderr, "%s: no CHMU instance matches the -m/-i selection\n", t->name);
		return CHMU_EXIT_ENV;
	}
	return 0;
}

int chmu_tool_load(struct chmu_tool *t, struct bpf_object_skeleton *s,
		   struct bpf_program *btf, struct bpf_program *raw,
		   bool attribute, bool *drain)
{
	int err;

	chmu_pick_prog(btf, raw, t->tp_btf);
	if (!chmu_owner_prepare(t->name, &t->owner, attribute, drain, &t->names))
		return CHMU_EXIT_ENV;
	t->drain_attr = attribute && drain;
	err = bpf_object__load_skeleton(s);
	if (err) {
		fprintf(stderr, "%s: cannot load the BPF programs: %s\n", t->name, strerror(-err));
		return CHMU_EXIT_ENV;
	}
	if (attribute && !chmu_owner_ready(t->name, &t->owner, t->names, t->drain_attr))
		return CHMU_EXIT_ENV;
	err = bpf_object__attach_skeleton(s);
	if (err) {
		fprintf(stderr, "%s: cannot attach to the chmu tracepoints: %s\n", t->name,
			strerror(-err));
		return CHMU_EXIT_ENV;
	}
	return 0;
}

int chmu_tool_loop(struct chmu_tool *t, const struct chmu_loop *l)
{
	uint64_t step = l->interval * 1000000000ULL, deadline = chmu_now_ns(), n = 0, now;
	const sigset_t *mask = l->waitmask ? l->waitmask : &t->waitmask;
	/* a negative fd is ignored by ppoll */
	struct pollfd pfd[2] = {
		{ .fd = l->rb ? ring_buffer__epoll_fd(l->rb) : -1, .events = POLLIN },
		{ .fd = l->on_input ? l->in_fd : -1, .events = POLLIN },
	};
	int err;

	while (!chmu_exiting && (l->count < 0 || n < (uint64_t)l->count)) {
		/* the next interval's end; after a stall, a whole one from now */
		deadline += step;
		if (deadline <= chmu_now_ns())
			deadline = chmu_now_ns() + step;
		while (!chmu_exiting && (now = chmu_now_ns()) < deadline) {
			uint64_t wait = deadline - now;
			struct timespec ts;

			if (l->wake_ms && wait > l->wake_ms * 1000000ULL)
				wait = l->wake_ms * 1000000ULL;
			ts.tv_sec = wait / 1000000000ULL;
			ts.tv_nsec = wait % 1000000000ULL;

			/* the ending signals come in only here */
			if (ppoll(pfd, 2, &ts, mask) > 0) {
				if (l->rb && (pfd[0].revents & POLLIN)) {
					err = ring_buffer__consume(l->rb);
					if (err < 0 && err != -EINTR) {
						fprintf(stderr, "%s: ring buffer: %s\n",
							t->name, strerror(-err));
						return err;
					}
				}
				if ((pfd[1].revents & (POLLIN | POLLHUP | POLLERR)) &&
				    !l->on_input(l->ctx, l->in_fd))
					pfd[1].fd = -1;
			}
			if (l->on_wake)
				l->on_wake(l->ctx);
			if (chmu_output_broken(t->name, stdout))
				return 0;
		}
		/* an ending signal still closes the interval it cut short */
		if (t->drain_attr)	/* regions made or gone meanwhile */
			chmu_owner_regions_sync(t->name, t->names, &t->owner);
		err = l->on_interval(l->ctx, n++);
		if (err)
			return err;
		if (chmu_output_broken(t->name, stdout))
			break;
	}
	if (l->rb)
		ring_buffer__consume(l->rb);
	return 0;
}

void chmu_tool_stop(struct chmu_tool *t)
{
	owner_names_free(t->names);
	t->names = NULL;
	chmu_close(t->insts, t->ninst);
	t->insts = NULL;
	t->ninst = 0;
}
