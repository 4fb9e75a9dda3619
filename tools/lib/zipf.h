/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A seeded Zipf-distributed unit generator for workloads with a known
 * ground truth: rank r (0 = hottest) is drawn with probability
 * proportional to 1 / (r + 1)^s, and ranks map to units through a seeded
 * random permutation so that hot units are scattered over the area.
 */
#ifndef CHMU_ZIPF_H
#define CHMU_ZIPF_H

#include <stdint.h>

struct zipf {
	uint32_t n;
	double *cdf;		/* cdf[r] = P(rank <= r) */
	uint32_t *perm;		/* rank -> unit */
	uint64_t rng;
};

/* splitmix64: the next 64 random bits of *state. */
uint64_t zipf_rand(uint64_t *state);

/* n units, exponent s >= 0 (0: uniform). 0, -EINVAL or -ENOMEM. */
int zipf_init(struct zipf *z, uint32_t n, double s, uint64_t seed);
uint32_t zipf_rank(struct zipf *z);	/* the next rank drawn */
uint32_t zipf_unit(struct zipf *z);	/* the next unit drawn */
/* Map ranks to units anew (the hot set moves), from the generator. */
void zipf_shuffle(struct zipf *z);
void zipf_free(struct zipf *z);

#endif
