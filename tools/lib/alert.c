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

static bool idle(const struct alert_table *t, const struct alert_state *s,
		 double now);

static void slot_init(struct alert_table *t, struct alert_state *s,
		      const struct alert_key *k)
{
	unsigned int b;

	memset(s, 0, sizeof(*s));
	s->used = true;
	s->armed = true;
	s->last_alert = -1;
	s->t = -1;
	for (b = 0; b <= ALERT_BUCKETS; b++)
		s->b_step[b] = INT64_MIN;
	s->key = *k;
	t->used++;
}

/*
 * @k's slot: in the ALERT_PROBE slots from its hash on, never further (a
 * lookup costs the same in a full table as in an empty one). A new key
 * (@add) takes the first free one; *@full, if the window has none, is the
 * slot to give it: the window's first idle key (nothing to remember), else
 * its least recently seen one.
 */
static struct alert_state *probe(struct alert_table *t, const struct alert_key *k,
				 bool add, double now, struct alert_state **full)
{
	size_t i = hash(k, t->cap), n, lim = t->cap < ALERT_PROBE ? t->cap : ALERT_PROBE;
	struct alert_state *lru = NULL, *spare = NULL;

	for (n = 0; n < lim; n++, i = (i + 1) % t->cap) {
		struct alert_state *s = &t->v[i];

		t->probes++;
		if (s->used && s->key.inst == k->inst && s->key.slot == k->slot)
			return s;
		if (!s->used) {
			if (!add)
				return NULL;
			slot_init(t, s, k);
			return s;
		}
		if (full && !spare && idle(t, s, now))
			spare = s;
		if (!lru || s->t < lru->t)
			lru = s;
	}
	if (full)
		*full = spare ? spare : lru;
	return NULL;
}

/* Put @s in @t (a new table): into its window, else over its LRU key */
static void place(struct alert_table *t, const struct alert_state *s)
{
	struct alert_state *victim = NULL, *d = probe(t, &s->key, true, 0, &victim);

	if (!d) {
		t->evicted++;
		d = victim;
	}
	*d = *s;	/* the slot was counted: by slot_init(), or as the victim's */
}

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
		return;		/* keep using the table as it is */
	n.used = 0;
	for (i = 0; i < t->cap; i++) {
		if (t->v[i].used)
			place(&n, &t->v[i]);
	}
	free(t->v);
	*t = n;
}

/* The step of the window @now falls in (rounded down, also below 0). */
static int64_t step_of(const struct alert_table *t, double now)
{
	double x = now / (t->cfg.window / ALERT_BUCKETS);
	int64_t k = (int64_t)x;

	return x < k ? k - 1 : k;
}

double alert_value(const struct alert_table *t, const struct alert_state *s,
		   double now)
{
	double w = t->cfg.window / ALERT_BUCKETS, lo = now - t->cfg.window;
	int64_t step = step_of(t, now), first = step_of(t, lo);
	double sum = 0;
	unsigned int i;

	if (t->cfg.metric == ALERT_COUNT)
		return s->t >= 0 && now - s->t < t->cfg.window ? (double)s->count : 0;
	/* steps first..step hold the window; the first only in part */
	for (i = 0; i <= ALERT_BUCKETS; i++) {
		if (s->b_step[i] < first || s->b_step[i] > step)
			continue;
		if (s->b_step[i] > first)
			sum += s->b_sum[i];
		else
			sum += s->b_sum[i] * (((first + 1) * w - lo) / w);
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

/* Add an entry to the key's state: its batch's largest count, its step. */
static void account(struct alert_table *t, struct alert_state *s, double now,
		    uint64_t seq, uint64_t count, uint64_t hpa, int nid)
{
	int64_t step = step_of(t, now);
	unsigned int b = (uint64_t)step % (ALERT_BUCKETS + 1);
	bool same = s->t >= 0 && s->seq == seq;

	if (!same || count > s->count) {
		s->count = count;
		s->hpa = hpa;
		s->nid = nid;
	}
	s->seq = seq;
	s->t = now;
	if (s->b_step[b] != step) {
		s->b_step[b] = step;
		s->b_sum[b] = 0;
	}
	s->b_sum[b] += count;
}

/* Nothing left to remember: as a new key would be, once re-armed */
static bool idle(const struct alert_table *t, const struct alert_state *s,
		 double now)
{
	double v = alert_value(t, s, now);

	/* with -L 0 a disarmed key never re-arms: it has that to remember */
	return v <= 0 && (s->armed || v < t->cfg.rearm) &&
	       (s->last_alert < 0 || now - s->last_alert >= t->cfg.holdoff);
}

int alert_observe(struct alert_table *t, const struct alert_key *key,
		  double now, uint64_t seq, uint64_t count, uint64_t hpa,
		  int nid, struct alert_event *ev)
{
	struct alert_state *s, *victim = NULL;
	double v;

	grow(t);
	s = probe(t, key, true, now, &victim);
	if (!s) {
		/* no room in its window: the key there least worth keeping goes */
		if (!victim) {
			t->full++;
			return 0;
		}
		if (idle(t, victim, now))
			t->reclaimed++;
		else
			t->evicted++;
		t->used--;
		s = victim;
		slot_init(t, s, key);
	}
	/*
	 * Re-arming looks at whole batches: the last one, before this entry
	 * starts a new one. Within a batch the value only grows (count: its
	 * largest; rate: a sum), whatever order the device posts units in.
	 */
	if (s->t < 0 || s->seq != seq)
		maybe_rearm(t, s, now);
	account(t, s, now, seq, count, hpa, nid);
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
	ev->hpa = s->hpa;
	ev->nid = s->nid;
	return 1;
}

void alert_tick(struct alert_table *t, double now)
{
	size_t i;

	/* a key with an entry in the last ALERT_SETTLE s may be mid-batch */
	for (i = 0; i < t->cap; i++)
		if (t->v[i].used && now - t->v[i].t >= ALERT_SETTLE)
			maybe_rearm(t, &t->v[i], now);
}

uint64_t alert_ringbuf_size(uint64_t entries, unsigned int drains,
			    unsigned int chunk, size_t hdr, size_t item,
			    uint64_t min)
{
	uint64_t rec = (8 + hdr + (uint64_t)chunk * item + 7) / 8 * 8;
	uint64_t need = (entries + chunk - 1) / chunk * rec * drains, size = min;

	while (size < need && size < (1ULL << 62))
		size <<= 1;
	return size;
}
