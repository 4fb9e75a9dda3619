// SPDX-License-Identifier: GPL-2.0
/*
 * chmu-perf: open a CHMU perf event (cxl_hmu_memX.Y.Z/terms/) the way
 * perf record does, with an AUX buffer, run a command while it records,
 * and print the AUX hotlist records decoded. It talks to the kernel with
 * perf_event_open() directly, so it also reports the exact errno a
 * configuration gets (--check), which is what the driver tests assert.
 *
 *   chmu-perf [-a PAGES] [-d MS] [-C CPU] EVENT [-- COMMAND [ARG...]]
 *   chmu-perf --check EVENT
 *   chmu-perf --fuzz N [--seed S] EVENT
 *
 * EVENT is PMU/term=value,.../ with the terms of the PMU's format
 * directory, or config=, config1=, config2= for whole words, and perf's
 * period= and freq= sample settings. SIGINT or SIGTERM ends a recording
 * as perf record's Ctrl-C does: COMMAND gets SIGTERM, the records so far
 * are printed with the summary, exit 0.
 * SIGUSR1 pauses the event (PERF_EVENT_IOC_DISABLE) or resumes it,
 * printing "paused" or "resumed" once it is done. -C opens the event on
 * that CPU instead of the PMU's (the driver moves it to its own).
 *
 * --fuzz opens N events derived from EVENT: random config words, EVENT's
 * words with a few bits flipped, or EVENT with random attribute flags,
 * sample settings and CPUs (some task-bound), closing each one that
 * opens. It prints how many opened and each errno's count, and fails on
 * an errno a PMU must not return for a bad configuration.
 */
#include <argp.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "lib/perfev.h"
#include "lib/zipf.h"

#define PMU_DIR "/sys/bus/event_source/devices"
#define DATA_PAGES 8

const char *argp_program_version = "chmu-perf 0.1";

static struct env {
	const char *event;
	char **cmd;
	long aux_pages;
	long delay_ms;
	long cpu;
	int check;
	long fuzz;
	uint64_t seed;
} env = { .aux_pages = 16, .seed = 1, .cpu = -1 };

struct rec {
	int fd;
	struct perf_event_mmap_page *up;
	size_t page;
	unsigned char *data;
	unsigned char *aux;
	uint64_t aux_size;
	uint64_t records, entries, truncated, lost_records, partial;
};

static const char *errname(int e)
{
	static const struct { int e; const char *n; } t[] = {
		{ EINVAL, "EINVAL" }, { EOPNOTSUPP, "EOPNOTSUPP" },
		{ EBUSY, "EBUSY" }, { EACCES, "EACCES" }, { EPERM, "EPERM" },
		{ ENODEV, "ENODEV" }, { ENOENT, "ENOENT" },
		{ ETIMEDOUT, "ETIMEDOUT" }, { ENOMEM, "ENOMEM" },
		{ E2BIG, "E2BIG" }, { ENXIO, "ENXIO" },
	};
	size_t i;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		if (t[i].e == e)
			return t[i].n;
	return "E?";
}

static const struct argp_option opts[] = {
	{ "aux-pages", 'a', "PAGES", 0,
	  "AUX buffer pages, a power of two (default 16); 0: no AUX buffer", 0 },
	{ "delay", 'd', "MS", 0,
	  "keep recording MS milliseconds after COMMAND ends", 0 },
	{ "cpu", 'C', "CPU", 0,
	  "open the event on CPU instead of the PMU's cpumask", 0 },
	{ "check", 'c', NULL, 0,
	  "only open the event: print ok or the errno name (exit 0 or 3)", 0 },
	{ "fuzz", 'f', "N", 0,
	  "open N random variations of EVENT; summary of errnos (exit 0 or 3)", 0 },
	{ "seed", 's', "S", 0, "seed for --fuzz (default 1)", 0 },
	{},
};

