// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include "zipf.h"

uint64_t zipf_rand(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* A uniform double in [0, 1) from the top 53 bits. */
static double uniform(uint64_t *state)
{
	return (double)(zipf_rand(state) >> 11) * (1.0 / 9007199254740992.0);
}

int zipf_init(struct zipf *z, uint32_t n, double s, uint64_t seed)
{
	double sum = 0;
	uint32_t r;

	*z = (struct zipf){ .n = n, .rng = seed };
	if (!n || !(s >= 0) || s > 16)
		return -EINVAL;
	z->cdf = malloc(n * sizeof(*z->cdf));
	z->perm = malloc(n * sizeof(*z->perm));
	if (!z->cdf || !z->perm) {
		zipf_free(z);
		return -ENOMEM;
	}
	for (r = 0; r < n; r++) {
		sum += pow(r + 1.0, -s);
		z->cdf[r] = sum;
	}
	for (r = 0; r < n; r++)
		z->cdf[r] /= sum;
	z->cdf[n - 1] = 1.0;
	for (r = 0; r < n; r++)
		z->perm[r] = r;
	zipf_shuffle(z);
	return 0;
}

/* Fisher-Yates with the same generator: repeatable from the seed. */
void zipf_shuffle(struct zipf *z)
{
	if (!z->n)
		return;
	for (uint32_t r = z->n - 1; r > 0; r--) {
		uint32_t j = zipf_rand(&z->rng) % (r + 1), t = z->perm[r];

		z->perm[r] = z->perm[j];
		z->perm[j] = t;
	}
}

uint32_t zipf_rank(struct zipf *z)
{
	double u = uniform(&z->rng);
	uint32_t lo = 0, hi = z->n - 1;

	/* The first rank whose cdf exceeds u. */
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (z->cdf[mid] > u)
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo;
}

uint32_t zipf_unit(struct zipf *z)
{
	return z->perm[zipf_rank(z)];
}

void zipf_free(struct zipf *z)
{
	free(z->cdf);
	free(z->perm);
	z->cdf = NULL;
	z->perm = NULL;
}
