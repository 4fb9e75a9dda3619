// SPDX-License-Identifier: GPL-2.0
/*
 * hostmem: how steady this machine's own memory accesses are, without
 * QEMU. Random 8-byte reads over an anonymous mapping, the rate printed
 * every half second (millions per second). QEMU's accesses to a guest's
 * memory are host accesses of this kind, so a rate that moves here moves
 * every throughput figure of the lab (docs/bench.md, "One run's
 * throughput is not one speed").
 *
 *   cc -O2 -o hostmem bench/hostmem.c
 *   ./hostmem MIB SECONDS 4k|thp
 */
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

int main(int argc, char **argv)
{
	uint64_t x = 88172645463325252ULL, sum = 0, n = 0;
	double t0, last, t;
	size_t size;
	char *p;
	int secs;

	if (argc != 4 || atoi(argv[1]) <= 0 || atoi(argv[2]) <= 0 ||
	    (strcmp(argv[3], "4k") && strcmp(argv[3], "thp"))) {
		fprintf(stderr, "usage: hostmem MIB SECONDS 4k|thp\n");
		return 2;
	}
	size = (size_t)atoi(argv[1]) << 20;
	secs = atoi(argv[2]);
	p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED) {
		perror("hostmem: mmap");
		return 1;
	}
	if (madvise(p, size, strcmp(argv[3], "thp") ? MADV_NOHUGEPAGE : MADV_HUGEPAGE))
		perror("hostmem: madvise");
	memset(p, 1, size);
	t0 = last = now();
	do {
		for (int i = 0; i < 100000; i++) {
			uint64_t v;

			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			memcpy(&v, p + x % (size - 8), 8);
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
	return sum == 42;	/* keeps the reads */
}
