/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The arithmetic of a tiering verdict (docs/bench.md, "Tiering verdicts"):
 * placement regret per access, capacity held, paired differences across
 * blocks, the order of arms within a block, and the hardware throughput a
 * placement would have. Pure functions, tested on the host.
 *
 * Placement regret over a window is the share of the working set's
 * accesses served from the slow tier, less the least share any placement
 * holding the same number of pages in the fast tier could have had: the
 * pages a policy held in DRAM, time-averaged over the window, given to the
 * window's most accessed pages. Regret is 0 for a policy that picked the
 * right pages, whatever capacity it held; capacity is reported beside it.
 */
#ifndef CHMU_TIERSTAT_H
#define CHMU_TIERSTAT_H

#include <stddef.h>
#include <stdint.h>

/*
 * The least slow-tier share of @n units' accesses (@counts over a window)
 * when @k of them (fractional: a time average) are in the fast tier: 1 -
 * (the top floor(k) counts + frac(k) of the next) / total. @counts is
 * sorted in place, descending. 0 when there was no access.
 */
double tier_best_share(uint64_t *counts, size_t n, double k);

/*
 * A window's intervals, accumulated. An interval's accesses are taken as
 * served from the tier a unit is in at the interval's end (slow); a unit
 * that changed tiers during the interval is uncertain, so the share is
 * bounded by the units slow at both ends (slow_lo) and at either end
 * (slow_hi).
 */
struct tier_window {
	double secs;		/* the intervals' length */
	double k_secs;		/* the fast tier's units, times seconds */
	double k_acc;		/* the fast tier's units, times accesses */
	uint64_t accesses;	/* the working set's accesses */
	uint64_t slow, slow_lo, slow_hi;	/* of those, to slow units */
};

/*
 * One interval of @secs: @k units in the fast tier at its end,
 * @accesses, @slow of them to units in the slow tier at its end, @slow_lo
 * to units slow at both ends, @slow_hi to units slow at either end.
 */
void tier_window_add(struct tier_window *w, double secs, double k, uint64_t accesses,
		     uint64_t slow, uint64_t slow_lo, uint64_t slow_hi);
/* The window's time-averaged fast-tier units (0 for an empty window) */
double tier_window_capacity(const struct tier_window *w);
/*
 * Its fast-tier units averaged over its accesses (0 without accesses):
 * the capacity a per-access regret is judged at (under emulation a slow
 * interval has fewer accesses a second, so the two averages differ while
 * the capacity moves)
 */
double tier_window_capacity_acc(const struct tier_window *w);
/* Its slow-tier share of accesses (0 without accesses) */
double tier_window_share(const struct tier_window *w);

/* Paired differences across blocks (one arm's value less another's) */
struct tier_paired {
	size_t n;
	double median, min, max;
	unsigned int pos, neg, zero;	/* the sign count */
};

/* Summarise @n differences (@d is left as it was). 0, or -EINVAL for none. */
int tier_paired(const double *d, size_t n, struct tier_paired *out);

/*
 * The one-sided sign test: the chance of @k or more of @n blocks going
 * one way when either way is as likely, P(X >= k) for X ~ Bin(n, 1/2).
 * A tie counts against the direction tested (conservative). 1 for k = 0.
 */
double tier_sign_p(unsigned int k, unsigned int n);

/* The blocks after which a Williams design of @k arms is balanced: k, or 2k when k is odd */
unsigned int tier_williams_period(unsigned int k);

/*
 * The order of @k arms in block @block (from 0), from a Williams design:
 * over k blocks (2k when k is odd) every arm runs once in each position
 * and follows every other arm equally often, so a carry-over from one arm
 * into the next and a drift along a block weigh on every arm alike.
 * @order gets @k arm indexes. 0, or -EINVAL for k of 0 or over 64.
 */
int tier_williams(unsigned int k, unsigned int block, unsigned int *order);

/*
 * Throughput relative to all-DRAM of a run with @slow_share of its
 * accesses to a tier @ratio times slower (CXL: about 2 to 3), when every
 * access costs its latency: 1 / (1 - s + s * ratio).
 */
double tier_model_speed(double slow_share, double ratio);

/* A point of a run: accesses so far and the regret of the interval ending there */
struct tier_point {
	uint64_t accesses;
	double regret;
};

/*
 * Accesses from @from (e.g. the hot/cold swap) until the first interval
 * ending after it whose regret is under @threshold; UINT64_MAX if none.
 * @pts in order of accesses.
 */
uint64_t tier_reaction(const struct tier_point *pts, size_t n, uint64_t from,
		       double threshold);

#endif
