// SPDX-License-Identifier: GPL-2.0
/* Unit tests of the tiering verdict's arithmetic (tools/lib/tierstat.c). */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "lib/tierstat.h"
#include "check.h"

#define NEAR(a, b) (fabs((a) - (b)) < 1e-9)

static void test_best_share(void)
{
	/* 100 accesses: 50, 30, 10, 5, 5 (given in any order) */
	uint64_t c[] = { 5, 30, 5, 50, 10 };
	uint64_t none[] = { 0, 0 };

	CHECK(NEAR(tier_best_share(c, 5, 0), 1));
	CHECK(NEAR(tier_best_share(c, 5, 1), 0.5));
	CHECK(NEAR(tier_best_share(c, 5, 2), 0.2));
	/* a time average of 1.5 units: the top one and half the next */
	CHECK(NEAR(tier_best_share(c, 5, 1.5), 0.35));
	CHECK(NEAR(tier_best_share(c, 5, 4.5), 0.025));
	CHECK(NEAR(tier_best_share(c, 5, 5), 0));
	CHECK(NEAR(tier_best_share(c, 5, 9), 0));
	CHECK(c[0] == 50 && c[4] == 5);		/* sorted in place */
	CHECK(NEAR(tier_best_share(none, 2, 1), 0));
}

static void test_window(void)
{
	struct tier_window w = { 0 };

	CHECK(NEAR(tier_window_capacity(&w), 0) && NEAR(tier_window_share(&w), 0));
	CHECK(NEAR(tier_window_capacity_acc(&w), 0));
	/* 1 s holding 10 units, 3 s holding 30: 25 on average over time;
	 * 1000 accesses then 1000: 20 on average over the accesses
	 */
	tier_window_add(&w, 1, 10, 1000, 600, 500, 700);
	tier_window_add(&w, 3, 30, 1000, 600, 600, 600);
	CHECK(NEAR(tier_window_capacity(&w), 25));
	CHECK(NEAR(tier_window_capacity_acc(&w), 20));
	CHECK(NEAR(tier_window_share(&w), 0.6));
	CHECK(w.slow_lo == 1100 && w.slow_hi == 1300);
}

/* A made-up verdict: regret against the best placement at time-averaged capacity */
static void test_regret(void)
{
	/* 4 units; the policy held unit 1 (30) for half the window, then
	 * units 1 and 0 (30 + 50): capacity 1.5, best share 1 - (50 + 15) / 100
	 */
	uint64_t c[] = { 50, 30, 10, 10 };
	struct tier_window w = { 0 };
	double regret;

	tier_window_add(&w, 1, 1, 50, 35, 35, 35);	/* unit 1's 15 of 50 in DRAM */
	tier_window_add(&w, 1, 2, 50, 10, 10, 10);	/* units 0 and 1's 40 of 50 */
	regret = tier_window_share(&w) - tier_best_share(c, 4, tier_window_capacity(&w));
	CHECK(NEAR(tier_window_capacity(&w), 1.5));
	CHECK(NEAR(tier_window_capacity_acc(&w), 1.5));
	CHECK(NEAR(tier_window_share(&w), 0.45));
	CHECK(NEAR(regret, 0.45 - 0.35));
}

static void test_paired(void)
{
	const double d[] = { 0.02, -0.01, 0.05, 0, 0.03, 0.04 };
	const double one[] = { -2 };
	struct tier_paired p;

	CHECK(tier_paired(d, 0, &p) == -EINVAL);
	CHECK(!tier_paired(d, 6, &p));
	CHECK(p.n == 6 && NEAR(p.median, 0.025) && NEAR(p.min, -0.01) && NEAR(p.max, 0.05));
	CHECK(p.pos == 4 && p.neg == 1 && p.zero == 1);
	CHECK(d[0] == 0.02 && d[1] == -0.01);	/* the input kept */
	CHECK(!tier_paired(d, 5, &p));
	CHECK(NEAR(p.median, 0.02));
	CHECK(!tier_paired(one, 1, &p));
	CHECK(NEAR(p.median, -2) && p.neg == 1);
}

