// SPDX-License-Identifier: GPL-2.0
/* Unit tests of chmualert's state machine. */
#include <errno.h>
#include <stddef.h>
#include <linux/types.h>

#include "check.h"
#include "../../tools/lib/alert.h"
#include "../../tools/chmualert.h"

static const struct alert_key k7 = { 0, 7 }, k3 = { 0, 3 };

/* One entry, alone in its batch. */
static int obs(struct alert_table *t, const struct alert_key *k, double now,
	       uint64_t count, double *value)
{
	static uint64_t seq;
	struct alert_event ev = { 0 };
	int r = alert_observe(t, k, now, ++seq, count, 0x110000000 + k->slot,
			      -1, &ev);

	if (r && value)
		*value = ev.value;
	return r;
}

/* An entry of batch @seq at @hpa; the alert's value and HPA. */
static int obs_in(struct alert_table *t, const struct alert_key *k,
		  double now, uint64_t seq, uint64_t count, uint64_t hpa,
		  struct alert_event *ev)
{
	return alert_observe(t, k, now, seq, count, hpa, -1, ev);
}

static void test_config(void)
{
	struct alert_table t;
	struct alert_cfg c = { ALERT_COUNT, 200, 100, 3, 0 };

	CHECK(alert_init(&t, &c, 16) == 0);
	alert_free(&t);
	c.rearm = 300;
	CHECK(alert_init(&t, &c, 16) == -EINVAL);
	c.rearm = 100;
	c.window = 0;
	CHECK(alert_init(&t, &c, 16) == -EINVAL);
	c.window = 3;
	c.threshold = 0;
	CHECK(alert_init(&t, &c, 16) == -EINVAL);
	c.threshold = 200;
	CHECK(alert_init(&t, &c, 0) == -EINVAL);
}

/* Count metric: cross, stay above, fall below the re-arm level, cross. */
static void test_hysteresis(void)
{
	struct alert_table t;
	struct alert_cfg c = { ALERT_COUNT, 200, 100, 3, 0 };
	double v = 0;

	CHECK(alert_init(&t, &c, 16) == 0);
	CHECK(obs(&t, &k7, 0, 300, &v) == 1 && v == 300);
	CHECK(obs(&t, &k7, 2, 250, NULL) == 0);	/* still above 100 */
	CHECK(obs(&t, &k7, 4, 150, NULL) == 0);	/* between: not re-armed */
	CHECK(obs(&t, &k7, 6, 220, NULL) == 0);
	CHECK(obs(&t, &k7, 8, 50, NULL) == 0);	/* re-arms once the batch is over: */
	alert_tick(&t, 8.5);			/* the tool ticks after each poll */
	CHECK(t.rearms == 1);
	CHECK(obs(&t, &k7, 10, 220, &v) == 1 && v == 220);
	CHECK(obs(&t, &k3, 10, 199, NULL) == 0);	/* other key, below */
	CHECK(obs(&t, &k3, 11, 200, &v) == 1 && v == 200);
	CHECK(t.alerts == 3);
	alert_free(&t);
}

/* A key silent for a whole window counts as 0 and re-arms on a tick. */
static void test_window_expiry(void)
{
	struct alert_table t;
	struct alert_cfg c = { ALERT_COUNT, 200, 100, 3, 0 };

	CHECK(alert_init(&t, &c, 16) == 0);
	CHECK(obs(&t, &k7, 0, 300, NULL) == 1);
	alert_tick(&t, 2.9);
	CHECK(t.rearms == 0);
	alert_tick(&t, 3.0);
	CHECK(t.rearms == 1);
	CHECK(obs(&t, &k7, 3.5, 300, NULL) == 1);
	alert_free(&t);
}

/* Rate metric: counts summed over the window, per second. */
static void test_rate(void)
{
	struct alert_table t;
	struct alert_cfg c = { ALERT_RATE, 100, 50, 2, 0 };
	double v = 0;

	CHECK(alert_init(&t, &c, 16) == 0);
	CHECK(obs(&t, &k7, 0, 60, NULL) == 0);	/* 30/s */
	CHECK(obs(&t, &k7, 1, 80, NULL) == 0);	/* 70/s */
	CHECK(obs(&t, &k7, 1.5, 60, &v) == 1 && v == 100);
	alert_tick(&t, 2.5);			/* the sample at 0 is out: 140/2 */
	CHECK(t.rearms == 0);			/* 70/s still >= 50 */
	alert_tick(&t, 3.4);			/* only 1.5 s left: 30/s */
	CHECK(t.rearms == 1);
	CHECK(obs(&t, &k7, 3.45, 200, &v) == 1 && v == 130);
	alert_free(&t);
}

