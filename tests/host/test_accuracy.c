// SPDX-License-Identifier: GPL-2.0
/* Unit tests of the Zipf generator and the hot-set scoring (make bench). */
#include <errno.h>
#include <math.h>
#include <string.h>
#include <stdlib.h>

#include "lib/score.h"
#include "lib/zipf.h"
#include "check.h"

static void test_zipf(void)
{
	struct zipf a, b;
	static unsigned int hits[1000];
	unsigned char seen[1000] = { 0 };
	uint32_t i, same = 1;
	double h = 0;

	CHECK(zipf_init(&a, 0, 1.0, 1) == -EINVAL);
	CHECK(zipf_init(&a, 10, -1.0, 1) == -EINVAL);
	CHECK(zipf_init(&a, 10, NAN, 1) == -EINVAL);

	/* The same seed gives the same permutation and the same draws. */
	CHECK(!zipf_init(&a, 1000, 1.0, 42));
	CHECK(!zipf_init(&b, 1000, 1.0, 42));
	for (i = 0; i < 1000; i++) {
		same &= a.perm[i] == b.perm[i];
		seen[a.perm[i]] = 1;
	}
	for (i = 0; i < 1000; i++)
		same &= seen[i];
	CHECK(same);	/* and the permutation is one */
	for (i = 0; i < 10000; i++)
		same &= zipf_unit(&a) == zipf_unit(&b);
	CHECK(same);

	/*
	 * A shuffle moves the hot set: still a permutation, the same for
	 * the same generator state, and the 64 hottest ranks mostly on
	 * other units (1000 units: about 4 of 64 by chance).
	 */
	{
		uint32_t before[64], moved = 0;

		for (i = 0; i < 64; i++)
			before[i] = a.perm[i];
		zipf_shuffle(&a);
		zipf_shuffle(&b);
		memset(seen, 0, sizeof(seen));
		for (i = 0; i < 1000; i++) {
			same &= a.perm[i] == b.perm[i];
			seen[a.perm[i]] = 1;
		}
		for (i = 0; i < 1000; i++)
			same &= seen[i];
		CHECK(same);
		for (i = 0; i < 64; i++) {
			uint32_t j, found = 0;

			for (j = 0; j < 64; j++)
				found |= a.perm[j] == before[i];
			moved += !found;
		}
		CHECK(moved >= 48);
	}
	zipf_free(&b);

	/* P(rank 0) = 1/H(1000), rank 0 about twice rank 1, ten times rank 9. */
	for (i = 0; i < 1000000; i++)
		hits[zipf_rank(&a)]++;
	for (i = 1; i <= 1000; i++)
		h += 1.0 / i;
	CHECK(fabs(hits[0] / 1e6 - 1 / h) < 0.003);
	CHECK(fabs((double)hits[0] / hits[1] - 2) < 0.1);
	CHECK(fabs((double)hits[0] / hits[9] - 10) < 1);
	CHECK(hits[999] > 0);
	zipf_free(&a);

	/* s = 0 is uniform. */
	CHECK(!zipf_init(&a, 4, 0, 7));
	for (i = 0; i < 4; i++)
		hits[i] = 0;
	for (i = 0; i < 400000; i++)
		hits[zipf_rank(&a)]++;
	for (i = 0; i < 4; i++)
		CHECK(fabs(hits[i] / 4e5 - 0.25) < 0.005);
	zipf_free(&a);
}

static void test_score_sets(void)
{
	struct score_set s = { 0 };
	size_t tied;

	/* Same unit merges; a range spreads over the units it covers. */
	CHECK(!score_add(&s, 0x1008, 5, 0x1000));
	CHECK(!score_add(&s, 0x1000, 2, 0x1000));
	CHECK(!score_add_range(&s, 0x1800, 0x4000, 10, 0x1000));
	CHECK(score_add_range(&s, 0x4000, 0x4000, 1, 0x1000) == -EINVAL);
	CHECK(!score_add(&s, 0x9000, 0, 0x1000));
	score_merge(&s);
	CHECK(s.n == 3);	/* the zero score is dropped */
	CHECK(s.v[0].addr == 0x1000 && s.v[0].score == 12);	/* 5 + 2 + 10/2 */
	CHECK(s.v[1].addr == 0x2000 && s.v[1].score == 10);
	CHECK(s.v[2].addr == 0x3000 && s.v[2].score == 10);

	/* K hottest; ties at the boundary counted, in or out. */
	CHECK(score_hot(&s, 1, &tied) == 1 && tied == 1);
	CHECK(s.v[0].addr == 0x1000);
	CHECK(score_hot(&s, 2, &tied) == 2 && tied == 2);
	CHECK(score_hot(&s, 5, &tied) == 3 && tied == 2);
	CHECK(score_hot(&s, 0, &tied) == 0 && tied == 0);
	score_free(&s);
}

static void test_score_compare(void)
{
	struct score_set t = { 0 }, r = { 0 };
	struct score_result res;
	uint64_t u;

	/* Truth: unit u has 100 - u accesses, units 0..99. */
	for (u = 0; u < 100; u++)
		CHECK(!score_add(&t, u << 12, 100 - u, 4096));
	/* A report of units 0..3 and 50 (k = 5): 4 hits of 5. */
	for (u = 0; u < 4; u++)
		CHECK(!score_add(&r, u << 12, 9 - u, 4096));
	CHECK(!score_add(&r, 50 << 12, 1, 4096));
	CHECK(!score_compare(&t, &r, 5, &res));
	CHECK(res.truth == 5 && res.reported == 5 && res.hits == 4);
	CHECK(res.recall == 0.8 && res.precision == 0.8);
	CHECK(fabs(res.ideal - (100 + 99 + 98 + 97 + 96) / 5050.0) < 1e-12);
	CHECK(fabs(res.captured - (100 + 99 + 98 + 97 + 50) / 5050.0) < 1e-12);
	score_free(&r);

	/* A region exactly over the hot units: all found. */
	CHECK(!score_add_range(&r, 0, 5 << 12, 3, 4096));
	CHECK(!score_add_range(&r, 5 << 12, 64 << 12, 1, 4096));
	CHECK(!score_compare(&t, &r, 5, &res));
	CHECK(res.reported == 5 && res.hits == 5 && res.tied == 5);
	CHECK(res.recall == 1.0 && res.precision == 1.0);
	score_free(&r);

	/*
	 * One region over units 0..39 cannot tell them apart: 5 of its 40
	 * units are picked, not the first 5 by address (chance: 5/40 each).
	 */
	CHECK(!score_add_range(&r, 0, 40 << 12, 3, 4096));
	CHECK(!score_compare(&t, &r, 5, &res));
	CHECK(res.reported == 5 && res.tied == 40 && res.hits < 5);
	CHECK(res.recall == res.hits / 5.0 && res.precision == res.recall);

	/* Fewer units reported than K: precision over those reported. */
	score_free(&r);
	CHECK(!score_add(&r, 0, 7, 4096));
	CHECK(!score_add(&r, 90 << 12, 5, 4096));
	CHECK(!score_compare(&t, &r, 5, &res));
	CHECK(res.reported == 2 && res.hits == 1);
	CHECK(res.recall == 0.2 && res.precision == 0.5);

	/* An empty report. */
	score_free(&r);
	CHECK(!score_compare(&t, &r, 5, &res));
	CHECK(res.reported == 0 && res.hits == 0 && res.recall == 0 &&
	      res.precision == 0 && res.captured == 0);
	score_free(&t);
	score_free(&r);
}

int main(void)
{
	test_zipf();
	test_score_sets();
	test_score_compare();
	return check_report("test_accuracy");
}
