// SPDX-License-Identifier: GPL-2.0
/*
 * chmu-workload: generate known accesses to CXL memory in the lab guest.
 *
 * Memory is a device-DAX mapping (--dax /dev/daxX.Y), or anonymous memory
 * placed by the caller's policy (numactl --membind) or bound with --node.
 *
 *   verify  write a pattern over the area, read it back, count mismatches;
 *           for anonymous memory also report on which nodes the pages are.
 *   touch   perform exactly COUNT 8-byte accesses at the base of each
 *           listed unit (--units 3,7,10-12 of --unit-size bytes); for
 *           anonymous memory also print each unit's physical address,
 *           and with --hold each unit's node before the accesses, then
 *           keep the memory until SIGUSR1 and print the nodes again (to
 *           see what was promoted).
 *   stream  --passes sequential passes of 8-byte accesses over the area,
 *           timed: reports accesses and accesses per second.
 *   zipf    --accesses 8-byte accesses to units drawn from a Zipf
 *           distribution (exponent --zipf, seeded permutation of the
 *           units, a random word within each unit), timed; --truth FILE
 *           writes the exact count per unit: the ground truth for make
 *           bench (physical addresses for anonymous memory, offsets in
 *           the device for device DAX). --shift moves the hot set
 *           halfway (a new permutation) and also writes FILE.after, the
 *           counts of the second half alone; shift_ns says when (from
 *           the first timed access), shift_time_ns too (CLOCK_REALTIME,
 *           to line the shift up with other tools' clocks, as are
 *           start_time_ns and end_time_ns: the timed accesses' span).
 *           --hot-units K draws --hot-share percent of the accesses from
 *           the Zipf over K units picked at random (moved by --shift),
 *           the rest uniform over the area: a hot set inside a larger
 *           working set. --duration runs for a time instead of a count;
 *           --progress prints the accesses so far every interval with
 *           those that went to pages on --node; --placement writes each
 *           unit's accesses, final node and hot-set membership (make
 *           bench's promotion section).
 *   move    move the resident pages of another process (--pid) in
 *           [--addr, --addr + --size) to --node, shared ones too
 *           (move_pages(2) with MPOL_MF_MOVE_ALL: root), without
 *           giving them any memory policy; prints where they are then.
 *           make bench places a server's shared memory with it.
 *   balloon take --size bytes of --node's memory as pipe buffers, kernel
 *           pages on no LRU list: nothing reclaims, demotes or migrates
 *           them (DAMON included, which migrates even mlocked pages);
 *           held=PID until SIGUSR1. make bench's tiering runs fill the
 *           fast tier with it.
 *   pin     lock the pages of each FILE given in memory (mlock of a
 *           read-only shared mapping: the page cache pages every process
 *           runs from), then held=PID until SIGUSR1: make bench keeps
 *           the programs' code out of its tiering runs (under TCG code
 *           on the CXL node runs a thousand times slower, not two).
 *   mark    reset|dump [TAG]: execute the tiermem instrument's marker
 *           (qemu/plugins/tiermem.c, lib/tiermark.h): reset its counts, or
 *           dump them tagged TAG. --mark TAG on touch, stream and zipf
 *           does both around the accesses themselves.
 *
 * Results are printed as key=value lines. Every access is a single aligned
 * 8-byte load or store through a volatile pointer, so under TCG each one
 * reaches the emulated device exactly once.
 */
#include <argp.h>
#include <errno.h>
#include <signal.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "lib/memspec.h"
#include "lib/procmap.h"
#include "lib/tiermark.h"
#include "lib/tierstat.h"
#include "lib/zipf.h"

#define MAX_UNITS 65536
#define OPT_LOCK 0x100
#define OPT_PID 0x101
#define OPT_ADDR 0x102
#define OPT_CGROUP 0x103
#define OPT_MARK 0x104
#define OPT_FAST_NODE 0x105
#define OPT_WINDOW 0x106
#define MAX_NODES 64
#define MPOL_DEFAULT 0
#define MPOL_BIND 2
#define MPOL_MF_STRICT (1 << 0)
#define MPOL_MF_MOVE_ALL (1 << 2)
#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23
#endif
#ifndef F_SETPIPE_SZ
#define F_SETPIPE_SZ 1031	/* F_LINUX_SPECIFIC_BASE + 7 */
#endif

const char *argp_program_version = "chmu-workload 0.1";

static struct env {
	const char *mode;
	const char *dax;
	int node;
	int anon;
	uint64_t size;
	uint64_t unit_size;
	uint64_t count;
	uint64_t passes;
	uint64_t *units;
	int nr_units;
	int write;
	uint64_t seed;
	uint64_t accesses;
	double zipf_s;
	const char *truth;
	int wait_signal;
	int hold;
	int no_thp;
	int shift;
	uint64_t duration_ms;	/* zipf: run this long instead of --accesses */
	uint64_t progress_ms;
	uint32_t hot_units;	/* zipf: the Zipf draw covers these units */
	uint32_t hot_share;	/* percent of accesses to them */
	int have_hot_share;
	const char *placement;
	int movable;
	int lock;
	int have_size;
	int pid;		/* move: the process */
	uint64_t addr;		/* move: the range's start in it */
	const char *cgroup;	/* the memory cgroup the area is charged to */
	char **files;		/* pin: the files */
	int nr_files;
	int have_mark;		/* --mark: the instrument's reset and dump */
	uint64_t mark_tag;
	int mark_cmd;		/* mark: TIERMARK_RESET or TIERMARK_DUMP */
	int fast_node;		/* zipf --progress: the fast tier, for the regret */
	uint32_t window_from;	/* zipf: the regret window starts at this percent */
} env = {
	.node = -1,
	.size = 16 << 20,
	.unit_size = 4096,
	.count = 1,
	.passes = 1,
	.seed = 0x5eedc0ffee0ddf00ULL,
	.accesses = 1000000,
	.zipf_s = 1.0,
	.hot_share = 90,
	.fast_node = 0,
};