/* Five epochs, one batch each: the hot and the cold unit of a region. */
static int five_epochs(struct alert_table *t, bool cold_first)
{
	struct alert_event ev = { 0 };
	int e, alerts = 0;

	for (e = 0; e < 5; e++) {
		if (cold_first)
			alerts += obs_in(t, &k7, e, 10 + e, 100, 0x110003000, &ev);
		alerts += obs_in(t, &k7, e, 10 + e, 300, 0x110007000, &ev);
		if (!cold_first)
			alerts += obs_in(t, &k7, e, 10 + e, 100, 0x110003000, &ev);
		alert_tick(t, e + 0.5);
	}
	return alerts;
}

/*
 * A region (-g) key whose batch holds a hot unit and then colder ones:
 * the count is the batch's largest, so the colder units neither re-arm
 * the key nor make it alert again next epoch; the alert names the hot
 * unit's HPA.
 */
static void test_batch_count(void)
{
	struct alert_table t;
	struct alert_cfg c = { ALERT_COUNT, 200, 150, 3, 0 };
	struct alert_event ev = { 0 };

	CHECK(alert_init(&t, &c, 16) == 0);
	CHECK(five_epochs(&t, false) == 1 && t.alerts == 1 && t.rearms == 0);
	alert_free(&t);
	/* the device may post the colder unit first: still one alert */
	CHECK(alert_init(&t, &c, 16) == 0);
	CHECK(five_epochs(&t, true) == 1 && t.alerts == 1 && t.rearms == 0);
	/* colder first, then the hot one: the same, and its HPA */
	alert_free(&t);
	CHECK(alert_init(&t, &c, 16) == 0);
	CHECK(obs_in(&t, &k7, 0, 1, 100, 0x110003000, &ev) == 0);
	CHECK(obs_in(&t, &k7, 0, 1, 300, 0x110007000, &ev) == 1);
	CHECK(ev.value == 300 && ev.hpa == 0x110007000);
	alert_free(&t);
}

/* A rate over many entries per window: every one counts. */
static void test_rate_many(void)
{
	struct alert_table t;
	struct alert_cfg c = { ALERT_RATE, 2500, 0, 2, 0 };
	struct alert_event ev = { 0 };
	int i, first = -1;

	CHECK(alert_init(&t, &c, 16) == 0);
	/* 500 entries of 10 within one second, in 50 batches: 5000 / 2 s */
	for (i = 0; i < 500; i++)
		if (obs_in(&t, &k7, i / 500.0, i / 10, 10, 0x110007000, &ev) && first < 0)
			first = i;
	CHECK(first == 499 && ev.value == 2500);
	alert_free(&t);
}

/* Hold-off: a re-armed key crossing again too soon is suppressed. */
static void test_holdoff(void)
{
	struct alert_table t;
	struct alert_cfg c = { ALERT_COUNT, 200, 100, 1, 10 };

	CHECK(alert_init(&t, &c, 16) == 0);
	CHECK(obs(&t, &k7, 0, 300, NULL) == 1);
	CHECK(obs(&t, &k7, 1, 50, NULL) == 0);
	CHECK(obs(&t, &k7, 2, 300, NULL) == 0);	/* within 10 s */
	CHECK(t.suppressed == 1);
	CHECK(obs(&t, &k7, 3, 50, NULL) == 0);
	CHECK(obs(&t, &k7, 11, 300, NULL) == 1);	/* after the hold-off */
	CHECK(t.alerts == 2);
	alert_free(&t);
}

/*
 * A full table makes room: the new key is tracked, the key it displaced
 * counted. With one slot, the other key goes; it comes back as new
 * (armed), so it alerts again.
 */
static void test_full(void)
{
	struct alert_table t;
	struct alert_cfg c = { ALERT_COUNT, 200, 100, 1, 0 };

	CHECK(alert_init(&t, &c, 1) == 0);
	CHECK(obs(&t, &k7, 0, 300, NULL) == 1);
	CHECK(obs(&t, &k3, 0, 300, NULL) == 1);
	CHECK(t.full == 0 && t.evicted == 1 && t.used == 1);
	CHECK(obs(&t, &k7, 0.1, 300, NULL) == 1);
	CHECK(t.evicted == 2 && t.reclaimed == 0);
	alert_free(&t);
}

/*
 * The key that makes room is one with nothing left to remember (no entry
 * within the window, past its hold-off) where there is one: a long run
 * over a hot set that moves loses no state. Else the least recently seen.
 */
