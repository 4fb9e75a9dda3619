// SPDX-License-Identifier: GPL-2.0
/* Unit tests of chmualert's state machine. */
#include <errno.h>

#include "check.h"
#include "../../tools/lib/alert.h"

static const struct alert_key k7 = { 0, 7 }, k3 = { 0, 3 };

static int obs(struct alert_table *t, const struct alert_key *k, double now,
	       uint64_t count, double *value)
{
	struct alert_event ev = { 0 };
	int r = alert_observe(t, k, now, count, 0x110000000 + k->slot, -1, &ev);

	if (r && value)
		*value = ev.value;
	return r;
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
	CHECK(obs(&t, &k7, 8, 50, NULL) == 0);	/* re-arms */
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

/* A full table counts what it cannot track. */
static void test_full(void)
{
	struct alert_table t;
	struct alert_cfg c = { ALERT_COUNT, 200, 100, 1, 0 };

	CHECK(alert_init(&t, &c, 1) == 0);
	CHECK(obs(&t, &k7, 0, 300, NULL) == 1);
	CHECK(obs(&t, &k3, 0, 300, NULL) == 0);
	CHECK(t.full == 1);
	alert_free(&t);
}

/* The table starts small and grows, keeping every key's state. */
static void test_grow(void)
{
	struct alert_table t;
	struct alert_cfg c = { ALERT_COUNT, 200, 100, 100, 0 };
	struct alert_key k = { .inst = 1 };
	uint64_t i, alerts = 0;

	CHECK(alert_init(&t, &c, 3000) == 0);
	CHECK(t.cap == ALERT_INITIAL_KEYS);
	for (i = 0; i < 3000; i++) {
		k.slot = i;
		alerts += obs(&t, &k, 0, 300, NULL);
	}
	CHECK(alerts == 3000 && t.used == 3000 && t.full == 0);
	CHECK(t.cap == 3000);		/* 1024, 2048, then the maximum */
	/* all still disarmed after the moves: no second alert */
	for (i = 0, alerts = 0; i < 3000; i++) {
		k.slot = i;
		alerts += obs(&t, &k, 1, 300, NULL);
	}
	CHECK(alerts == 0 && t.used == 3000);
	k.slot = 5000;
	CHECK(obs(&t, &k, 1, 300, NULL) == 0 && t.full == 1);
	alert_free(&t);
}

int main(void)
{
	test_config();
	test_hysteresis();
	test_window_expiry();
	test_rate();
	test_holdoff();
	test_full();
	test_grow();
	return check_report("test_alert");
}
