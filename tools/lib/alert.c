// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "alert.h"

int alert_init(struct alert_table *t, const struct alert_cfg *cfg, size_t cap)
{
	memset(t, 0, sizeof(*t));
	if (cfg->threshold <= 0 || cfg->rearm < 0 ||
	    cfg->rearm > cfg->threshold || cfg->window <= 0 ||
	    cfg->holdoff < 0 || (cfg->metric != ALERT_COUNT &&
				 cfg->metric != ALERT_RATE) || !cap)
		return -EINVAL;
	t->max = cap;
	t->cap = cap < ALERT_INITIAL_KEYS ? cap : ALERT_INITIAL_KEYS;
	t->v = calloc(t->cap, sizeof(*t->v));
	if (!t->v)
		return -ENOMEM;
	t->cfg = *cfg;
	return 0;
}

void alert_free(struct alert_table *t)
{
	free(t->v);
	t->v = NULL;
}

static size_t hash(const struct alert_key *k, size_t cap)
{
	uint64_t h = k->slot * 0x9e3779b97f4a7c15ULL ^ k->inst * 0xff51afd7ed558ccdULL;

	return (h ^ (h >> 29)) % cap;
}

static struct alert_state *find(struct alert_table *t,
				const struct alert_key *k, bool add);

/* Double the table (up to its maximum) once it is half full. */
static void grow(struct alert_table *t)
{
	struct alert_table n = *t;
	size_t i;

	if (t->used * 2 < t->cap || t->cap >= t->max)
		return;
	n.cap = t->cap * 2 < t->max ? t->cap * 2 : t->max;
	n.v = calloc(n.cap, sizeof(*n.v));
	if (!n.v)
		return;		/* keep probing the full-ish table */
	n.used = 0;
	for (i = 0; i < t->cap; i++) {
		if (t->v[i].used)
			*find(&n, &t->v[i].key, true) = t->v[i];
	}
	free(t->v);
	*t = n;
}

static struct alert_state *find(struct alert_table *t,
				const struct alert_key *k, bool add)
{
	size_t i, n;

	if (add)
		grow(t);
	i = hash(k, t->cap);

	for (n = 0; n < t->cap; n++, i = (i + 1) % t->cap) {
		struct alert_state *s = &t->v[i];

		if (s->used && s->key.inst == k->inst && s->key.slot == k->slot)
			return s;
		if (!s->used) {
			if (!add || t->used == t->cap)
				return NULL;
			memset(s, 0, sizeof(*s));
			s->used = true;
			s->armed = true;
			s->last_alert = -1;
			s->key = *k;
			t->used++;
			return s;
		}
	}
	return NULL;
}

double alert_value(const struct alert_table *t, const struct alert_state *s,
		   double now)
{
	double sum = 0;
	unsigned int i, idx;

	if (!s->n)
		return 0;
	if (t->cfg.metric == ALERT_COUNT) {
		idx = (s->head + ALERT_SAMPLES - 1) % ALERT_SAMPLES;
		return now - s->t[idx] < t->cfg.window ? (double)s->count[idx] : 0;
	}
	for (i = 0; i < s->n; i++) {
		idx = (s->head + ALERT_SAMPLES - 1 - i) % ALERT_SAMPLES;
		if (now - s->t[idx] >= t->cfg.window)
			break;
		sum += s->count[idx];
	}
	return sum / t->cfg.window;
}

static void maybe_rearm(struct alert_table *t, struct alert_state *s,
			double now)
{
	if (!s->armed && alert_value(t, s, now) < t->cfg.rearm) {
		s->armed = true;
		t->rearms++;
	}
}

int alert_observe(struct alert_table *t, const struct alert_key *key,
		  double now, uint64_t count, uint64_t hpa, int nid,
		  struct alert_event *ev)
{
	struct alert_state *s = find(t, key, true);
	double v;

	if (!s) {
		t->full++;
		return 0;
	}
	s->t[s->head] = now;
	s->count[s->head] = count;
	s->head = (s->head + 1) % ALERT_SAMPLES;
	if (s->n < ALERT_SAMPLES)
		s->n++;
	s->hpa = hpa;
	s->nid = nid;
	maybe_rearm(t, s, now);
	v = alert_value(t, s, now);
	if (!s->armed || v < t->cfg.threshold)
		return 0;
	s->armed = false;
	if (s->last_alert >= 0 && now - s->last_alert < t->cfg.holdoff) {
		t->suppressed++;
		return 0;
	}
	s->last_alert = now;
	t->alerts++;
	ev->key = *key;
	ev->time = now;
	ev->value = v;
	ev->hpa = hpa;
	ev->nid = nid;
	return 1;
}

void alert_tick(struct alert_table *t, double now)
{
	size_t i;

	for (i = 0; i < t->cap; i++)
		if (t->v[i].used)
			maybe_rearm(t, &t->v[i], now);
}