static const struct argp_option opts[] = {
	{ "dax", 'd', "DEV", 0, "Map a device-DAX character device", 0 },
	{ "anon", 'a', NULL, 0, "Use anonymous memory (placed by numactl)", 0 },
	{ "node", 'n', "NODE", 0, "Use anonymous memory bound to NODE", 0 },
	{ "size", 's', "SIZE", 0, "Bytes to map (default 16M)", 0 },
	{ "unit-size", 'u', "SIZE", 0, "Unit size for touch (default 4096)", 0 },
	{ "units", 'U', "LIST", 0, "Units to touch: 3,7,10-12", 0 },
	{ "count", 'c', "N", 0, "Accesses per unit for touch (default 1)", 0 },
	{ "passes", 'p', "N", 0, "Passes over the area for stream (default 1)", 0 },
	{ "write", 'w', NULL, 0, "touch/stream/zipf with stores instead of loads", 0 },
	{ "accesses", 'N', "N", 0, "Accesses for zipf (default 1000000)", 0 },
	{ "zipf", 'z', "S", 0, "Zipf exponent for zipf (default 1.0; 0 = uniform)", 0 },
	{ "seed", 'S', "N", 0, "Seed for zipf (default fixed: runs repeat)", 0 },
	{ "truth", 'T', "FILE", 0, "zipf: write the exact count per unit to FILE", 0 },
	{ "shift", 'H', NULL, 0, "zipf: move the hot set halfway through (with "
	  "--truth, FILE.after has the second half's counts)", 0 },
	{ "wait", 'W', NULL, 0, "zipf/stream/touch: once the memory is allocated, "
	  "print ready=PID and wait for SIGUSR1 before the accesses", 0 },
	{ "hold", 'o', NULL, 0, "touch on anonymous memory: print each unit's node "
	  "before the accesses, then held=PID, keep the memory until SIGUSR1 and "
	  "print the nodes again", 0 },
	{ "no-thp", 't', NULL, 0, "Anonymous memory in base pages (MADV_NOHUGEPAGE)", 0 },
	{ "lock", OPT_LOCK, NULL, 0, "Anonymous memory: lock it in memory once "
	  "allocated (mlock: never reclaimed, demoted or migrated; a balloon)", 0 },
	{ "mark", OPT_MARK, "TAG", 0, "touch, stream, zipf: reset the tiermem "
	  "instrument (qemu/plugins/tiermem.c) just before the accesses and dump its "
	  "counts, tagged TAG, just after them", 0 },
	{ "cgroup", OPT_CGROUP, "DIR", 0, "Anonymous memory: charge the area to the "
	  "cgroup v2 directory DIR (the process joins it while the area is allocated, "
	  "then returns to its own cgroup, where everything else it allocates is "
	  "charged)", 0 },
	{ "movable", 'm', NULL, 0, "With --node: once allocated there, give the area the "
	  "default policy back, so that the kernel may migrate it (NUMA balancing)", 0 },
	{ "duration", 'D', "SECS", 0, "zipf: run SECS seconds instead of --accesses "
	  "(--shift moves the hot set at half time)", 0 },
	{ "progress", 'P', "MS", 0, "zipf: every MS ms print the accesses so far, "
	  "those of the interval to pages on --node, the units on --fast-node and "
	  "the interval's placement regret; at the end the regret over the window", 0 },
	{ "fast-node", OPT_FAST_NODE, "NODE", 0, "zipf --progress: the fast tier's "
	  "node (default 0)", 0 },
	{ "window-from", OPT_WINDOW, "PERCENT", 0, "zipf --progress: the regret "
	  "window starts when PERCENT of the accesses (or of --duration) are done "
	  "(default 0: the whole run)", 0 },
	{ "hot-units", 'k', "K", 0, "zipf: draw --hot-share of the accesses from a "
	  "Zipf over K units scattered at random, the rest uniform over all", 0 },
	{ "hot-share", 'r', "PERCENT", 0, "zipf: share of accesses to the hot units "
	  "(default 90)", 0 },
	{ "placement", 'L', "FILE", 0, "zipf on anonymous memory: write each unit's "
	  "accesses (each half with --shift), node and hot-set membership to FILE", 0 },
	{ "pid", OPT_PID, "PID", 0, "move: the process whose pages move", 0 },
	{ "addr", OPT_ADDR, "ADDR", 0, "move: start of the range (hex, as in "
	  "/proc/PID/maps; a page boundary), --size bytes long", 0 },
	{ 0 },
};

static const char doc[] =
	"Generate known accesses to CXL memory.\v"
	"MODE is verify, touch, stream, zipf, move, balloon, pin (then FILE...), "
	"mark (then reset or dump, and a TAG: the tiermem instrument's marker) or "
	"sigframe (a signal frame "
	"that starts in RAM and ends in the device's first page: XSAVE and "
	"XRSTOR across the two; needs --dax). Examples:\n"
	"  chmu-workload verify --dax /dev/dax0.0 --size 16M\n"
	"  numactl --membind=1 chmu-workload verify --anon --size 4M\n"
	"  chmu-workload touch --dax /dev/dax0.0 --units 3,7 --count 1000\n"
	"  chmu-workload stream --dax /dev/dax0.0 --size 2M --passes 4\n"
	"  chmu-workload zipf --node 1 --size 16M --accesses 2M --truth /tmp/t\n"
	"  chmu-workload move --pid 4242 --addr 7f12a0000000 --size 64M --node 1\n"
	"  chmu-workload pin /usr/lib/x86_64-linux-gnu/libc.so.6\n"
	"  chmu-workload balloon --node 0 --size 1G\n"
	"  chmu-workload mark dump 7";

/* --mark TAG, mark reset|dump TAG: a decimal tag */
static void parse_tag(const char *arg, struct argp_state *state)
{
	char *end;

	errno = 0;
	env.mark_tag = strtoull(arg, &end, 10);
	if (errno || *end || end == arg || arg[0] == '-')
		argp_error(state, "invalid tag '%s' (a decimal number)", arg);
}

