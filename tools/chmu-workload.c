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
 *           anonymous memory also print each unit's physical address.
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
 *
 * Results are printed as key=value lines. Every access is a single aligned
 * 8-byte load or store through a volatile pointer, so under TCG each one
 * reaches the emulated device exactly once.
 */
#include <argp.h>
#include <errno.h>
#include <signal.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "lib/memspec.h"
#include "lib/zipf.h"

#define MAX_UNITS 65536
#define MAX_NODES 64
#define MPOL_BIND 2
#define MPOL_MF_STRICT (1 << 0)
#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23
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
	int shift;
} env = {
	.node = -1,
	.size = 16 << 20,
	.unit_size = 4096,
	.count = 1,
	.passes = 1,
	.seed = 0x5eedc0ffee0ddf00ULL,
	.accesses = 1000000,
	.zipf_s = 1.0,
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
	{ "wait", 'W', NULL, 0, "zipf/stream: once the memory is allocated, print "
	  "ready=PID and wait for SIGUSR1 before the timed accesses", 0 },
	{ 0 },
};

static const char doc[] =
	"Generate known accesses to CXL memory.\v"
	"MODE is verify, touch, stream or zipf. Examples:\n"
	"  chmu-workload verify --dax /dev/dax0.0 --size 16M\n"
	"  numactl --membind=1 chmu-workload verify --anon --size 4M\n"
	"  chmu-workload touch --dax /dev/dax0.0 --units 3,7 --count 1000\n"
	"  chmu-workload stream --dax /dev/dax0.0 --size 2M --passes 4\n"
	"  chmu-workload zipf --node 1 --size 16M --accesses 2M --truth /tmp/t";

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
	case ARGP_KEY_ARG:
		if (state->arg_num)
			argp_usage(state);
		if (strcmp(arg, "verify") && strcmp(arg, "touch") &&
		    strcmp(arg, "stream") && strcmp(arg, "zipf"))
			argp_error(state, "unknown mode '%s'", arg);
		env.mode = arg;
		break;
	case ARGP_KEY_END:
		if (!env.mode)
			argp_error(state, "no MODE given");
		if (!!env.dax + env.anon + (env.node >= 0) != 1)
			argp_error(state, "give exactly one of --dax, --anon, --node");
		if (!strcmp(env.mode, "touch") && !env.nr_units)
			argp_error(state, "touch needs --units");
		if (env.truth && strcmp(env.mode, "zipf"))
			argp_error(state, "--truth is for zipf");
		if (env.shift && strcmp(env.mode, "zipf"))
			argp_error(state, "--shift is for zipf");
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
	/*
	 * Allocate every page now (the kernel zeroes them), so that the
	 * workload's own accesses are exactly the ones it counts and loads
	 * do not land on the shared zero page.
	 */
	if (madvise(p, env.size, MADV_POPULATE_WRITE)) {
		fprintf(stderr, "chmu-workload: populate: %s\n", strerror(errno));
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
	uint64_t ent = 0;
	int fd = open("/proc/self/pagemap", O_RDONLY);

	if (fd < 0)
		return 0;
	if (pread(fd, &ent, sizeof(ent), (uintptr_t)p / page * sizeof(ent)) != sizeof(ent))
		ent = 0;
	close(fd);
	if (!(ent & (1ULL << 63)) || !(ent & ((1ULL << 55) - 1)))
		return 0;
	return (ent & ((1ULL << 55) - 1)) * page + (uintptr_t)p % page;
}

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
	return 0;
}

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
	sigset_t set;
	int sig;

	if (!env.wait_signal)
		return 0;
	printf("ready=%d\n", (int)getpid());
	fflush(stdout);
	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	if (sigwait(&set, &sig)) {
		fprintf(stderr, "chmu-workload: sigwait failed\n");
		return 1;
	}
	return 0;
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

static int do_zipf(void *area)
{
	uint64_t units = env.size / env.unit_size, words = env.unit_size / 8;
	uint64_t *counts = calloc(units, sizeof(*counts));
	uint64_t *after = env.shift ? calloc(units, sizeof(*after)) : NULL;
	uint64_t sink = 0, t0, ns, top = 0, shift_ns = 0;
	struct timespec shift_wall = {}, start_wall, end_wall;
	struct zipf z;
	int err;

	if (!counts || (env.shift && !after)) {
		fprintf(stderr, "chmu-workload: %s\n", strerror(ENOMEM));
		free(counts);
		free(after);
		return 1;
	}
	err = zipf_init(&z, units, env.zipf_s, env.seed);
	if (err) {
		fprintf(stderr, "chmu-workload: zipf: %s\n", strerror(-err));
		free(counts);
		free(after);
		return 1;
	}
	if (wait_start()) {
		zipf_free(&z);
		free(counts);
		free(after);
		return 1;
	}
	clock_gettime(CLOCK_REALTIME, &start_wall);
	t0 = now_ns();
	for (uint64_t i = 0; i < env.accesses; i++) {
		uint32_t u;

		if (after && i == env.accesses / 2) {
			zipf_shuffle(&z);
			shift_ns = now_ns() - t0;
			clock_gettime(CLOCK_REALTIME, &shift_wall);
		}
		u = zipf_unit(&z);
		volatile uint64_t *w = (volatile uint64_t *)((char *)area +
			u * env.unit_size) + (zipf_rand(&z.rng) & (words - 1));

		if (env.write)
			*w = i;
		else
			sink += *w;
		counts[u]++;
		if (after && i >= env.accesses / 2)
			after[u]++;
	}
	ns = now_ns() - t0;
	clock_gettime(CLOCK_REALTIME, &end_wall);
	for (uint64_t u = 0; u < units; u++)
		if (counts[u] > counts[top])
			top = u;
	printf("accesses=%llu\nunits=%llu\nns=%llu\nrate=%.0f\nop=%s\n"
	       "zipf=%g\nhottest_unit=%llu\nhottest_count=%llu\n",
	       (unsigned long long)env.accesses, (unsigned long long)units,
	       (unsigned long long)ns, ns ? env.accesses * 1e9 / ns : 0.0,
	       env.write ? "write" : "read", env.zipf_s,
	       (unsigned long long)top, (unsigned long long)counts[top]);
	printf("start_time_ns=%llu\nend_time_ns=%llu\n",
	       start_wall.tv_sec * 1000000000ULL + start_wall.tv_nsec,
	       end_wall.tv_sec * 1000000000ULL + end_wall.tv_nsec);
	if (after)
		printf("shift_ns=%llu\nshift_time_ns=%llu\n",
		       (unsigned long long)shift_ns,
		       shift_wall.tv_sec * 1000000000ULL + shift_wall.tv_nsec);
	err = env.truth ? write_truth(area, counts, units, env.truth) : 0;
	if (!err && env.truth && after) {
		char path[4096];

		if (snprintf(path, sizeof(path), "%s.after", env.truth) >=
		    (int)sizeof(path)) {
			fprintf(stderr, "chmu-workload: %s.after: %s\n", env.truth,
				strerror(ENAMETOOLONG));
			err = 1;
		} else {
			err = write_truth(area, after, units, path);
		}
	}
	zipf_free(&z);
	free(counts);
	free(after);
	(void)sink;
	return err;
}

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
	if (env.wait_signal) {
		sigset_t set;

		sigemptyset(&set);
		sigaddset(&set, SIGUSR1);
		sigprocmask(SIG_BLOCK, &set, NULL);
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
	return err;
}
