// SPDX-License-Identifier: GPL-2.0
/*
 * hostmem: how steady this machine's own memory accesses are, without
 * QEMU. 8-byte reads at random aligned offsets of an anonymous mapping,
 * the rate printed every half second in millions per second: serial
 * (default: each read's address comes from the previous read, a
 * latency, as QEMU's path through one vCPU's accesses) or parallel
 * (independent reads, as many in flight as the CPU takes). QEMU's
 * accesses to a guest's memory are host accesses of this kind, so a
 * rate that moves here moves the lab's memory-bound figures
 * (docs/bench.md, the tiering section's "not one speed").
 *
 *   cc -O2 -o hostmem bench/hostmem.c
 *   ./hostmem MIB SECONDS 4k|thp [serial|parallel]  (MIB a power of two)
 *
 * The mapping's AnonHugePages (smaps_rollup) go to stderr first: with
 * thp, whether the kernel gave huge pages at all.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}

static int number(const char *s, unsigned long max, unsigned long *v)
{
	char *end;

	errno = 0;
	*v = strtoul(s, &end, 10);
	return *s >= '0' && *s <= '9' && !*end && !errno && *v >= 1 && *v <= max;
}

static void huge_pages(void)
{
	char line[256];
	FILE *f = fopen("/proc/self/smaps_rollup", "r");

	while (f && fgets(line, sizeof(line), f))
		if (!strncmp(line, "AnonHugePages:", 14))
			fprintf(stderr, "hostmem: %s", line);
	if (f)
		fclose(f);
}

int main(int argc, char **argv)
{
	unsigned long mib, secs;
	uint64_t x = 88172645463325252ULL, mask, n = 0, sum = 0;
	int serial;
	double t0, last, t;
	size_t size;
	char *p;

	serial = argc < 5 || !strcmp(argv[4], "serial");
	if (argc < 4 || argc > 5 || !number(argv[1], 1UL << 20, &mib) || (mib & (mib - 1)) ||
	    !number(argv[2], 86400, &secs) || (strcmp(argv[3], "4k") && strcmp(argv[3], "thp")) ||
	    (!serial && strcmp(argv[4], "parallel"))) {
		fprintf(stderr, "usage: hostmem MIB SECONDS 4k|thp [serial|parallel] (MIB a power of two)\n");
		return 2;
	}
	size = (size_t)mib << 20;
	mask = size / 8 - 1;
	p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED) {
		perror("hostmem: mmap");
		return 1;
	}
	if (madvise(p, size, strcmp(argv[3], "thp") ? MADV_NOHUGEPAGE : MADV_HUGEPAGE))
		perror("hostmem: madvise");
	memset(p, 0, size);
	huge_pages();
	t0 = last = now();
	do {
		for (int i = 0; i < 100000; i++) {
			uint64_t v;

			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			v = *(volatile uint64_t *)(p + (x & mask) * 8);
			if (serial)
				x ^= v;	/* 0, but the next address waits for it */
			else
				sum += v;
			n++;
		}
		t = now();
		if (t - last >= 0.5) {
			printf("%.1f\n", n / (t - last) / 1e6);
			fflush(stdout);
			n = 0;
			last = t;
		}
	} while (t - t0 < secs);
	return sum != 0;	/* 0: the memory is zero */
}