static error_t parse_arg(int key, char *arg, struct argp_state *state)
{
	char *end;

	switch (key) {
	case 'a':
	case 'd':
		errno = 0;
		*(key == 'a' ? &env.aux_pages : &env.delay_ms) =
			strtol(arg, &end, 0);
		if (errno || *end || end == arg ||
		    (key == 'a' ? env.aux_pages : env.delay_ms) < 0)
			argp_error(state, "invalid number '%s'", arg);
		if (key == 'a' && env.aux_pages & (env.aux_pages - 1))
			argp_error(state, "AUX pages must be a power of two");
		break;
	case 'c':
		env.check = 1;
		break;
	case 'C':
		errno = 0;
		env.cpu = strtol(arg, &end, 0);
		if (errno || *end || end == arg || env.cpu < 0)
			argp_error(state, "invalid CPU '%s'", arg);
		break;
	case 'f':
	case 's':
		errno = 0;
		if (key == 'f')
			env.fuzz = strtol(arg, &end, 0);
		else
			env.seed = strtoull(arg, &end, 0);
		if (errno || *end || end == arg || env.fuzz < 0)
			argp_error(state, "invalid number '%s'", arg);
		break;
	case ARGP_KEY_ARG:
		env.event = arg;
		env.cmd = state->argv + state->next;
		state->next = state->argc;
		break;
	case ARGP_KEY_END:
		if (!env.event)
			argp_error(state, "no event given");
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

static int read_file(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	size_t n;

	if (!f)
		return -errno;
	n = fread(buf, 1, len - 1, f);
	fclose(f);
	buf[n] = '\0';
	return 0;
}

/* Fill @attr and @cpu from the event string; exit on a usage error. */
static void build_attr(const char *ev, struct perf_event_attr *attr, int *cpu)
{
	char pmu[128], terms[1024], path[512], buf[256], *cur, *name;
	struct perfev_field f;
	uint64_t cfg[3] = { 0 }, val;
	int rc;

	if (perfev_split(ev, pmu, sizeof(pmu), terms, sizeof(terms))) {
		fprintf(stderr, "chmu-perf: malformed event '%s' (pmu/term=value,.../)\n", ev);
		exit(1);
	}
	snprintf(path, sizeof(path), PMU_DIR "/%s/type", pmu);
	if (read_file(path, buf, sizeof(buf))) {
		fprintf(stderr, "chmu-perf: no PMU %s (is cxl_hmu loaded?)\n", pmu);
		exit(2);
	}
	memset(attr, 0, sizeof(*attr));
	attr->size = sizeof(*attr);
	attr->type = strtoul(buf, NULL, 10);
	attr->disabled = 1;
	snprintf(path, sizeof(path), PMU_DIR "/%s/cpumask", pmu);
	*cpu = read_file(path, buf, sizeof(buf)) ? 0 : atoi(buf);

	cur = terms;
	while ((rc = perfev_next_term(&cur, &name, &val)) > 0) {
		/* perf's period and freq terms: sample settings */
		if (!strcmp(name, "period") || !strcmp(name, "freq")) {
			if (name[0] == 'f') {
				attr->freq = 1;
				attr->sample_freq = val;
			} else {
				attr->sample_period = val;
			}
			continue;
		}
		/* config, config1, config2: a whole word, as perf allows */
		if (!strncmp(name, "config", 6) &&
		    (!name[6] || ((name[6] == '1' || name[6] == '2') && !name[7]))) {
			cfg[name[6] ? name[6] - '0' : 0] = val;
			continue;
		}
		snprintf(path, sizeof(path), PMU_DIR "/%s/format/%s", pmu, name);
		if (read_file(path, buf, sizeof(buf)) ||
		    perfev_parse_format(buf, &f)) {
			fprintf(stderr, "chmu-perf: %s has no term '%s' (see %s/%s/format)\n",
				pmu, name, PMU_DIR, pmu);
			exit(1);
		}
		if (perfev_set(&f, val, cfg)) {
			fprintf(stderr, "chmu-perf: %s=%llu does not fit %s",
				name, (unsigned long long)val, buf);
			exit(1);
		}
	}
	if (rc < 0) {
		fprintf(stderr, "chmu-perf: malformed term in '%s'\n", ev);
		exit(1);
	}
	attr->config = cfg[0];
	attr->config1 = cfg[1];
	attr->config2 = cfg[2];
}

/*
 * --fuzz: bounded random opens. What a PMU may answer a bad attribute
 * with: EINVAL, EOPNOTSUPP, ENOENT (not its type), ENODEV (no such CPU),
 * E2BIG (attr size), EBUSY; anything else is reported as unexpected.
 */
static int fuzz(const struct perf_event_attr *base, int cpu)
{
	static const int allowed[] = { EINVAL, EOPNOTSUPP, ENOENT, ENODEV,
				       E2BIG, EBUSY };
	unsigned long counts[160] = { 0 }, opened = 0, unexpected = 0;
	int ncpu = sysconf(_SC_NPROCESSORS_CONF);
	uint64_t st = env.seed;
	long i;

	for (i = 0; i < env.fuzz; i++) {
		struct perf_event_attr a = *base;
		__u64 r = zipf_rand(&st), *w[3] = { &a.config, &a.config1, &a.config2 };
		int c = cpu, pid = -1, fd, e, k;

		switch (r % 4) {
		case 0:		/* random words */
			for (k = 0; k < 3; k++)
				*w[k] = zipf_rand(&st) >> (zipf_rand(&st) % 64);
			break;
		case 1:		/* the event with one to three bits flipped */
			for (k = 0; k <= (int)(r >> 8) % 3; k++)
				*w[zipf_rand(&st) % 3] ^= 1ULL << (zipf_rand(&st) % 64);
			break;
		case 2:		/* the event with random flags and sampling */
			r = zipf_rand(&st);
			a.disabled = r & 1;
			a.inherit = r >> 1 & 1;
			a.pinned = r >> 2 & 1;
			a.exclusive = r >> 3 & 1;
			a.exclude_user = r >> 4 & 1;
			a.exclude_kernel = r >> 5 & 1;
			a.exclude_hv = r >> 6 & 1;
			a.exclude_idle = r >> 7 & 1;
			a.freq = r >> 8 & 1;
			a.enable_on_exec = r >> 9 & 1;
			a.precise_ip = r >> 10 & 3;
			a.exclude_host = r >> 12 & 1;
			a.exclude_guest = r >> 13 & 1;
			a.watermark = r >> 14 & 1;
			a.sample_period = zipf_rand(&st) % 3 ? 0 : zipf_rand(&st) % 10000;
			a.sample_type = zipf_rand(&st) & 0xfffff;
			a.read_format = zipf_rand(&st) & 0x1f;
			a.aux_watermark = zipf_rand(&st) % 3 ? 0 : (uint32_t)zipf_rand(&st);
			break;
		default:	/* the event on another CPU, or bound to a task */
			c = (int)(zipf_rand(&st) % (ncpu + 2)) - 1;
			if (c < 0 || zipf_rand(&st) % 4 == 0)
				pid = 0;
			break;
		}
		fd = syscall(__NR_perf_event_open, &a, pid, c, -1, 0);
		if (fd >= 0) {
			opened++;
			close(fd);
			continue;
		}
		e = errno;
		if (e >= 0 && e < 160)
			counts[e]++;
		for (k = 0; k < (int)(sizeof(allowed) / sizeof(allowed[0])); k++)
			if (allowed[k] == e)
				break;
		if (k == (int)(sizeof(allowed) / sizeof(allowed[0])) && !unexpected++)
			fprintf(stderr, "chmu-perf: fuzz %ld: config=%#llx,config1=%#llx,config2=%#llx cpu %d pid %d: %s\n",
				i, (unsigned long long)a.config, (unsigned long long)a.config1,
				(unsigned long long)a.config2, c, pid, strerror(e));
	}
	printf("fuzz iterations=%ld seed=%llu opened=%lu", env.fuzz,
	       (unsigned long long)env.seed, opened);
	for (i = 0; i < 160; i++)
		if (counts[i])
			printf(" %s=%lu", errname(i), counts[i]);
	printf(" unexpected=%lu\n", unexpected);
	return unexpected ? 3 : 0;
}

static void print_records(struct rec *r, const unsigned char *p, uint64_t len)
{
	uint64_t off = 0, hdr[2], e;
	struct chmu_aux_hdr h;
	unsigned int i;

	while (off + 16 <= len) {
		memcpy(hdr, p + off, 16);
		chmu_aux_decode_hdr(hdr, &h);
		off += 16;
		if (off + 8ULL * h.count > len) {
			r->partial++;
			return;
		}
		r->records++;
		printf("record seq=%llu count=%u counter_width=%u unit_shift=%u mode=%u reason=%u overflow=%u\n",
		       (unsigned long long)h.seq, h.count, h.counter_width,
		       h.unit_shift, h.mode, h.reason, h.overflow);
		for (i = 0; i < h.count; i++, off += 8) {
			uint64_t unit;

			memcpy(&e, p + off, 8);
			unit = h.counter_width < 64 ? e >> h.counter_width : 0;
			printf("entry unit=%llu dpa=0x%llx count=%llu\n",
			       (unsigned long long)unit,
			       (unsigned long long)(unit << h.unit_shift),
			       (unsigned long long)(e & ((1ULL << h.counter_width) - 1)));
			r->entries++;
		}
	}
	if (off != len)
		r->partial++;
}

/* Consume the AUX data and the PERF_RECORD_AUX/LOST records. */
static void drain(struct rec *r)
{
	struct perf_event_mmap_page *up = r->up;
	uint64_t head, tail, size = DATA_PAGES * r->page;
	unsigned char *copy;

	head = __atomic_load_n(&up->data_head, __ATOMIC_ACQUIRE);
	for (tail = up->data_tail; tail < head;) {
		struct perf_event_header eh;
		uint64_t rec[4];
		size_t i;

		for (i = 0; i < sizeof(eh); i++)
			((unsigned char *)&eh)[i] = r->data[(tail + i) % size];
		if (eh.type == PERF_RECORD_AUX && eh.size >= sizeof(eh) + 24) {
			for (i = 0; i < 24; i++)
				((unsigned char *)rec)[i] =
					r->data[(tail + sizeof(eh) + i) % size];
			if (rec[2] & PERF_AUX_FLAG_TRUNCATED)
				r->truncated++;
		} else if (eh.type == PERF_RECORD_LOST) {
			r->lost_records++;
		}
		if (!eh.size)
			break;
		tail += eh.size;
	}
	__atomic_store_n(&up->data_tail, head, __ATOMIC_RELEASE);

	if (!r->aux)
		return;
	head = __atomic_load_n(&up->aux_head, __ATOMIC_ACQUIRE);
	tail = up->aux_tail;
	if (head == tail)
		return;
	copy = malloc(head - tail);
	if (!copy) {
		perror("chmu-perf: malloc");
		exit(2);
	}
	for (uint64_t i = 0; i < head - tail; i++)
		copy[i] = r->aux[(tail + i) % r->aux_size];
	print_records(r, copy, head - tail);
	free(copy);
	__atomic_store_n(&up->aux_tail, head, __ATOMIC_RELEASE);
}

static volatile sig_atomic_t stop, toggle;

static void on_signal(int sig)
{
	if (sig == SIGUSR1)
		toggle = 1;
	else
		stop = 1;
}

/* SIGUSR1: pause or resume the event; say so once it is done */
static void pause_resume(struct rec *r, int *paused)
{
	if (!toggle)
		return;
	toggle = 0;
	drain(r);
	ioctl(r->fd, *paused ? PERF_EVENT_IOC_ENABLE : PERF_EVENT_IOC_DISABLE, 0);
	*paused = !*paused;
	printf("%s\n", *paused ? "paused" : "resumed");
	fflush(stdout);
}

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

int main(int argc, char **argv)
{
	static const struct argp argp = {
		.options = opts,
		.parser = parse_arg,
		.args_doc = "EVENT [-- COMMAND [ARG...]]",
		.doc = "Record a CHMU PMU event's AUX hotlist records and print them decoded.",
	};
	struct perf_event_attr attr;
	struct rec r = { .fd = -1 };
	int cpu, status = 0, err = 0, paused = 0;
	pid_t child = 0;
	uint64_t count = 0;
	void *base = MAP_FAILED;

	argp_err_exit_status = 1;
	if (argp_parse(&argp, argc, argv, 0, NULL, NULL))
		return 1;
	build_attr(env.event, &attr, &cpu);
	if (env.cpu >= 0)
		cpu = env.cpu;
	if (env.fuzz)
		return fuzz(&attr, cpu);
	r.fd = syscall(__NR_perf_event_open, &attr, -1, cpu, -1, 0);
	if (env.check) {
		printf("%s\n", r.fd < 0 ? errname(errno) : "ok");
		if (r.fd >= 0)
			close(r.fd);
		return r.fd < 0 ? 3 : 0;
	}
	if (r.fd < 0) {
		fprintf(stderr, "chmu-perf: perf_event_open %s: %s (%s)\n",
			env.event, strerror(errno), errname(errno));
		return 2;
	}

	r.page = sysconf(_SC_PAGESIZE);
	base = mmap(NULL, (1 + DATA_PAGES) * r.page, PROT_READ | PROT_WRITE,
		    MAP_SHARED, r.fd, 0);
	if (base == MAP_FAILED) {
		fprintf(stderr, "chmu-perf: mmap: %s\n", strerror(errno));
		err = 2;
		goto cleanup;
	}
	r.up = base;
	r.data = (unsigned char *)base + r.page;
	if (env.aux_pages) {
		r.aux_size = env.aux_pages * r.page;
		r.up->aux_offset = (1 + DATA_PAGES) * r.page;
		r.up->aux_size = r.aux_size;
		r.aux = mmap(NULL, r.aux_size, PROT_READ | PROT_WRITE,
			     MAP_SHARED, r.fd, r.up->aux_offset);
		if (r.aux == MAP_FAILED) {
			fprintf(stderr, "chmu-perf: AUX mmap of %ld pages: %s\n",
				env.aux_pages, strerror(errno));
			r.aux = NULL;
			err = 2;
			goto cleanup;
		}
	}
	/* SIGINT/SIGTERM end the recording, not the program (even when a
	 * shell started it in the background with SIGINT ignored) */
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	signal(SIGUSR1, on_signal);
	if (ioctl(r.fd, PERF_EVENT_IOC_ENABLE, 0)) {
		fprintf(stderr, "chmu-perf: enable: %s\n", strerror(errno));
		err = 2;
		goto cleanup;
	}
	if (env.cmd && env.cmd[0]) {
		fflush(stdout);
		child = fork();
		if (child < 0) {
			perror("chmu-perf: fork");
			err = 2;
			goto cleanup;
		}
		if (!child) {
			execvp(env.cmd[0], env.cmd);
			fprintf(stderr, "chmu-perf: %s: %s\n", env.cmd[0],
				strerror(errno));
			_exit(127);
		}
		while (waitpid(child, &status, WNOHANG) == 0) {
			if (stop) {
				/* as perf record: the command is ended, the
				 * records so far are kept and printed */
				kill(child, SIGTERM);
				waitpid(child, &status, 0);
				break;
			}
			pause_resume(&r, &paused);
			drain(&r);
			sleep_ms(20);
		}
	}
	for (long t = 0; t < env.delay_ms && !stop; t += 20) {
		pause_resume(&r, &paused);
		drain(&r);
		sleep_ms(20);
	}
	ioctl(r.fd, PERF_EVENT_IOC_DISABLE, 0);
	drain(&r);
	if (read(r.fd, &count, sizeof(count)) != sizeof(count))
		count = 0;
	printf("summary records=%llu entries=%llu truncated=%llu lost_records=%llu partial=%llu event_count=%llu\n",
	       (unsigned long long)r.records, (unsigned long long)r.entries,
	       (unsigned long long)r.truncated,
	       (unsigned long long)r.lost_records,
	       (unsigned long long)r.partial, (unsigned long long)count);
	if (child && !stop && (!WIFEXITED(status) || WEXITSTATUS(status))) {
		fprintf(stderr, "chmu-perf: %s failed\n", env.cmd[0]);
		err = 1;
	}

cleanup:
	if (r.aux)
		munmap(r.aux, r.aux_size);
	if (base != MAP_FAILED)
		munmap(base, (1 + DATA_PAGES) * r.page);
	close(r.fd);
	return err;
}
