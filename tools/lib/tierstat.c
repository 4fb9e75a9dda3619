// SPDX-License-Identifier: GPL-2.0
/* The arithmetic of a tiering verdict: see tierstat.h. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tierstat.h"

static int cmp_desc(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? 1 : x > y ? -1 : 0;
}

double tier_best_share(uint64_t *counts, size_t n, double k)
{
	uint64_t total = 0, top = 0;
	size_t i, whole;
	double frac;

	for (i = 0; i < n; i++)
		total += counts[i];
	if (!total)
		return 0;
	if (!(k > 0))
		return 1;
	if (k >= (double)n)
		return 0;
	qsort(counts, n, sizeof(*counts), cmp_desc);
	whole = (size_t)k;
	frac = k - (double)whole;
	for (i = 0; i < whole; i++)
		top += counts[i];
	return 1 - ((double)top + frac * (double)counts[whole]) / (double)total;
}

void tier_window_add(struct tier_window *w, double secs, double k, uint64_t accesses,
		     uint64_t slow, uint64_t slow_lo, uint64_t slow_hi)
{
	w->secs += secs;
	w->k_secs += k * secs;
	w->k_acc += k * (double)accesses;
	w->accesses += accesses;
	w->slow += slow;
	w->slow_lo += slow_lo;
	w->slow_hi += slow_hi;
}

double tier_window_capacity(const struct tier_window *w)
{
	return w->secs > 0 ? w->k_secs / w->secs : 0;
}

double tier_window_capacity_acc(const struct tier_window *w)
{
	return w->accesses ? w->k_acc / (double)w->accesses : 0;
}

double tier_window_share(const struct tier_window *w)
{
	return w->accesses ? (double)w->slow / (double)w->accesses : 0;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y ? 1 : 0;
}

int tier_paired(const double *d, size_t n, struct tier_paired *out)
{
	double *s;
	size_t i;

	if (!n)
		return -EINVAL;
	s = malloc(n * sizeof(*s));
	if (!s)
		return -ENOMEM;
	memcpy(s, d, n * sizeof(*s));
	qsort(s, n, sizeof(*s), cmp_double);
	memset(out, 0, sizeof(*out));
	out->n = n;
	out->min = s[0];
	out->max = s[n - 1];
	out->median = n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
	for (i = 0; i < n; i++) {
		if (s[i] > 0)
			out->pos++;
		else if (s[i] < 0)
			out->neg++;
		else
			out->zero++;
	}
	free(s);
	return 0;
}

double tier_sign_p(unsigned int k, unsigned int n)
{
	double p = 0, c = 1;	/* c: n choose i, from i = 0 */
	unsigned int i;

	if (k > n)
		return 0;
	for (i = 0; i <= n; i++) {
		if (i >= k)
			p += c;
		c = c * (n - i) / (i + 1);
	}
	return p / pow(2, n);
}

unsigned int tier_williams_period(unsigned int k)
{
	return k % 2 ? 2 * k : k;
}

int tier_williams(unsigned int k, unsigned int block, unsigned int *order)
{
	unsigned int i, row, first[64];

	if (!k || k > 64)
		return -EINVAL;
	/* The first row: 0, 1, k-1, 2, k-2, 3, ...; row r adds r (mod k) */
	for (i = 0; i < k; i++)
		first[i] = i % 2 ? (i + 1) / 2 : (k - i / 2) % k;
	row = block % tier_williams_period(k);
	for (i = 0; i < k; i++) {
		unsigned int pos = row < k ? i : k - 1 - i;	/* odd k: mirrored */

		order[i] = (first[pos] + row) % k;
	}
	return 0;
}

double tier_model_speed(double slow_share, double ratio)
{
	return 1 / (1 - slow_share + slow_share * ratio);
}

uint64_t tier_reaction(const struct tier_point *pts, size_t n, uint64_t from,
		       double threshold)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (pts[i].accesses > from && pts[i].regret < threshold)
			return pts[i].accesses - from;
	return UINT64_MAX;
}