static error_t parse_arg(int key, char *arg, struct argp_state *state)
{
	long v;
	char *end;

	switch (key) {
	case 'd':
		env.dax = arg;
		break;
	case 'a':
		env.anon = 1;
		break;
	case 'n':
		errno = 0;
		v = strtol(arg, &end, 10);
		if (errno || *end || v < 0 || v >= MAX_NODES)
			argp_error(state, "invalid node '%s'", arg);
		env.node = (int)v;
		break;
	case 's':
		if (parse_size(arg, &env.size) || !env.size)
			argp_error(state, "invalid size '%s'", arg);
		env.have_size = 1;
		break;
	case 'u':
		if (parse_size(arg, &env.unit_size) || env.unit_size < 8 ||
		    (env.unit_size & (env.unit_size - 1)))
			argp_error(state, "invalid unit size '%s' (power of two >= 8)", arg);
		break;
	case 'U':
		env.units = calloc(MAX_UNITS, sizeof(*env.units));
		if (!env.units)
			argp_failure(state, 2, ENOMEM, "units");
		env.nr_units = parse_u64_list(arg, env.units, MAX_UNITS);
		if (env.nr_units < 0)
			argp_error(state, "invalid unit list '%s'", arg);
		break;
	case 'c':
		if (parse_size(arg, &env.count))
			argp_error(state, "invalid count '%s'", arg);
		break;
	case 'p':
		if (parse_size(arg, &env.passes) || !env.passes)
			argp_error(state, "invalid pass count '%s'", arg);
		break;
	case 'w':
		env.write = 1;
		break;
	case 'N':
		if (parse_size(arg, &env.accesses) || !env.accesses)
			argp_error(state, "invalid access count '%s'", arg);
		break;
	case 'z':
		errno = 0;
		env.zipf_s = strtod(arg, &end);
		if (errno || *end || end == arg || !(env.zipf_s >= 0) || env.zipf_s > 16)
			argp_error(state, "invalid Zipf exponent '%s' (0 to 16)", arg);
		break;
	case 'S':
		errno = 0;
		env.seed = strtoull(arg, &end, 0);
		if (errno || *end || end == arg)
			argp_error(state, "invalid seed '%s'", arg);
		break;
	case 'T':
		env.truth = arg;
		break;
	case 'W':
		env.wait_signal = 1;
		break;
	case 'H':
		env.shift = 1;
		break;
	case 'o':
		env.hold = 1;
		break;
	case OPT_LOCK:
		env.lock = 1;
		break;
	case 'm':
		env.movable = 1;
		break;
	case 'D':
		if (parse_size(arg, &env.duration_ms) || !env.duration_ms ||
		    env.duration_ms > 86400)
			argp_error(state, "invalid duration '%s' (1 to 86400 s)", arg);
		env.duration_ms *= 1000;
		break;
	case 'P':
		if (parse_size(arg, &env.progress_ms) || !env.progress_ms ||
		    env.progress_ms > 3600000)
			argp_error(state, "invalid progress interval '%s' (1 to 3600000 ms)", arg);
		break;
	case 'k':
		errno = 0;
		v = strtol(arg, &end, 10);
		if (errno || *end || v < 1 || v > (1L << 24))
			argp_error(state, "invalid hot unit count '%s'", arg);
		env.hot_units = (uint32_t)v;
		break;
	case 'r':
		errno = 0;
		v = strtol(arg, &end, 10);
		if (errno || *end || v < 0 || v > 100)
			argp_error(state, "invalid hot share '%s' (0 to 100)", arg);
		env.hot_share = (uint32_t)v;
		env.have_hot_share = 1;
		break;
	case 'L':
		env.placement = arg;
		break;
	case 't':
		env.no_thp = 1;
		break;
	case OPT_CGROUP:
		env.cgroup = arg;
		break;
	case OPT_FAST_NODE:
		errno = 0;
		v = strtol(arg, &end, 10);
		if (errno || *end || end == arg || v < 0 || v >= MAX_NODES)
			argp_error(state, "invalid fast node '%s'", arg);
		env.fast_node = (int)v;
		break;
	case OPT_WINDOW:
		errno = 0;
		v = strtol(arg, &end, 10);
		if (errno || *end || end == arg || v < 0 || v > 99)
			argp_error(state, "invalid window start '%s' (a percent, 0-99)", arg);
		env.window_from = (uint32_t)v;
		break;
	case OPT_MARK:
		parse_tag(arg, state);
		env.have_mark = 1;
		break;
	case OPT_PID:
		errno = 0;
		v = strtol(arg, &end, 10);
		if (errno || *end || end == arg || v < 1 || v > INT32_MAX)
			argp_error(state, "invalid PID '%s'", arg);
		env.pid = (int)v;
		break;
	case OPT_ADDR:
		errno = 0;
		env.addr = strtoull(arg, &end, 16);
		if (errno || *end || end == arg || arg[0] == '-' ||
		    env.addr % (uint64_t)sysconf(_SC_PAGESIZE))
			argp_error(state, "invalid address '%s' (hex, a page boundary)", arg);
		break;
	case ARGP_KEY_ARG:
		if (state->arg_num && env.mode && !strcmp(env.mode, "mark")) {
			if (state->arg_num == 1 && !strcmp(arg, "reset")) {
				env.mark_cmd = TIERMARK_RESET;
			} else if (state->arg_num == 1 && !strcmp(arg, "dump")) {
				env.mark_cmd = TIERMARK_DUMP;
			} else if (state->arg_num == 2) {
				parse_tag(arg, state);
			} else {
				argp_error(state, "mark takes reset or dump, then a TAG");
			}
			break;
		}
		if (state->arg_num && env.mode && !strcmp(env.mode, "pin")) {
			char **f = realloc(env.files, (env.nr_files + 1) * sizeof(*f));

			if (!f)
				argp_failure(state, 2, ENOMEM, "files");
			env.files = f;
			env.files[env.nr_files++] = arg;
			break;
		}
		if (state->arg_num)
			argp_usage(state);
		if (strcmp(arg, "verify") && strcmp(arg, "touch") &&
		    strcmp(arg, "stream") && strcmp(arg, "zipf") &&
		    strcmp(arg, "sigframe") && strcmp(arg, "move") &&
		    strcmp(arg, "pin") && strcmp(arg, "balloon") && strcmp(arg, "mark"))
			argp_error(state, "unknown mode '%s'", arg);
		env.mode = arg;
		break;
	case ARGP_KEY_END:
		if (!env.mode)
			argp_error(state, "no MODE given");
		if (!strcmp(env.mode, "pin")) {
			if (!env.nr_files)
				argp_error(state, "pin needs a FILE");
			if (env.dax || env.anon || env.node >= 0 || env.pid || env.addr ||
			    env.have_size || env.lock || env.movable || env.no_thp || env.cgroup)
				argp_error(state, "pin takes FILE... only");
			break;
		}
		if (!strcmp(env.mode, "mark")) {
			if (!env.mark_cmd)
				argp_error(state, "mark needs reset or dump");
			if (env.dax || env.anon || env.node >= 0 || env.pid || env.addr ||
			    env.have_size || env.have_mark || env.cgroup)
				argp_error(state, "mark takes reset or dump and a TAG only");
			break;
		}
		if (!strcmp(env.mode, "balloon")) {
			if (env.node < 0 || !env.have_size || env.dax || env.anon || env.pid ||
			    env.addr || env.lock || env.movable || env.no_thp || env.cgroup)
				argp_error(state, "balloon needs --node and --size only");
			break;
		}
		if (!strcmp(env.mode, "move")) {
			if (!env.pid || !env.addr || env.node < 0 || !env.have_size || env.dax ||
			    env.anon || env.lock || env.movable || env.no_thp || env.cgroup)
				argp_error(state, "move needs --pid, --addr, --size and --node only");
			if (env.size % (uint64_t)sysconf(_SC_PAGESIZE))
				argp_error(state, "move: --size is not a whole number of pages");
			break;
		}
		if (env.pid || env.addr)
			argp_error(state, "--pid and --addr are for move");
		if (!!env.dax + env.anon + (env.node >= 0) != 1)
			argp_error(state, "give exactly one of --dax, --anon, --node");
		if (!strcmp(env.mode, "touch") && !env.nr_units)
			argp_error(state, "touch needs --units");
		if (env.truth && strcmp(env.mode, "zipf"))
			argp_error(state, "--truth is for zipf");
		if (env.shift && strcmp(env.mode, "zipf"))
			argp_error(state, "--shift is for zipf");
		if ((env.duration_ms || env.progress_ms || env.hot_units || env.placement) &&
		    strcmp(env.mode, "zipf"))
			argp_error(state, "--duration, --progress, --hot-units and --placement are for zipf");
		if (env.placement && (env.dax || env.unit_size != (uint64_t)sysconf(_SC_PAGESIZE)))
			argp_error(state, "--placement needs anonymous memory and --unit-size of one page");
		if (env.movable && env.node < 0)
			argp_error(state, "--movable needs --node");
		if (env.progress_ms && env.node < 0)
			argp_error(state, "--progress needs --node");
		if (env.window_from && !env.progress_ms)
			argp_error(state, "--window-from needs --progress");
		if (env.have_mark && strcmp(env.mode, "touch") && strcmp(env.mode, "stream") &&
		    strcmp(env.mode, "zipf"))
			argp_error(state, "--mark is for touch, stream and zipf");
		if (env.progress_ms && env.unit_size != (uint64_t)sysconf(_SC_PAGESIZE))
			argp_error(state, "--progress needs --unit-size of one page");
		if (env.have_hot_share && !env.hot_units)
			argp_error(state, "--hot-share needs --hot-units");
		if (env.hot_units && env.hot_units > env.size / env.unit_size)
			argp_error(state, "--hot-units is more than the units of --size");
		if (env.hold && (strcmp(env.mode, "touch") || env.dax))
			argp_error(state, "--hold is for touch on anonymous memory");
		if (env.lock && env.dax)
			argp_error(state, "--lock is for anonymous memory");
		if (env.no_thp && env.dax)
			argp_error(state, "--no-thp is for anonymous memory");
		if (env.cgroup && env.dax)
			argp_error(state, "--cgroup is for anonymous memory");
		if (!strcmp(env.mode, "zipf") && env.size / env.unit_size < 1)
			argp_error(state, "--size is smaller than one unit");
		if (!strcmp(env.mode, "zipf") && env.size / env.unit_size > (1U << 24))
			argp_error(state, "zipf takes at most 16777216 units");
		if (env.truth && !env.dax && env.unit_size != (uint64_t)sysconf(_SC_PAGESIZE))
			argp_error(state, "--truth on anonymous memory needs --unit-size of one page");
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

/* this process into the cgroup v2 directory @dir; 0, or -1 said in one line */
static int cgroup_move(const char *dir)
{
	char path[PATH_MAX], pid[16];
	int fd, n, err = 0;

	snprintf(path, sizeof(path), "%s/cgroup.procs", dir);
	n = snprintf(pid, sizeof(pid), "%d\n", (int)getpid());
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0 || write(fd, pid, n) != n)
		err = -1;
	if (err)
		fprintf(stderr, "chmu-workload: cgroup %s: %s\n", dir, strerror(errno));
	if (fd >= 0)
		close(fd);
	return err;
}

/*
 * This process's cgroup v2 directory into @buf: the cgroup2 mount (from
 * /proc/self/mounts) joined with the path in /proc/self/cgroup ("0::/x").
 */
static int own_cgroup(char *buf, size_t len)
{
	char line[PATH_MAX + 64], mnt[PATH_MAX] = "", rel[PATH_MAX] = "", type[16];
	FILE *f = fopen("/proc/self/mounts", "r");

	while (f && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%*s %4095s %15s", mnt, type) == 2 && !strcmp(type, "cgroup2"))
			break;
		mnt[0] = 0;
	}
	if (f)
		fclose(f);
	f = fopen("/proc/self/cgroup", "r");
	while (f && fgets(line, sizeof(line), f))
		if (!strncmp(line, "0::", 3) && sscanf(line + 3, "%4095s", rel) == 1)
			break;
	if (f)
		fclose(f);
	if (!mnt[0] || rel[0] != '/' ||
	    (size_t)snprintf(buf, len, "%s%s", mnt, rel) >= len) {
		fprintf(stderr, "chmu-workload: --cgroup: no cgroup v2 hierarchy for this process\n");
		return -1;
	}
	return 0;
}

/*
 * Allocate every page of the area now (the kernel zeroes them), so that
 * the workload's own accesses are exactly the ones it counts and loads do
 * not land on the shared zero page. With --cgroup the process is in DIR
 * for this call alone: the area is charged there, and what the process
 * allocates before and after (stack, heap, its libraries' data) is
 * charged to its own cgroup (make bench keeps those out of reach of
 * reclaim and DAMON's filters with it).
 */
static int populate(void *p)
{
	char home[PATH_MAX];
	int err = 0;

	if (env.cgroup && (own_cgroup(home, sizeof(home)) || cgroup_move(env.cgroup)))
		return -1;
	if (madvise(p, env.size, MADV_POPULATE_WRITE)) {
		fprintf(stderr, "chmu-workload: populate: %s\n", strerror(errno));
		err = -1;
	}
	if (env.cgroup && cgroup_move(home))
		err = -1;
	return err;
}

static void *map_area(void)
{
	void *p;
	int fd;

	if (env.dax) {
		fd = open(env.dax, O_RDWR);
		if (fd < 0) {
			fprintf(stderr, "chmu-workload: %s: %s\n", env.dax, strerror(errno));
			return NULL;
		}
		p = mmap(NULL, env.size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
		close(fd);
		if (p == MAP_FAILED) {
			fprintf(stderr, "chmu-workload: mmap %s (%llu bytes): %s%s\n",
				env.dax, (unsigned long long)env.size, strerror(errno),
				errno == EINVAL ? " (size must be a multiple of the device's align)" : "");
			return NULL;
		}
		return p;
	}
	p = mmap(NULL, env.size, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED) {
		fprintf(stderr, "chmu-workload: mmap: %s\n", strerror(errno));
		return NULL;
	}
	if (env.node >= 0) {
		unsigned long mask = 1UL << env.node;

		if (syscall(SYS_mbind, p, env.size, MPOL_BIND, &mask,
			    sizeof(mask) * 8, MPOL_MF_STRICT)) {
			fprintf(stderr, "chmu-workload: mbind node %d: %s\n",
				env.node, strerror(errno));
			munmap(p, env.size);
			return NULL;
		}
	}
	if (env.no_thp && madvise(p, env.size, MADV_NOHUGEPAGE)) {
		fprintf(stderr, "chmu-workload: no THP: %s\n", strerror(errno));
		munmap(p, env.size);
		return NULL;
	}
	if (populate(p)) {
		munmap(p, env.size);
		return NULL;
	}
	if (env.lock && mlock(p, env.size)) {
		fprintf(stderr, "chmu-workload: mlock: %s\n", strerror(errno));
		munmap(p, env.size);
		return NULL;
	}
	/* MPOL_BIND forbids NUMA balancing's migrations: drop it once placed */
	if (env.movable && syscall(SYS_mbind, p, env.size, MPOL_DEFAULT, NULL, 0, 0)) {
		fprintf(stderr, "chmu-workload: mbind default: %s\n", strerror(errno));
		munmap(p, env.size);
		return NULL;
	}
	return p;
}

/* Report how many of the area's pages sit on each node (move_pages query). */
static int report_nodes(void *area)
{
	long page = sysconf(_SC_PAGESIZE);
	unsigned long n = env.size / page;
	unsigned long per_node[MAX_NODES] = { 0 };
	void **pages = calloc(n, sizeof(*pages));
	int *status = calloc(n, sizeof(*status));
	int err = 0;

	if (!pages || !status) {
		err = -ENOMEM;
		goto out;
	}
	for (unsigned long i = 0; i < n; i++)
		pages[i] = (char *)area + i * page;
	if (syscall(SYS_move_pages, 0, n, pages, NULL, status, 0)) {
		err = -errno;
		fprintf(stderr, "chmu-workload: move_pages: %s\n", strerror(errno));
		goto out;
	}
	for (unsigned long i = 0; i < n; i++) {
		if (status[i] < 0 || status[i] >= MAX_NODES) {
			fprintf(stderr, "chmu-workload: page %lu: status %d\n", i, status[i]);
			err = -EIO;
			goto out;
		}
		per_node[status[i]]++;
	}
	for (int i = 0; i < MAX_NODES; i++)
		if (per_node[i])
			printf("pages_node%d=%lu\n", i, per_node[i]);
out:
	free(pages);
	free(status);
	return err;
}

/*
 * move: the resident pages of env.pid in [addr, addr + size) to env.node,
 * in chunks, a page the kernel could not move tried again (up to three
 * passes: one under migration or locked is busy for a moment); pages not
 * present are left alone. Prints the pages on each node afterwards,
 * absent= and failed=. Non-zero if the call fails or a page stays behind.
 */
static int do_move(void)
{
	enum { CHUNK = 1024, UNSET = INT32_MIN };
	long page = sysconf(_SC_PAGESIZE);
	uint64_t n = env.size / page, absent = 0, failed = 0;
	unsigned long per_node[MAX_NODES] = { 0 };
	void *pages[CHUNK];
	int nodes[CHUNK], status[CHUNK], st[CHUNK];
	unsigned int slot[CHUNK];

	for (uint64_t i = 0; i < n; i += CHUNK) {
		unsigned int c = n - i < CHUNK ? (unsigned int)(n - i) : CHUNK;

		for (unsigned int j = 0; j < c; j++)
			st[j] = -EAGAIN;
		for (int pass = 0; pass < 3; pass++) {
			unsigned int k = 0;

			for (unsigned int j = 0; j < c; j++) {
				if (st[j] != -EBUSY && st[j] != -EAGAIN && st[j] != -ENOMEM)
					continue;
				pages[k] = (void *)(uintptr_t)(env.addr + (i + j) * page);
				nodes[k] = env.node;
				status[k] = UNSET;
				slot[k++] = j;
			}
			if (!k)
				break;
			/*
			 * > 0: that many pages not migrated; the kernel stops
			 * storing statuses at the batch that failed, so what it
			 * left UNSET is tried again
			 */
			if (syscall(SYS_move_pages, env.pid, (unsigned long)k, pages,
				    nodes, status, MPOL_MF_MOVE_ALL) < 0) {
				fprintf(stderr, "chmu-workload: move_pages of PID %d: %s\n",
					env.pid, strerror(errno));
				return 1;
			}
			for (unsigned int j = 0; j < k; j++)
				st[slot[j]] = status[j] == UNSET ? -EAGAIN : status[j];
		}
		/* where the range is now, whatever the moves said */
		for (unsigned int j = 0; j < c; j++)
			pages[j] = (void *)(uintptr_t)(env.addr + (i + j) * page);
		if (syscall(SYS_move_pages, env.pid, (unsigned long)c, pages, NULL,
			    status, 0) < 0) {
			fprintf(stderr, "chmu-workload: move_pages of PID %d: %s\n",
				env.pid, strerror(errno));
			return 1;
		}
		for (unsigned int j = 0; j < c; j++) {
			if (status[j] >= 0 && status[j] < MAX_NODES) {
				per_node[status[j]]++;
				if (status[j] != env.node)
					failed++;
			} else if (status[j] == -ENOENT || status[j] == -EFAULT) {
				absent++;
			} else {
				failed++;
			}
		}
	}
	for (int i = 0; i < MAX_NODES; i++)
		if (per_node[i])
			printf("pages_node%d=%lu\n", i, per_node[i]);
	printf("absent=%llu\nfailed=%llu\n", (unsigned long long)absent,
	       (unsigned long long)failed);
	return failed ? 1 : 0;
}

static int wait_usr1(void);

/*
 * balloon: --size bytes of --node's memory in pipe buffers (the pipes'
 * pages are allocated under this process's policy, bound to the node),
 * in pipes of at most 8 MiB (F_SETPIPE_SZ past pipe-max-size needs
 * CAP_SYS_RESOURCE: root), never read; one descriptor each. Prints balloon_kb= and held=PID,
 * and gives it all back on SIGUSR1.
 */
static int do_balloon(void)
{
	enum { PIPE_BYTES = 8 << 20 };	/* a 2048-slot ring: an order-5 kmalloc */
	unsigned long mask = 1UL << env.node;
	uint64_t left = env.size, held = 0;
	static char buf[1 << 16];
	int fd[2], n = 0;

	if (syscall(SYS_set_mempolicy, MPOL_BIND, &mask, sizeof(mask) * 8)) {
		fprintf(stderr, "chmu-workload: bind to node %d: %s\n", env.node, strerror(errno));
		return 1;
	}
	memset(buf, 0x5a, sizeof(buf));
	while (left) {
		uint64_t want = left < PIPE_BYTES ? left : PIPE_BYTES, put = 0;

		if (pipe(fd)) {
			fprintf(stderr, "chmu-workload: pipe %d: %s\n", n, strerror(errno));
			return 1;
		}
		n++;
		/* rounded up to a power of two pages by the kernel */
		if (fcntl(fd[1], F_SETPIPE_SZ, (int)want) < 0) {
			fprintf(stderr, "chmu-workload: pipe of %llu bytes: %s%s\n",
				(unsigned long long)want, strerror(errno),
				errno == EPERM ? " (past /proc/sys/fs/pipe-max-size: CAP_SYS_RESOURCE)" : "");
			return 1;
		}
		fcntl(fd[1], F_SETFL, O_NONBLOCK);
		while (put < want) {
			size_t c = want - put < sizeof(buf) ? want - put : sizeof(buf);
			ssize_t w = write(fd[1], buf, c);

			if (w <= 0) {
				fprintf(stderr, "chmu-workload: filling pipe %d: %s\n", n,
					w < 0 ? strerror(errno) : "full");
				return 1;
			}
			put += w;
		}
		/* the read end alone keeps the pipe and its pages */
		close(fd[1]);
		held += put;
		left -= want;
	}
	printf("balloon_kb=%llu\npipes=%d\nheld=%d\n", (unsigned long long)(held >> 10), n,
	       (int)getpid());
	fflush(stdout);
	return wait_usr1();
}

/*
 * pin: each file mapped read-only and shared, and locked: mlock() reads in
 * every page of it and keeps it from reclaim and demotion, for whichever
 * process maps it. pinned_kb=, then held=PID; SIGUSR1 lets them go.
 */
static int do_pin(void)
{
	uint64_t kb = 0;

	for (int i = 0; i < env.nr_files; i++) {
		struct stat st;
		void *p;
		int fd = open(env.files[i], O_RDONLY);

		if (fd < 0 || fstat(fd, &st)) {
			fprintf(stderr, "chmu-workload: %s: %s\n", env.files[i], strerror(errno));
			if (fd >= 0)
				close(fd);
			return 1;
		}
		if (!st.st_size) {
			close(fd);
			continue;
		}
		p = mmap(NULL, st.st_size, PROT_READ, MAP_SHARED, fd, 0);
		close(fd);
		if (p == MAP_FAILED || mlock(p, st.st_size)) {
			fprintf(stderr, "chmu-workload: pin %s: %s\n", env.files[i], strerror(errno));
			return 1;
		}
		kb += (st.st_size + 1023) / 1024;
	}
	printf("pinned_kb=%llu\nheld=%d\n", (unsigned long long)kb, (int)getpid());
	fflush(stdout);
	return wait_usr1();
}

static int do_verify(void *area)
{
	volatile uint64_t *w = area;
	uint64_t n = env.size / sizeof(*w), bad = 0;

	for (uint64_t i = 0; i < n; i++)
		w[i] = (i * 8) ^ env.seed;
	for (uint64_t i = 0; i < n; i++)
		if (w[i] != ((i * 8) ^ env.seed))
			bad++;
	printf("words=%llu\nmismatches=%llu\n", (unsigned long long)n,
	       (unsigned long long)bad);
	if (!env.dax && report_nodes(area))
		return 1;
	return bad ? 1 : 0;
}

/* Physical address of @p from /proc/self/pagemap, 0 when unknown. */
static uint64_t phys_addr(void *p)
{
	long page = sysconf(_SC_PAGESIZE);
	uint64_t pfn = procmap_self_pfn(p);

	return pfn ? pfn * page + (uintptr_t)p % page : 0;
}

/*
 * --hold: print the node of each touched unit's first page as KEYI=N
 * (move_pages query; -1 if it cannot be told).
 */
static int print_unit_nodes(void *area, const char *key)
{
	void **pages = calloc(env.nr_units, sizeof(*pages));
	int *status = calloc(env.nr_units, sizeof(*status));
	int err = 0;

	if (!pages || !status) {
		err = -ENOMEM;
		goto out;
	}
	for (int i = 0; i < env.nr_units; i++)
		pages[i] = (char *)area + env.units[i] * env.unit_size;
	if (syscall(SYS_move_pages, 0, (unsigned long)env.nr_units, pages, NULL, status, 0)) {
		err = -errno;
		fprintf(stderr, "chmu-workload: move_pages: %s\n", strerror(errno));
		goto out;
	}
	for (int i = 0; i < env.nr_units; i++)
		printf("%s%d=%d\n", key, i, status[i] < 0 ? -1 : status[i]);
out:
	free(pages);
	free(status);
	return err;
}

static int wait_usr1(void)
{
	sigset_t set;
	int sig;

	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	if (sigwait(&set, &sig)) {
		fprintf(stderr, "chmu-workload: sigwait failed\n");
		return 1;
	}
	return 0;
}

/* --mark: the instrument's counts cover the accesses alone */
static void mark_start(void)
{
	if (env.have_mark)
		tiermark(TIERMARK_RESET, env.mark_tag);
}

static void mark_end(void)
{
	if (env.have_mark)
		tiermark(TIERMARK_DUMP, env.mark_tag);
}

static int wait_start(void);

static int do_touch(void *area)
{
	uint64_t sink = 0;

	for (int i = 0; i < env.nr_units; i++) {
		if ((env.units[i] + 1) * env.unit_size > env.size) {
			fprintf(stderr, "chmu-workload: unit %llu lies beyond --size\n",
				(unsigned long long)env.units[i]);
			return 1;
		}
	}
	/* --hold: where each unit is before any access (nothing hot yet) */
	if (env.hold && print_unit_nodes(area, "node"))
		return 1;
	if (wait_start())
		return 1;
	mark_start();
	for (int i = 0; i < env.nr_units; i++) {
		volatile uint64_t *w = (volatile uint64_t *)
			((char *)area + env.units[i] * env.unit_size);

		for (uint64_t c = 0; c < env.count; c++) {
			if (env.write)
				*w = c;
			else
				sink += *w;
		}
	}
	mark_end();
	/* For anonymous memory, where each touched unit is (root only). */
	if (!env.dax) {
		for (int i = 0; i < env.nr_units; i++) {
			uint64_t pa = phys_addr((char *)area + env.units[i] * env.unit_size);

			if (pa)
				printf("phys%d=0x%llx\n", i, (unsigned long long)pa);
		}
	}
	printf("units=%d\naccesses=%llu\nop=%s\n", env.nr_units,
	       (unsigned long long)(env.count * env.nr_units),
	       env.write ? "write" : "read");
	(void)sink;
	if (env.hold) {
		printf("held=%d\n", (int)getpid());
		fflush(stdout);
		if (wait_usr1() || print_unit_nodes(area, "after"))
			return 1;
	}
	return 0;
}

#if defined(__x86_64__)
static volatile sig_atomic_t sigframe_seen;

/* On the alternate stack: clobber xmm8, which sigreturn must restore */
static void sigframe_handler(int sig)
{
	(void)sig;
	__asm__ volatile("movq %0, %%xmm8" : : "r"(0xdeaddeaddeaddeadULL) : "xmm8");
	sigframe_seen = 1;
}

/*
 * sigframe: an alternate signal stack whose top lies 256 bytes into the
 * device's first page, the rest below it in RAM: the kernel's XSAVE of
 * the signal frame and sigreturn's XRSTOR cross from RAM into the device
 * (an emulator must take its slow path for the second page). xmm8 holds
 * a value across the signal, which clobbers it: sigreturn must restore it
 * from the frame. Prints sigframe=ok.
 */
static int do_sigframe(void)
{
	const uint64_t want = 0x1122334455667788ULL;
	size_t align = 2 << 20, below = 64 << 10;
	char *res, *dev;
	uint64_t got, rax;
	struct sigaction sa = { .sa_handler = sigframe_handler, .sa_flags = SA_ONSTACK };
	stack_t ss;
	int fd;

	if (!env.dax) {
		fprintf(stderr, "chmu-workload: sigframe needs --dax\n");
		return 1;
	}
	fd = open(env.dax, O_RDWR);
	if (fd < 0) {
		fprintf(stderr, "chmu-workload: %s: %s\n", env.dax, strerror(errno));
		return 2;
	}
	/* RAM, then the device mapped over it from a 2 MiB boundary */
	res = mmap(NULL, 2 * align, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (res == MAP_FAILED) {
		fprintf(stderr, "chmu-workload: mmap: %s\n", strerror(errno));
		close(fd);
		return 2;
	}
	dev = (char *)(((uintptr_t)res + below + align - 1) & ~(uintptr_t)(align - 1));
	if (mmap(dev, align, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, fd, 0) == MAP_FAILED) {
		fprintf(stderr, "chmu-workload: mmap %s at a 2 MiB boundary: %s\n", env.dax,
			strerror(errno));
		close(fd);
		munmap(res, 2 * align);
		return 2;
	}
	close(fd);
	memset(dev - below, 0, below + 256);	/* fault both in */
	ss.ss_sp = dev - below;
	ss.ss_size = below + 256;
	ss.ss_flags = 0;
	if (sigaltstack(&ss, NULL) || sigaction(SIGUSR2, &sa, NULL)) {
		fprintf(stderr, "chmu-workload: sigaltstack: %s\n", strerror(errno));
		munmap(res, 2 * align);
		return 2;
	}
	/* kill(getpid(), SIGUSR2) with xmm8 set: delivered on the way out */
	rax = SYS_kill;
	__asm__ volatile("movq %2, %%xmm8\n\t"
			 "syscall\n\t"
			 "movq %%xmm8, %1"
			 : "+a"(rax), "=r"(got)
			 : "r"(want), "D"((long)getpid()), "S"((long)SIGUSR2)
			 : "rcx", "r11", "memory", "xmm8");
	ss.ss_flags = SS_DISABLE;
	sigaltstack(&ss, NULL);
	munmap(res, 2 * align);
	if (rax != 0 || !sigframe_seen) {
		fprintf(stderr, "chmu-workload: sigframe: the signal was not delivered\n");
		return 1;
	}
	if (got != want) {
		fprintf(stderr, "chmu-workload: sigframe: xmm8 0x%llx after sigreturn, not 0x%llx\n",
			(unsigned long long)got, (unsigned long long)want);
		return 1;
	}
	printf("sigframe=ok\n");
	return 0;
}
#else
static int do_sigframe(void)
{
	fprintf(stderr, "chmu-workload: sigframe is for x86-64\n");
	return 1;
}
#endif

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

/*
 * --wait: SIGUSR1 is blocked from the start (main), so a signal sent as
 * soon as ready= is printed cannot be lost; wait for it here.
 */
static int wait_start(void)
{
	if (!env.wait_signal)
		return 0;
	printf("ready=%d\n", (int)getpid());
	fflush(stdout);
	return wait_usr1();
}

static int do_stream(void *area)
{
	volatile uint64_t *w = area;
	uint64_t n = env.size / sizeof(*w), sink = 0, t0, ns;

	/* Fault the area in first so the timed passes measure accesses only. */
	for (uint64_t i = 0; i < n; i += 512)
		w[i] = 0;
	if (wait_start())
		return 1;
	mark_start();
	t0 = now_ns();
	for (uint64_t p = 0; p < env.passes; p++) {
		for (uint64_t i = 0; i < n; i++) {
			if (env.write)
				w[i] = p;
			else
				sink += w[i];
		}
	}
	ns = now_ns() - t0;
	mark_end();
	printf("accesses=%llu\nns=%llu\nrate=%.0f\nop=%s\n",
	       (unsigned long long)(n * env.passes), (unsigned long long)ns,
	       ns ? (double)n * env.passes * 1e9 / ns : 0.0,
	       env.write ? "write" : "read");
	(void)sink;
	return 0;
}

/*
 * Physical addresses of @n consecutive pages from @p, from one read of
 * /proc/self/pagemap (root only); 0 for a page not present. 0 or -errno.
 */
static int phys_pages(void *p, uint64_t n, uint64_t *pa)
{
	long page = sysconf(_SC_PAGESIZE);
	ssize_t len = n * sizeof(*pa);
	int fd = open("/proc/self/pagemap", O_RDONLY), err = 0;

	if (fd < 0)
		return -errno;
	if (pread(fd, pa, len, (uintptr_t)p / page * sizeof(*pa)) != len)
		err = errno ? -errno : -EIO;
	close(fd);
	for (uint64_t i = 0; !err && i < n; i++) {
		uint64_t pfn = pa[i] & ((1ULL << 55) - 1);

		pa[i] = (pa[i] & (1ULL << 63)) && pfn ? pfn * page : 0;
	}
	return err;
}

static int write_truth(void *area, const uint64_t *counts, uint64_t units,
		       const char *path)
{
	uint64_t *addr = calloc(units, sizeof(*addr));
	FILE *f = NULL;
	int err = 1;

	if (!addr) {
		fprintf(stderr, "chmu-workload: truth: %s\n", strerror(ENOMEM));
		return 1;
	}
	if (env.dax) {
		for (uint64_t u = 0; u < units; u++)
			addr[u] = u * env.unit_size;
	} else if ((err = phys_pages(area, units, addr))) {
		fprintf(stderr, "chmu-workload: pagemap: %s\n", strerror(-err));
		err = 1;
		goto out;
	}
	f = fopen(path, "w");
	if (!f) {
		fprintf(stderr, "chmu-workload: %s: %s\n", path, strerror(errno));
		err = 1;
		goto out;
	}
	fprintf(f, "# chmu-workload zipf: %s address, accesses\n",
		env.dax ? "device offset" : "physical");
	err = 0;
	for (uint64_t u = 0; u < units && !err; u++) {
		if (!counts[u])
			continue;
		if (!addr[u]) {
			fprintf(stderr, "chmu-workload: unit %llu has no physical page\n",
				(unsigned long long)u);
			err = 1;
		}
		fprintf(f, "0x%llx %llu\n", (unsigned long long)addr[u],
			(unsigned long long)counts[u]);
	}
	if (fclose(f) && !err) {
		fprintf(stderr, "chmu-workload: %s: %s\n", path, strerror(errno));
		err = 1;
	}
out:
	free(addr);
	return err;
}

/*
 * Choose @k distinct units of @n at random into @map (a partial shuffle
 * of @all, the caller's scratch array of @n).
 */
static void pick_hot(uint32_t *map, uint32_t k, uint64_t n, uint64_t *rng, uint32_t *all)
{
	for (uint64_t i = 0; i < n; i++)
		all[i] = (uint32_t)i;
	for (uint32_t i = 0; i < k; i++) {
		uint64_t j = i + zipf_rand(rng) % (n - i);
		uint32_t t = all[i];

		all[i] = all[j];
		all[j] = t;
		map[i] = all[i];
	}
}

/*
 * The node of each unit's page (move_pages), into @node; -1 where it
 * cannot be told. 0 or -errno.
 */
static int unit_nodes(void *area, uint64_t units, void **pages, int *node)
{
	for (uint64_t u = 0; u < units; u++)
		pages[u] = (char *)area + u * env.unit_size;
	if (syscall(SYS_move_pages, 0, units, pages, NULL, node, 0))
		return -errno;
	return 0;
}

struct zipf_run {
	uint64_t units;
	uint64_t *counts, *after, *tick;
	/*
	 * --progress: the regret window (from --window-from on): its counts
	 * per unit (the run's own without a later start), its intervals, a
	 * copy of counts to sort, and where the last interval ended
	 */
	uint64_t *win, *sorted;
	int *prev_node;		/* each unit's node at the last interval's end */
	bool in_window;
	struct tier_window w;
	uint64_t last_ms, last_done;
	uint32_t *hot[2];	/* the hot units before and after the shift */
	uint32_t *scratch;	/* pick_hot()'s, one per unit */
	void **pages;
	int *node;
};

static void zipf_run_free(struct zipf_run *r)
{
	free(r->counts);
	free(r->after);
	free(r->tick);
	if (r->win != r->counts)
		free(r->win);
	free(r->sorted);
	free(r->prev_node);
	free(r->hot[0]);
	free(r->hot[1]);
	free(r->scratch);
	free(r->pages);
	free(r->node);
}

/* --placement: unit, accesses (first half, second half), node, hot sets */
static int write_placement(void *area, struct zipf_run *r)
{
	uint8_t *hot = calloc(r->units, 1);
	FILE *f;
	int err;

	if (!hot)
		return -ENOMEM;
	for (int h = 0; h < 2; h++)
		for (uint32_t i = 0; r->hot[h] && i < env.hot_units; i++)
			hot[r->hot[h][i]] |= 1 << h;
	err = unit_nodes(area, r->units, r->pages, r->node);
	f = err ? NULL : fopen(env.placement, "w");
	if (!err && !f)
		err = -errno;
	if (f) {
		fprintf(f, "# unit accesses_before accesses_after node hot(1 before, 2 after)\n");
		for (uint64_t u = 0; u < r->units; u++) {
			uint64_t a = r->after ? r->after[u] : 0;

			fprintf(f, "%llu %llu %llu %d %d\n", (unsigned long long)u,
				(unsigned long long)(r->counts[u] - a),
				(unsigned long long)a, r->node[u], hot[u]);
		}
		if (fclose(f))
			err = -errno;
	}
	if (err)
		fprintf(stderr, "chmu-workload: %s: %s\n", env.placement, strerror(-err));
	free(hot);
	return err;
}

/*
 * --progress: the accesses so far and, of this interval's, those to units
 * whose page is on --node now.
 */
/*
 * --progress: the interval that ends now. Each unit's accesses in it are
 * taken as served from the node the unit is on at its end: accesses to
 * units on --node (on_node), to units off --fast-node (slow), the units on
 * --fast-node (fast) and the interval's placement regret (the slow share
 * less the least share the same number of fast units could have had,
 * tierstat.h). A unit whose node changed during the interval is
 * uncertain: slow_lo counts units slow at both ends, slow_hi at either
 * (moved: accesses to units that changed); a unit whose node cannot be
 * read (being migrated) is left out of all but unknown. -1 for all when
 * the placement could not be read. Inside the regret window the interval
 * also counts towards the window's.
 */
static void progress(void *area, struct zipf_run *r, uint64_t ms, uint64_t done)
{
	long long on = 0, slow = 0, fast = 0, lo = 0, hi = 0, moved = 0, unknown = 0;
	uint64_t acc = done - r->last_done, known;
	double regret = -1;

	if (unit_nodes(area, r->units, r->pages, r->node))
		on = -1;	/* the placement could not be read */
	for (uint64_t u = 0; on >= 0 && u < r->units; u++) {
		int now = r->node[u], before = r->prev_node[u];
		bool slow_now = now != env.fast_node;
		bool slow_before = before < 0 ? slow_now : before != env.fast_node;

		if (now < 0) {
			unknown += r->tick[u];
			continue;
		}
		if (now == env.node)
			on += r->tick[u];
		if (!slow_now)
			fast++;
		slow += slow_now ? r->tick[u] : 0;
		lo += slow_now && slow_before ? r->tick[u] : 0;
		hi += slow_now || slow_before ? r->tick[u] : 0;
		moved += slow_now != slow_before ? r->tick[u] : 0;
		r->prev_node[u] = now;
	}
	if (on >= 0) {
		known = acc - (uint64_t)unknown;
		memcpy(r->sorted, r->tick, r->units * sizeof(*r->tick));
		regret = known ? (double)slow / known -
			tier_best_share(r->sorted, r->units, fast) : 0;
		if (r->in_window)
			tier_window_add(&r->w, (ms - r->last_ms) / 1e3, fast, known, slow, lo, hi);
	} else {
		slow = fast = lo = hi = moved = unknown = -1;
	}
	memset(r->tick, 0, r->units * sizeof(*r->tick));
	r->last_ms = ms;
	r->last_done = done;
	printf("progress ms=%llu accesses=%llu on_node=%lld fast=%lld slow=%lld regret=%.4f "
	       "slow_lo=%lld slow_hi=%lld moved=%lld unknown=%lld\n",
	       (unsigned long long)ms, (unsigned long long)done, on, fast, slow, regret,
	       lo, hi, moved, unknown);
	fflush(stdout);
}

/*
 * Write a byte of every page of @len bytes at @p. calloc() leaves fresh
 * heap pages untouched; faulted in only when the run first writes them,
 * they would come from wherever the kernel finds room then (in the bench,
 * after node 0 filled up: the CXL node), and every access's count update
 * would pay for it.
 */
static void prefault(void *p, size_t len)
{
	long page = sysconf(_SC_PAGESIZE);

	if (!p || !len)
		return;
	for (size_t o = 0; o < len; o += page)
		((volatile char *)p)[o] = 0;
	/* an unaligned array's last page, which the stride can step over */
	((volatile char *)p)[len - 1] = 0;
}

static int do_zipf(void *area)
{
	uint64_t units = env.size / env.unit_size, words = env.unit_size / 8;
	uint64_t sink = 0, t0, t, ns, top = 0, shift_ns = 0, i, next_tick;
	struct timespec shift_wall = {}, start_wall, end_wall;
	struct zipf_run r = { .units = units };
	bool shifted = false;
	struct rusage ru;
	struct zipf z;
	int err;

	r.counts = calloc(units, sizeof(*r.counts));
	r.after = env.shift ? calloc(units, sizeof(*r.after)) : NULL;
	r.tick = env.progress_ms ? calloc(units, sizeof(*r.tick)) : NULL;
	r.sorted = env.progress_ms ? calloc(units, sizeof(*r.sorted)) : NULL;
	r.prev_node = env.progress_ms ? malloc(units * sizeof(*r.prev_node)) : NULL;
	r.win = !env.progress_ms ? NULL : env.window_from ?
		calloc(units, sizeof(*r.win)) : r.counts;
	r.in_window = env.progress_ms && !env.window_from;
	if (env.progress_ms || env.placement) {
		r.pages = calloc(units, sizeof(*r.pages));
		r.node = calloc(units, sizeof(*r.node));
	}
	if (env.hot_units) {
		r.hot[0] = calloc(env.hot_units, sizeof(*r.hot[0]));
		r.hot[1] = env.shift ? calloc(env.hot_units, sizeof(*r.hot[1])) : NULL;
		r.scratch = malloc(units * sizeof(*r.scratch));
	}
	if (!r.counts || (env.shift && !r.after) ||
	    (env.progress_ms && (!r.tick || !r.sorted || !r.win || !r.prev_node)) ||
	    ((env.progress_ms || env.placement) && (!r.pages || !r.node)) ||
	    (env.hot_units && (!r.hot[0] || (env.shift && !r.hot[1]) || !r.scratch))) {
		fprintf(stderr, "chmu-workload: %s\n", strerror(ENOMEM));
		zipf_run_free(&r);
		return 1;
	}
	/* the run's own memory in place before it starts: see prefault() */
	prefault(r.counts, units * sizeof(*r.counts));
	prefault(r.after, units * sizeof(*r.after));
	prefault(r.tick, units * sizeof(*r.tick));
	prefault(r.sorted, env.progress_ms ? units * sizeof(*r.sorted) : 0);
	for (uint64_t v = 0; r.prev_node && v < units; v++)
		r.prev_node[v] = -1;	/* not read yet: the first interval's end decides */
	prefault(r.win != r.counts ? r.win : NULL, units * sizeof(*r.win));
	prefault(r.pages, units * sizeof(*r.pages));
	prefault(r.node, units * sizeof(*r.node));
	prefault(r.hot[1], env.hot_units * sizeof(*r.hot[1]));
	prefault(r.scratch, env.hot_units ? units * sizeof(*r.scratch) : 0);
	err = zipf_init(&z, env.hot_units ? env.hot_units : units, env.zipf_s, env.seed);
	if (!err && env.hot_units)
		pick_hot(r.hot[0], env.hot_units, units, &z.rng, r.scratch);
	if (err) {
		fprintf(stderr, "chmu-workload: zipf: %s\n", strerror(-err));
		zipf_run_free(&r);
		return 1;
	}
	if (wait_start()) {
		zipf_free(&z);
		zipf_run_free(&r);
		return 1;
	}
	mark_start();
	clock_gettime(CLOCK_REALTIME, &start_wall);
	t0 = now_ns();
	next_tick = env.progress_ms * 1000000ULL;
	for (i = 0;; i++) {
		bool move = false;
		uint32_t u;

		/* the clock every 4096 accesses (milliseconds apart at CXL speed under TCG) */
		if (!(i & 4095) && (env.duration_ms || env.progress_ms)) {
			t = now_ns() - t0;
			if (env.duration_ms && t >= env.duration_ms * 1000000ULL)
				break;
			if (env.progress_ms && t >= next_tick) {
				progress(area, &r, t / 1000000, i);
				next_tick += env.progress_ms * 1000000ULL;
			}
			move = env.duration_ms && t >= env.duration_ms * 500000ULL;
			if (env.duration_ms && env.progress_ms && !r.in_window &&
			    t >= env.duration_ms * 10000ULL * env.window_from) {
				progress(area, &r, t / 1000000, i);	/* the window opens */
				r.in_window = true;
			}
		}
		if (!env.duration_ms && i == env.accesses)
			break;
		if (!env.duration_ms)
			move = i == env.accesses / 2;
		if (!env.duration_ms && env.progress_ms && !r.in_window &&
		    i == env.accesses * env.window_from / 100) {
			progress(area, &r, (now_ns() - t0) / 1000000, i);
			r.in_window = true;
		}
		if (move && env.shift && !shifted) {
			zipf_shuffle(&z);
			if (env.hot_units)
				pick_hot(r.hot[1], env.hot_units, units, &z.rng, r.scratch);
			shift_ns = now_ns() - t0;
			clock_gettime(CLOCK_REALTIME, &shift_wall);
			shifted = true;
		}
		if (!env.hot_units)
			u = zipf_unit(&z);
		else if (zipf_rand(&z.rng) % 100 < env.hot_share)
			u = r.hot[shifted][zipf_unit(&z)];
		else
			u = (uint32_t)(zipf_rand(&z.rng) % units);
		volatile uint64_t *w = (volatile uint64_t *)((char *)area +
			u * env.unit_size) + (zipf_rand(&z.rng) & (words - 1));

		if (env.write)
			*w = i;
		else
			sink += *w;
		r.counts[u]++;
		if (r.in_window && r.win && r.win != r.counts)
			r.win[u]++;
		if (shifted)
			r.after[u]++;
		if (r.tick)
			r.tick[u]++;
	}
	ns = now_ns() - t0;
	clock_gettime(CLOCK_REALTIME, &end_wall);
	mark_end();
	if (env.progress_ms)
		progress(area, &r, ns / 1000000, i);
	if (env.progress_ms) {
		/*
		 * the window's regret, at the capacity it held on average
		 * over its accesses; the capacity over its time beside it
		 */
		double cap = tier_window_capacity_acc(&r.w), best;
		double a = r.w.accesses ? (double)r.w.accesses : 1;

		memcpy(r.sorted, r.win, units * sizeof(*r.sorted));
		best = tier_best_share(r.sorted, units, cap);
		printf("window_from=%u\nwindow_accesses=%llu\nwindow_secs=%.3f\n"
		       "window_slow_share=%.4f\nwindow_slow_share_lo=%.4f\n"
		       "window_slow_share_hi=%.4f\nwindow_capacity=%.1f\n"
		       "window_capacity_acc=%.1f\nwindow_best_share=%.4f\n"
		       "window_regret=%.4f\nwindow_regret_lo=%.4f\nwindow_regret_hi=%.4f\n",
		       env.window_from, (unsigned long long)r.w.accesses, r.w.secs,
		       tier_window_share(&r.w), r.w.slow_lo / a, r.w.slow_hi / a,
		       tier_window_capacity(&r.w), cap, best,
		       tier_window_share(&r.w) - best, r.w.slow_lo / a - best,
		       r.w.slow_hi / a - best);
	}
	for (uint64_t v = 0; v < units; v++)
		if (r.counts[v] > r.counts[top])
			top = v;
	getrusage(RUSAGE_SELF, &ru);
	printf("accesses=%llu\nunits=%llu\nns=%llu\nrate=%.0f\nop=%s\n"
	       "zipf=%g\nhottest_unit=%llu\nhottest_count=%llu\n",
	       (unsigned long long)i, (unsigned long long)units,
	       (unsigned long long)ns, ns ? i * 1e9 / ns : 0.0,
	       env.write ? "write" : "read", env.zipf_s,
	       (unsigned long long)top, (unsigned long long)r.counts[top]);
	printf("utime_ns=%llu\nstime_ns=%llu\n",
	       ru.ru_utime.tv_sec * 1000000000ULL + ru.ru_utime.tv_usec * 1000ULL,
	       ru.ru_stime.tv_sec * 1000000000ULL + ru.ru_stime.tv_usec * 1000ULL);
	printf("start_time_ns=%llu\nend_time_ns=%llu\n",
	       start_wall.tv_sec * 1000000000ULL + start_wall.tv_nsec,
	       end_wall.tv_sec * 1000000000ULL + end_wall.tv_nsec);
	if (shifted)
		printf("shift_ns=%llu\nshift_time_ns=%llu\n",
		       (unsigned long long)shift_ns,
		       shift_wall.tv_sec * 1000000000ULL + shift_wall.tv_nsec);
	err = env.truth ? write_truth(area, r.counts, units, env.truth) : 0;
	if (!err && env.truth && r.after) {
		char path[4096];

		if (snprintf(path, sizeof(path), "%s.after", env.truth) >=
		    (int)sizeof(path)) {
			fprintf(stderr, "chmu-workload: %s.after: %s\n", env.truth,
				strerror(ENAMETOOLONG));
			err = 1;
		} else {
			err = write_truth(area, r.after, units, path);
		}
	}
	if (!err && env.placement && write_placement(area, &r))
		err = 1;
	zipf_free(&z);
	zipf_run_free(&r);
	(void)sink;
	return err;
}

/* mark: the tiermem instrument's marker, then nothing */
static int do_mark(void)
{
	tiermark(env.mark_cmd, env.mark_tag);
	return 0;
}

/* The modes that map no area of their own */
static const struct {
	const char *name;
	int (*run)(void);
} no_area[] = {
	{ "sigframe", do_sigframe },
	{ "move", do_move },
	{ "pin", do_pin },
	{ "balloon", do_balloon },
	{ "mark", do_mark },
};

int main(int argc, char **argv)
{
	static const struct argp argp = {
		.options = opts,
		.parser = parse_arg,
		.args_doc = "MODE",
		.doc = doc,
	};
	void *area;
	int err;

	argp_err_exit_status = 1;
	err = argp_parse(&argp, argc, argv, 0, NULL, NULL);
	if (err)
		return 1;
	if (env.wait_signal || env.hold || !strcmp(env.mode, "pin") ||
	    !strcmp(env.mode, "balloon")) {
		sigset_t set;

		sigemptyset(&set);
		sigaddset(&set, SIGUSR1);
		sigprocmask(SIG_BLOCK, &set, NULL);
	}
	for (size_t i = 0; i < sizeof(no_area) / sizeof(no_area[0]); i++) {
		if (!strcmp(env.mode, no_area[i].name)) {
			err = no_area[i].run();
			goto cleanup;
		}
	}
	area = map_area();
	if (!area) {
		err = 2;
		goto cleanup;
	}
	if (!strcmp(env.mode, "verify"))
		err = do_verify(area);
	else if (!strcmp(env.mode, "touch"))
		err = do_touch(area);
	else if (!strcmp(env.mode, "zipf"))
		err = do_zipf(area);
	else
		err = do_stream(area);
	munmap(area, env.size);
cleanup:
	free(env.units);
	free(env.files);
	return err;
}
