// SPDX-License-Identifier: GPL-2.0
/*
 * chmualert: threshold alerts on hot CXL memory units or regions from the
 * CHMU hotlist, with hysteresis and a per-key hold-off; one line or NDJSON
 * record per alert, optionally a command per alert.
 */
#include <argp.h>
#include <errno.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <linux/types.h>

#include "chmualert.h"
#include "chmualert.skel.h"
#include "lib/alert.h"
#include "lib/chmubpf.h"
#include "lib/chmurun.h"
#include "lib/chmutool.h"
#include "lib/owner.h"

#define TOOL "chmualert"
#define U(x) ((unsigned long long)(x))

const char *argp_program_version = TOOL " 0.1";

enum { OPT_EXEC = 1000, OPT_RINGBUF, OPT_EXEC_MAX, OPT_BY };

static struct env {
	struct alert_cfg cfg;
	bool have_threshold, have_rearm, json, verbose, by_cgroup;
	uint64_t gran, ringbuf;
	const char *exec;
	unsigned int exec_max;
	long interval, count;
} env = {
	.cfg = { .metric = ALERT_COUNT, .window = 5 },
	.interval = 1, .count = -1, .exec_max = 4,
};

static const struct argp_option opts[] = {
	{ "count", 'c', "N", 0, "Alert when a unit's hotlist count reaches N", 0 },
	{ "rate", 'R', "N", 0, "Alert when a unit's counts reach N per second over the window", 0 },
	{ "rearm", 'L', "N", 0, "Re-arm a key only once its value falls below N (default: half the threshold)", 0 },
	{ "window", 'w', "SECS", 0, "Window of the rate, and how long a count stays current (default 5)", 0 },
	{ "holdoff", 'H', "SECS", 0, "At most one alert per key every SECS seconds (default 0)", 0 },
	{ "granularity", 'g', "SIZE", 0, "Alert on regions of SIZE (a power of two) instead of units", 0 },
	{ "by", OPT_BY, "KEY", 0, "unit (default; regions with -g) or cgroup: alert per memory cgroup owning most of the units' pages, read at the drain", 0 },
	{ "exec", OPT_EXEC, "CMD", 0, "Run CMD (sh -c) per alert, the alert in CHMU_ALERT_* variables", 0 },
	{ "exec-max", OPT_EXEC_MAX, "N", 0, "At most N --exec commands at once; an alert past them runs none, counted (default 4)", 0 },
	{ "json", 'j', NULL, 0, "NDJSON records", 0 },
	{ "ringbuf-size", OPT_RINGBUF, "SIZE", 0, "BPF ring buffer size (a power of two >= 4K; default: two full drains of every selected instance, at least 256K)", 0 },
	{ "verbose", 'v', NULL, 0, "libbpf debug output", 0 },
	{},
};

static double secs_arg(struct argp_state *st, int key, const char *arg, double min)
{
	char name[64], lo[32];
	double v = 0;

	if (chmu_parse_secs(arg, &v) || v < min || v > 86400)
		argp_error(st, "%s: invalid seconds '%s' (%s..86400)",
			   chmu_argp_name(st, key, name, sizeof(name)), arg,
			   chmu_fmt_num(min, lo, sizeof(lo)));
	return v;
}

