/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Accuracy of a hot-set report against a known ground truth (make bench).
 *
 * Both sides are scores per unit address: the truth is the workload's own
 * access count per unit; a report is either per unit (a CHMU count) or per
 * address range (a DAMON region's nr_accesses, spread over the units it
 * covers, summed over snapshots). The hot set of K is the K hottest units
 * with a score above zero (fewer if fewer have one): what a tiering policy
 * would promote on that report. Equal scores are ordered by a fixed
 * scramble of the address, not by address, so a report that cannot tell
 * units apart (one region over many) does no better than chance; the
 * number of units tied at the boundary is reported.
 */
#ifndef CHMU_SCORE_H
#define CHMU_SCORE_H

#include <stddef.h>
#include <stdint.h>

struct score_item {
	uint64_t addr;		/* unit base address */
	double score;
};

struct score_set {
	struct score_item *v;
	size_t n, cap;
};

/* Add @score to the unit at @addr (aligned down to @unit). 0 or -ENOMEM. */
int score_add(struct score_set *s, uint64_t addr, double score, uint64_t unit);
/*
 * Spread @score over [start, end): each unit it overlaps gets @score
 * times the fraction of the unit covered. 0, -EINVAL (end <= start) or
 * -ENOMEM.
 */
int score_add_range(struct score_set *s, uint64_t start, uint64_t end,
		    double score, uint64_t unit);
/* Merge entries of the same address (summing), drop scores <= 0. */
void score_merge(struct score_set *s);
/*
 * Merge, sort hottest first and return the size of the hot set of @k,
 * min(k, units). @tied (optional): how many units share the score of the
 * last one in the set, in it or not.
 */
size_t score_hot(struct score_set *s, size_t k, size_t *tied);
void score_free(struct score_set *s);

struct score_result {
	size_t k, truth, reported, hits;
	size_t tied;		/* report's units tied at its boundary */
	double recall, precision;
	double captured, ideal;	/* share of all true accesses in each set */
};

/* Compare the hot sets of @k of @truth and @rep (sorts both). 0 or -ENOMEM. */
int score_compare(struct score_set *truth, struct score_set *rep, size_t k,
		  struct score_result *res);

#endif