static void test_full_reclaim(void)
{
	struct alert_table t;
	struct alert_cfg c = { ALERT_COUNT, 200, 100, 1, 10 };
	struct alert_key a = { 0, 1 }, b = { 0, 2 }, n = { 0, 3 };

	CHECK(alert_init(&t, &c, 2) == 0);
	CHECK(obs(&t, &a, 0, 300, NULL) == 1);
	CHECK(obs(&t, &b, 0.2, 300, NULL) == 1);
	/* both current: the least recently seen (a) goes */
	CHECK(obs(&t, &n, 0.5, 300, NULL) == 1);
	CHECK(t.evicted == 1 && t.reclaimed == 0 && t.used == 2);
	/* b again: still tracked, disarmed */
	CHECK(obs(&t, &b, 0.6, 300, NULL) == 0);
	/* past the window and the hold-off of b and n: one of them makes room */
	CHECK(obs(&t, &a, 11, 300, NULL) == 1);
	CHECK(t.reclaimed == 1 && t.evicted == 1 && t.full == 0);
	alert_free(&t);

	/* -L 0: a disarmed key never re-arms: it is only ever evicted */
	c.rearm = 0;
	c.holdoff = 0;
	CHECK(alert_init(&t, &c, 1) == 0);
	CHECK(obs(&t, &a, 0, 300, NULL) == 1);
	CHECK(obs(&t, &n, 5, 300, NULL) == 1 && t.evicted == 1 && t.reclaimed == 0);
	alert_free(&t);
}

/*
 * However full the table, a key is looked for in ALERT_PROBE slots at
 * most, and every entry is tracked: 1024 keys all current fill a table of
 * 1024, then 1000 new keys each alert, each displacing one, counted.
 */
static void test_bounded(void)
{
	struct alert_table t;
	struct alert_cfg c = { ALERT_COUNT, 200, 100, 100, 0 };
	struct alert_key k = { .inst = 2 };
	uint64_t i, alerts = 0, p0;

	CHECK(alert_init(&t, &c, 1024) == 0);
	for (i = 0; i < 1024; i++) {
		k.slot = i;
		obs(&t, &k, 0, 300, NULL);
	}
	p0 = t.probes;
	for (i = 0; i < 1000; i++) {
		k.slot = 100000 + i;
		alerts += obs(&t, &k, 1, 300, NULL);
	}
	CHECK(alerts == 1000 && t.full == 0);
	CHECK(t.probes - p0 <= 1000 * ALERT_PROBE);
	CHECK(t.used <= 1024 && t.evicted + (1024 - t.used) >= 1000);
	alert_free(&t);
}

/*
 * The table starts small and grows, keeping every key's state (the
 * maximum well above the keys: at that load no window is full).
 */
static void test_grow(void)
{
	struct alert_table t;
	struct alert_cfg c = { ALERT_COUNT, 200, 100, 100, 0 };
	struct alert_key k = { .inst = 1 };
	uint64_t i, alerts = 0;

	CHECK(alert_init(&t, &c, 6000) == 0);
	CHECK(t.cap == ALERT_INITIAL_KEYS);
	for (i = 0; i < 3000; i++) {
		k.slot = i;
		alerts += obs(&t, &k, 0, 300, NULL);
	}
	CHECK(alerts == 3000 && t.used == 3000 && t.full == 0 && t.evicted == 0);
	CHECK(t.cap == 6000);		/* 1024, 2048, 4096, then the maximum */
	/* all still disarmed after the moves: no second alert */
	for (i = 0, alerts = 0; i < 3000; i++) {
		k.slot = i;
		alerts += obs(&t, &k, 1, 300, NULL);
	}
	CHECK(alerts == 0 && t.used == 3000);
	k.slot = 5000;
	CHECK(obs(&t, &k, 1, 300, NULL) == 1 && t.used == 3001);
	alert_free(&t);
}

/*
 * chmualert's ring buffer holds two whole drains of every instance it
 * watches, in its own records: the largest hotlist (8143 entries) is 128
 * records, twice that past 512 KiB, so 1 MiB; two such instances 2 MiB;
 * a default hotlist (1024) keeps the 256 KiB floor.
 */
static void test_ringbuf_size(void)
{
	size_t hdr = offsetof(struct alert_chunk, e), item = sizeof(struct alert_item);
	uint64_t rec = (8 + sizeof(struct alert_chunk) + 7) / 8 * 8;

	CHECK(rec == 2592);
	CHECK(alert_ringbuf_size(8143, 2, ALERT_CHUNK, hdr, item, 256 << 10) == 1 << 20);
	CHECK(alert_ringbuf_size(8143, 2, ALERT_CHUNK, hdr, item, 256 << 10) >= 2 * 128 * rec);
	CHECK(alert_ringbuf_size(2 * 8143, 2, ALERT_CHUNK, hdr, item, 256 << 10) == 2 << 20);
	CHECK(alert_ringbuf_size(1024, 2, ALERT_CHUNK, hdr, item, 256 << 10) == 256 << 10);
	CHECK(alert_ringbuf_size(0, 2, ALERT_CHUNK, hdr, item, 4096) == 4096);
	/* 64 entries: one record, 2 of them: 8 KiB */
	CHECK(alert_ringbuf_size(64, 2, ALERT_CHUNK, hdr, item, 4096) == 8192);
}

int main(void)
{
	test_ringbuf_size();
	test_bounded();
	test_config();
	test_hysteresis();
	test_window_expiry();
	test_rate();
	test_holdoff();
	test_batch_count();
	test_rate_many();
	test_full();
	test_full_reclaim();
	test_grow();
	return check_report("test_alert");
}