static error_t parse_arg(int key, char *arg, struct argp_state *st)
{
	switch (key) {
	case 'c':
	case 'R':
		if (env.have_threshold)
			argp_error(st, "give one of -c/--count and -R/--rate");
		env.cfg.metric = key == 'c' ? ALERT_COUNT : ALERT_RATE;
		env.cfg.threshold = chmu_argp_num(st, key, arg, 1, UINT32_MAX);
		env.have_threshold = true;
		break;
	case 'L':
		env.cfg.rearm = chmu_argp_num(st, key, arg, 0, UINT32_MAX);
		env.have_rearm = true;
		break;
	case 'w':
		env.cfg.window = secs_arg(st, key, arg, 0.001);
		break;
	case 'H':
		env.cfg.holdoff = secs_arg(st, key, arg, 0);
		break;
	case 'g':
		env.gran = chmu_argp_granularity(st, arg);
		break;
	case OPT_BY:
		env.by_cgroup = chmu_argp_by_cgroup(st, arg);
		break;
	case OPT_EXEC_MAX:
		env.exec_max = chmu_argp_num(st, key, arg, 1, 1024);
		break;
	case OPT_EXEC:
		env.exec = arg;
		break;
	case 'j':
		env.json = true;
		break;
	case OPT_RINGBUF:
		if (chmu_parse_size(arg, &env.ringbuf) || env.ringbuf < 4096 ||
		    (env.ringbuf & (env.ringbuf - 1)))
			argp_error(st, "ring buffer size must be a power of two >= 4K, not '%s'", arg);
		break;
	case 'v':
		env.verbose = true;
		break;
	case ARGP_KEY_ARG:
		return chmu_argp_interval(st, arg, &env.interval, &env.count);
	case ARGP_KEY_END:
		if (!env.have_threshold)
			argp_error(st, "give a threshold: -c/--count N or -R/--rate N");
		if (!env.have_rearm)
			env.cfg.rearm = env.cfg.threshold / 2;
		if (env.cfg.rearm > env.cfg.threshold)
			argp_error(st, "the re-arm level must not exceed the threshold");
		if (env.by_cgroup && env.gran)
			argp_error(st, "-g and --by cgroup exclude each other: a key is a region or a cgroup");
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

struct state {
	struct alert_table table;
	struct chmu_inst *insts;
	int ninst;
	double mono_to_real;	/* add to CLOCK_MONOTONIC seconds */
	unsigned int shift;
	struct owner_names *names;	/* --by cgroup */
	uint64_t received;
	/* --exec: commands running (their pids), and those skipped or failed */
	unsigned int hooks;
	pid_t *hook_pids;	/* env.exec_max */
	bool ending;		/* end_hooks() signals what is left */
	uint64_t hooks_skipped, hooks_failed, hooks_killed;
};

/*
 * At the end of the run, the --exec commands still running get this long
 * to end; then their process groups get SIGTERM, and SIGKILL
 * EXEC_KILL_GRACE seconds later.
 */
#define EXEC_GRACE	5.0
#define EXEC_KILL_GRACE	1.0

/*
 * Collect the --exec commands that ended (all of them, waiting, when
 * @wait), reporting failures. Commands run beside the ring buffer's
 * consumer, never inside it: a slow one must not turn into dropped
 * entries.
 */
static void reap_hooks(struct state *s, bool wait)
{
	int status;
	pid_t pid;

	while (s->hooks && (pid = waitpid(-1, &status, wait ? 0 : WNOHANG)) > 0) {
		for (unsigned int k = 0; k < s->hooks; k++)
			if (s->hook_pids[k] == pid)
				s->hook_pids[k] = s->hook_pids[s->hooks - 1];
		s->hooks--;
		if (s->ending && WIFSIGNALED(status))
			continue;	/* ended by end_hooks(): counted there */
		if (!WIFEXITED(status) || WEXITSTATUS(status)) {
			s->hooks_failed++;
			fprintf(stderr, TOOL ": --exec command failed (status %d)\n",
				WIFEXITED(status) ? WEXITSTATUS(status) : -1);
		}
	}
}

static double mono_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/*
 * The commands still running at the end: waited for EXEC_GRACE seconds,
 * then their process groups ended (counted in hooks_killed). A command
 * that never ends must not keep chmualert, and the instances it enabled,
 * from ending.
 */
static void end_hooks(struct state *s)
{
	double end = mono_now() + EXEC_GRACE;
	int sig = 0;

	for (;;) {
		reap_hooks(s, false);
		if (!s->hooks)
			return;
		if (mono_now() >= end) {
			if (sig == SIGKILL) {
				reap_hooks(s, true);
				return;
			}
			sig = sig ? SIGKILL : SIGTERM;
			if (sig == SIGTERM)
				s->hooks_killed += s->hooks;
			s->ending = true;
			for (unsigned int k = 0; k < s->hooks; k++)
				kill(-s->hook_pids[k], sig);
			end = mono_now() + EXEC_KILL_GRACE;
		}
		usleep(20000);
	}
}

static const char *inst_name(struct state *s, uint32_t id)
{
	for (int i = 0; i < s->ninst; i++)
		if (s->insts[i].id == id)
			return s->insts[i].name;
	return "?";
}

static void run_exec(struct state *s, const struct alert_event *ev,
		     const char *inst, uint64_t dpa, const char *cgroup, double when)
{
	char buf[64];
	pid_t pid;

	reap_hooks(s, false);
	if (s->hooks >= env.exec_max) {
		s->hooks_skipped++;
		return;
	}
	fflush(stdout);
	pid = fork();
	if (pid < 0) {
		fprintf(stderr, TOOL ": --exec: fork: %s\n", strerror(errno));
		return;
	}
	if (!pid) {
		sigset_t none;

		/* the signals chmualert blocks outside its waits are the command's */
		sigemptyset(&none);
		sigprocmask(SIG_SETMASK, &none, NULL);
		setpgid(0, 0);	/* its own group: what it starts ends with it */
		snprintf(buf, sizeof(buf), "%.6f", when);
		setenv("CHMU_ALERT_TIME", buf, 1);
		setenv("CHMU_ALERT_INSTANCE", inst, 1);
		if (cgroup) {
			setenv("CHMU_ALERT_CGROUP", cgroup, 1);
		} else {
			snprintf(buf, sizeof(buf), "0x%llx", U(dpa));
			setenv("CHMU_ALERT_DPA", buf, 1);
		}
		if (ev->hpa != ~0ULL)
			snprintf(buf, sizeof(buf), "0x%llx", U(ev->hpa));
		else
			buf[0] = '\0';
		setenv("CHMU_ALERT_HPA", buf, 1);
		snprintf(buf, sizeof(buf), "%d", ev->nid);
		setenv("CHMU_ALERT_NID", buf, 1);
		setenv("CHMU_ALERT_METRIC", env.cfg.metric == ALERT_COUNT ? "count" : "rate", 1);
		setenv("CHMU_ALERT_VALUE", chmu_fmt_num(ev->value, buf, sizeof(buf)), 1);
		setenv("CHMU_ALERT_THRESHOLD",
		       chmu_fmt_num(env.cfg.threshold, buf, sizeof(buf)), 1);
		signal(SIGPIPE, SIG_DFL);	/* ignored by chmualert only */
		execl("/bin/sh", "sh", "-c", env.exec, (char *)NULL);
		_exit(127);
	}
	setpgid(pid, pid);	/* either may run first */
	s->hook_pids[s->hooks++] = pid;
}

static void report(struct state *s, const struct alert_event *ev)
{
	const char *inst = inst_name(s, ev->key.inst);
	uint64_t dpa = env.by_cgroup ? 0 : ev->key.slot << s->shift;
	char cgroup[256] = "";
	double when = ev->time + s->mono_to_real;
	const char *metric = env.cfg.metric == ALERT_COUNT ? "count" : "rate";
	char tbuf[16], hpa[24], nid[16], val[64], thr[64], key[320];
	time_t t = (time_t)when;

	if (env.by_cgroup)
		snprintf(cgroup, sizeof(cgroup), "%s", owner_key_name(s->names, ev->key.slot));
	if (env.json) {
		chmu_json_begin_at(stdout, "alert", when);
		chmu_json_str(stdout, "instance", inst);
		if (env.by_cgroup)
			chmu_json_str(stdout, "cgroup", cgroup);
		else
			chmu_json_u64(stdout, "dpa", dpa);
		if (ev->hpa != ~0ULL)
			chmu_json_u64(stdout, "hpa", ev->hpa);
		chmu_json_i64(stdout, "nid", ev->nid);
		chmu_json_str(stdout, "metric", metric);
		fprintf(stdout, ",\"value\":%s,\"threshold\":%s",
			chmu_fmt_num(ev->value, val, sizeof(val)),
			chmu_fmt_num(env.cfg.threshold, thr, sizeof(thr)));
		chmu_json_end(stdout);
	} else {
		chmu_fmt_clock(t, tbuf, sizeof(tbuf));
		if (ev->hpa != ~0ULL)
			snprintf(hpa, sizeof(hpa), "0x%llx", U(ev->hpa));
		else
			snprintf(hpa, sizeof(hpa), "-");
		if (ev->nid >= 0)
			snprintf(nid, sizeof(nid), "%d", ev->nid);
		else
			snprintf(nid, sizeof(nid), "-");
		/* the key: a cgroup (--by cgroup), or a unit or region */
		if (env.by_cgroup)
			snprintf(key, sizeof(key), "cgroup %s hpa %s", cgroup, hpa);
		else
			snprintf(key, sizeof(key), "hpa %s dpa 0x%llx", hpa, U(dpa));
		printf("%s ALERT %s %s nid %s %s %s%s >= %s%s\n",
		       tbuf, inst, key, nid, metric,
		       chmu_fmt_num(ev->value, val, sizeof(val)),
		       env.cfg.metric == ALERT_RATE ? "/s" : "",
		       chmu_fmt_num(env.cfg.threshold, thr, sizeof(thr)),
		       env.cfg.metric == ALERT_RATE ? "/s" : "");
		fflush(stdout);
	}
	if (env.exec && !chmu_exiting)
		run_exec(s, ev, inst, dpa, env.by_cgroup ? cgroup : NULL, when);
}

static int handle_event(void *ctx, void *data, size_t len)
{
	struct state *s = ctx;
	const struct alert_chunk *c = data;
	const size_t hdr = offsetof(struct alert_chunk, e);
	struct alert_key key;
	struct alert_event ev;
	uint32_t i, n;

	if (len < hdr)
		return 0;
	n = (len - hdr) / sizeof(c->e[0]);
	if (n > c->n)
		n = c->n;
	key.inst = c->inst;
	for (i = 0; i < n; i++) {
		const struct alert_item *e = &c->e[i];

		s->received++;
		key.slot = env.by_cgroup ? e->owner : e->dpa >> s->shift;
		if (alert_observe(&s->table, &key, c->ts / 1e9, c->seq, e->count,
				  e->hpa, e->nid, &ev))
			report(s, &ev);
	}
	return 0;
}

/* The end of the run: the --exec commands ended, then the summary */
static void run_end(struct state *s, struct chmualert_bpf *skel)
{
	end_hooks(s);	/* the commands still running end first */
	if (s->hooks_skipped)
		fprintf(stderr, TOOL ": %llu alerts ran no --exec command: %u were running (--exec-max)\n",
			U(s->hooks_skipped), env.exec_max);
	if (s->hooks_killed)
		fprintf(stderr, TOOL ": %llu --exec commands still running %.0f s after the end were ended (SIGTERM to their process groups)\n",
			U(s->hooks_killed), EXEC_GRACE);
	if (env.json) {
		chmu_json_begin(stdout, "summary");
		chmu_json_u64(stdout, "alerts", s->table.alerts);
		chmu_json_u64(stdout, "suppressed", s->table.suppressed);
		chmu_json_u64(stdout, "rearmed", s->table.rearms);
		chmu_json_u64(stdout, "entries", s->received);
		chmu_json_u64(stdout, "dropped", skel->bss->dropped);
		chmu_json_u64(stdout, "unreadable", skel->bss->unreadable);
		if (env.by_cgroup)
			chmu_json_u64(stdout, "unattributed", skel->bss->chmu_owner_unattributed);
		chmu_json_u64(stdout, "untracked", s->table.full);
		chmu_json_u64(stdout, "reclaimed", s->table.reclaimed);
		chmu_json_u64(stdout, "evicted", s->table.evicted);
		if (env.exec) {
			chmu_json_u64(stdout, "exec_skipped", s->hooks_skipped);
			chmu_json_u64(stdout, "exec_failed", s->hooks_failed);
			chmu_json_u64(stdout, "exec_killed", s->hooks_killed);
		}
		chmu_json_end(stdout);
	} else {
		fprintf(stderr, TOOL ": %llu alerts, %llu suppressed by the hold-off, %llu re-armed; %llu entries seen, %llu dropped, %llu untracked\n",
			U(s->table.alerts), U(s->table.suppressed), U(s->table.rearms),
			U(s->received), U(skel->bss->dropped), U(s->table.full));
		if (skel->bss->unreadable)
			fprintf(stderr, TOOL ": %llu entries could not be read from the driver's batch\n",
				U(skel->bss->unreadable));
		if (skel->bss->chmu_owner_unattributed)
			fprintf(stderr, TOOL ": %llu entries not attributed (cgroup unattributed): each drain reads %u struct pages at most (--max-attr-pages)\n",
				U(skel->bss->chmu_owner_unattributed), chmu_attr_pages);
		if (s->table.reclaimed)
			fprintf(stderr, TOOL ": %llu idle keys dropped to make room in the key table (%zu keys)\n",
				U(s->table.reclaimed), s->table.max);
		if (s->table.evicted)
			fprintf(stderr, TOOL ": %llu keys still current evicted to make room in the key table (%zu keys): they start again armed\n",
				U(s->table.evicted), s->table.max);
	}
}

/* What the loop's callbacks share */
struct alert_run {
	struct state *s;
	struct chmualert_bpf *skel;
	uint64_t dropped;	/* reported so far */
};

/* After every wake-up (100 ms at most): the alerts' clock, the commands */
static void on_wake(void *ctx)
{
	struct alert_run *r = ctx;

	alert_tick(&r->s->table, mono_now());
	reap_hooks(r->s, false);
}

/* Every interval: what the full ring buffer refused meanwhile */
static int on_interval(void *ctx, uint64_t n)
{
	struct alert_run *r = ctx;
	uint64_t d = r->skel->bss->dropped;

	(void)n;
	if (d != r->dropped) {
		fprintf(stderr, TOOL ": %llu hotlist entries dropped by the full ring buffer (%llu in all)\n",
			U(d - r->dropped), U(d));
		r->dropped = d;
	}
	return 0;
}

int main(int argc, char **argv)
{
	static const struct argp argp = {
		.options = opts,
		.parser = parse_arg,
		.children = chmu_argp_children_attr,
		.args_doc = "[interval [count]]",
		.doc = "Threshold alerts on hot CXL memory (CHMU hotlists), with hysteresis.\n\n"
		       "EXAMPLES:\n"
		       "  chmualert -c 200                # a unit's count reaches 200; re-arm below 100\n"
		       "  chmualert -R 1000 -w 10 -g 2M   # a 2 MiB region above 1000 counts/s over 10 s\n"
		       "  chmualert -c 200 -H 60 --exec 'logger hot $CHMU_ALERT_HPA'\n",
	};
	struct chmualert_bpf *skel = NULL;
	struct ring_buffer *rb = NULL;
	struct state s = {};
	struct chmu_tool t = { .name = TOOL, .verbose = &env.verbose };
	struct alert_run run = { .s = &s };
	struct chmu_loop loop = { .wake_ms = 100, .on_interval = on_interval,
				  .on_wake = on_wake, .ctx = &run };
	struct timespec rt, mt;
	int err, n;

	err = chmu_tool_start(&t, &argp, argc, argv);
	if (err)
		return err;
	s.insts = t.insts;
	s.ninst = n = t.ninst;
	s.hook_pids = calloc(env.exec_max, sizeof(*s.hook_pids));
	if (!s.hook_pids || alert_init(&s.table, &env.cfg, 65536)) {
		fprintf(stderr, TOOL ": out of memory\n");
		err = CHMU_EXIT_ENV;
		goto cleanup;
	}
	s.shift = 63;
	for (int i = 0; i < n; i++)
		if (s.insts[i].unit_shift < s.shift)
			s.shift = s.insts[i].unit_shift;
	if (env.gran)
		s.shift = __builtin_ctzll(env.gran);
	clock_gettime(CLOCK_REALTIME, &rt);
	clock_gettime(CLOCK_MONOTONIC, &mt);
	s.mono_to_real = (rt.tv_sec - mt.tv_sec) + (rt.tv_nsec - mt.tv_nsec) / 1e9;

	skel = chmualert_bpf__open();
	if (!skel) {
		fprintf(stderr, TOOL ": cannot open the BPF object: %s\n", strerror(errno));
		err = CHMU_EXIT_ENV;
		goto cleanup;
	}
	run.skel = skel;
	CHMU_TOOL_TARGETS(skel);
	/*
	 * Two whole drains of every instance (its hotlist full) while the
	 * consumer is away, unless the size was given
	 */
	if (!env.ringbuf) {
		uint64_t entries = 0;

		for (int i = 0; i < n; i++)
			entries += s.insts[i].hotlist_size;
		env.ringbuf = alert_ringbuf_size(entries, 2, ALERT_CHUNK,
						 offsetof(struct alert_chunk, e),
						 sizeof(struct alert_item), 256 * 1024);
	}
	bpf_map__set_max_entries(skel->maps.events, env.ringbuf);
	t.owner = CHMU_OWNER_BPF(skel);
	err = chmu_tool_load(&t, skel->skeleton, skel->progs.batch_btf, skel->progs.batch_raw,
			     env.by_cgroup, &skel->rodata->by_cgroup);
	if (err)
		goto cleanup;
	s.names = t.names;
	rb = ring_buffer__new(bpf_map__fd(skel->maps.events), handle_event, &s, NULL);
	if (!rb) {
		fprintf(stderr, TOOL ": cannot open the ring buffer: %s\n", strerror(errno));
		err = CHMU_EXIT_ENV;
		goto cleanup;
	}
	if (!env.json) {
		char thr[64], rearm[64], win[64];

		fprintf(stderr, "Watching %d CHMU instance%s: %s >= %s%s, re-arm below %s, window %s s... Ctrl-C to end.\n",
			n, n == 1 ? "" : "s",
			env.cfg.metric == ALERT_COUNT ? "count" : "rate",
			chmu_fmt_num(env.cfg.threshold, thr, sizeof(thr)),
			env.cfg.metric == ALERT_RATE ? "/s" : "",
			chmu_fmt_num(env.cfg.rearm, rearm, sizeof(rearm)),
			chmu_fmt_num(env.cfg.window, win, sizeof(win)));
	}

	loop.interval = env.interval;
	loop.count = env.count;
	loop.rb = rb;
	if (chmu_tool_loop(&t, &loop) < 0) {
		err = CHMU_EXIT_ENV;
		goto cleanup;
	}
	run_end(&s, skel);
	err = 0;

cleanup:
	ring_buffer__free(rb);
	chmualert_bpf__destroy(skel);
	chmu_tool_stop(&t);
	alert_free(&s.table);
	free(s.hook_pids);
	return err;
}
