/* SPDX-License-Identifier: GPL-2.0 */
/* Minimal assertion helpers for the host unit tests. */
#ifndef CHMU_CHECK_H
#define CHMU_CHECK_H

#include <stdio.h>
#include <string.h>

static int check_failures, check_total;

#define CHECK(cond)                                                           \
	do {                                                                  \
		check_total++;                                                \
		if (!(cond)) {                                                \
			check_failures++;                                     \
			fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__,\
				__LINE__, #cond);                             \
		}                                                             \
	} while (0)

static inline int check_report(const char *name)
{
	if (check_failures)
		fprintf(stderr, "%s: %d of %d checks failed\n", name,
			check_failures, check_total);
	return check_failures ? 1 : 0;
}

#endif