/* Every arm once per position; every ordered pair adjacent equally often */
static void check_williams(unsigned int k)
{
	unsigned int rows = k % 2 ? 2 * k : k, b, i, o[64];
	unsigned int pos[64][64] = { { 0 } }, pair[64][64] = { { 0 } };
	unsigned int want = k % 2 ? 2 : 1, bad = 0;

	for (b = 0; b < rows; b++) {
		unsigned int seen = 0;

		CHECK(!tier_williams(k, b, o));
		for (i = 0; i < k; i++) {
			CHECK(o[i] < k);
			seen |= 1u << o[i];
			pos[o[i]][i]++;
			if (i)
				pair[o[i - 1]][o[i]]++;
		}
		CHECK(seen == (1u << k) - 1);	/* a permutation */
	}
	for (i = 0; i < k; i++)
		for (b = 0; b < k; b++) {
			bad += pos[i][b] != want;
			bad += i != b && pair[i][b] != want;
		}
	CHECK(!bad);
	/* the design repeats after its rows */
	CHECK(!tier_williams(k, rows + 1, o));
	{
		unsigned int o1[64];

		tier_williams(k, 1, o1);
		CHECK(!memcmp(o, o1, k * sizeof(*o)));
	}
}

static void test_williams(void)
{
	unsigned int o[4];

	CHECK(tier_williams(0, 0, o) == -EINVAL);
	CHECK(tier_williams(65, 0, o) == -EINVAL);
	/* the 4 x 4 square of the tiering blocks */
	CHECK(!tier_williams(4, 0, o));
	CHECK(o[0] == 0 && o[1] == 1 && o[2] == 3 && o[3] == 2);
	CHECK(!tier_williams(4, 1, o));
	CHECK(o[0] == 1 && o[1] == 2 && o[2] == 0 && o[3] == 3);
	check_williams(2);
	check_williams(3);
	check_williams(4);
	check_williams(5);
	check_williams(6);
}

static void test_sign_p(void)
{
	CHECK(NEAR(tier_sign_p(6, 6), 1.0 / 64));
	CHECK(NEAR(tier_sign_p(5, 6), 7.0 / 64));
	CHECK(NEAR(tier_sign_p(7, 8), 9.0 / 256));
	CHECK(NEAR(tier_sign_p(6, 8), 37.0 / 256));
	CHECK(NEAR(tier_sign_p(0, 6), 1));
	CHECK(NEAR(tier_sign_p(7, 6), 0));
	CHECK(tier_williams_period(4) == 4 && tier_williams_period(3) == 6);
}

static void test_model_and_reaction(void)
{
	const struct tier_point pts[] = {
		{ 1000, 0.30 }, { 2000, 0.01 }, { 3000, 0.40 }, { 4000, 0.20 },
		{ 5000, 0.06 }, { 6000, 0.04 }, { 7000, 0.01 },
	};

	CHECK(NEAR(tier_model_speed(0, 3), 1));
	CHECK(NEAR(tier_model_speed(1, 2), 0.5));
	CHECK(NEAR(tier_model_speed(0.25, 3), 1 / 1.5));
	/* the swap at 2500: back under 0.05 at 6000 */
	CHECK(tier_reaction(pts, 7, 2500, 0.05) == 3500);
	/* an interval ending at the swap is before it */
	CHECK(tier_reaction(pts, 7, 2000, 0.05) == 4000);
	CHECK(tier_reaction(pts, 7, 7000, 0.05) == UINT64_MAX);
	CHECK(tier_reaction(pts, 7, 0, 0.001) == UINT64_MAX);
}

int main(void)
{
	test_best_share();
	test_window();
	test_regret();
	test_paired();
	test_williams();
	test_sign_p();
	test_model_and_reaction();
	return check_report("test_tierstat");
}
