// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdlib.h>

#include "score.h"

int score_add(struct score_set *s, uint64_t addr, double score, uint64_t unit)
{
	if (s->n == s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 1024;
		struct score_item *v = realloc(s->v, cap * sizeof(*v));

		if (!v)
			return -ENOMEM;
		s->v = v;
		s->cap = cap;
	}
	s->v[s->n++] = (struct score_item){ .addr = addr / unit * unit, .score = score };
	return 0;
}

int score_add_range(struct score_set *s, uint64_t start, uint64_t end,
		    double score, uint64_t unit)
{
	uint64_t a;

	if (end <= start)
		return -EINVAL;
	for (a = start / unit * unit; a < end; a += unit) {
		uint64_t lo = a < start ? start : a;
		uint64_t hi = a + unit > end ? end : a + unit;
		int err = score_add(s, a, score * (double)(hi - lo) / unit, unit);

		if (err)
			return err;
	}
	return 0;
}

static int by_addr(const void *pa, const void *pb)
{
	const struct score_item *a = pa, *b = pb;

	return a->addr < b->addr ? -1 : a->addr > b->addr;
}

/* A fixed scramble of the address: ties fall in no address order. */
static uint64_t mix(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53ULL;
	return x ^ (x >> 33);
}

static int hottest(const void *pa, const void *pb)
{
	const struct score_item *a = pa, *b = pb;
	uint64_t ha = mix(a->addr), hb = mix(b->addr);

	if (a->score != b->score)
		return a->score < b->score ? 1 : -1;
	if (ha != hb)
		return ha < hb ? -1 : 1;
	return by_addr(pa, pb);
}

void score_merge(struct score_set *s)
{
	size_t i, o = 0;

	qsort(s->v, s->n, sizeof(*s->v), by_addr);
	for (i = 0; i < s->n; i++) {
		if (o && s->v[o - 1].addr == s->v[i].addr)
			s->v[o - 1].score += s->v[i].score;
		else
			s->v[o++] = s->v[i];
	}
	s->n = o;
	for (i = o = 0; i < s->n; i++)
		if (s->v[i].score > 0)
			s->v[o++] = s->v[i];
	s->n = o;
}

size_t score_hot(struct score_set *s, size_t k, size_t *tied)
{
	size_t n, lo;

	score_merge(s);
	qsort(s->v, s->n, sizeof(*s->v), hottest);
	n = k < s->n ? k : s->n;
	if (tied) {
		*tied = 0;
		if (n) {
			for (lo = n - 1; lo > 0 && s->v[lo - 1].score == s->v[n - 1].score; lo--)
				;
			for (*tied = n; *tied < s->n && s->v[*tied].score == s->v[n - 1].score;)
				++*tied;
			*tied -= lo;
		}
	}
	return n;
}

int score_compare(struct score_set *truth, struct score_set *rep, size_t k,
		  struct score_result *res)
{
	size_t nt = score_hot(truth, k, NULL), i, nr;
	double total = 0, cap = 0, ideal = 0;
	struct score_item *tv;

	*res = (struct score_result){ .k = k, .truth = nt };
	nr = res->reported = score_hot(rep, k, &res->tied);
	for (i = 0; i < truth->n; i++)
		total += truth->v[i].score;
	for (i = 0; i < nt; i++)
		ideal += truth->v[i].score;
	/* A by-address copy of the truth for lookups. */
	tv = malloc((truth->n + 1) * sizeof(*tv));
	if (!tv)
		return -ENOMEM;
	for (i = 0; i < truth->n; i++)
		tv[i] = truth->v[i];
	qsort(tv, truth->n, sizeof(*tv), by_addr);
	for (i = 0; i < nr; i++) {
		struct score_item key = { .addr = rep->v[i].addr };
		const struct score_item *t;

		t = bsearch(&key, tv, truth->n, sizeof(*tv), by_addr);
		if (!t)
			continue;
		cap += t->score;
		/* In the truth's hot set (same order: compare positions). */
		if (nt && hottest(t, &truth->v[nt - 1]) <= 0)
			res->hits++;
	}
	free(tv);
	res->recall = nt ? (double)res->hits / nt : 0;
	res->precision = nr ? (double)res->hits / nr : 0;
	res->captured = total > 0 ? cap / total : 0;
	res->ideal = total > 0 ? ideal / total : 0;
	return 0;
}

void score_free(struct score_set *s)
{
	free(s->v);
	*s = (struct score_set){ 0 };
}
