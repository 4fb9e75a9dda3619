/* SPDX-License-Identifier: GPL-2.0 */
/*
 * chmualert's state machine: per key (a unit or a region), the value of a
 * metric over a sliding window, an alert when it reaches the threshold
 * while armed, re-arming only once it falls below the lower re-arm
 * threshold (hysteresis), and a hold-off that rate-limits a key's alerts.
 */
#ifndef CHMU_ALERT_H
#define CHMU_ALERT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum alert_metric {
	ALERT_COUNT,	/* the count of the key's last entry within the window */
	ALERT_RATE,	/* sum of counts within the window, per second */
};

struct alert_cfg {
	int metric;
	double threshold;
	double rearm;		/* re-arm below this; <= threshold */
	double window;		/* seconds */
	double holdoff;		/* seconds between two alerts of a key */
};

#define ALERT_SAMPLES 64	/* entries per key kept for the window */
#define ALERT_INITIAL_KEYS 1024	/* the table doubles up to its maximum */

struct alert_key {
	uint32_t inst;
	uint64_t slot;
};

struct alert_state {
	struct alert_key key;
	bool used, armed;
	double last_alert;	/* time of the last alert, < 0: none */
	unsigned int head, n;	/* ring of samples */
	double t[ALERT_SAMPLES];
	uint64_t count[ALERT_SAMPLES];
	uint64_t hpa;
	int nid;
};

struct alert_table {
	struct alert_cfg cfg;
	struct alert_state *v;
	size_t cap, used, max;	/* slots, keys, most keys */
	uint64_t alerts, suppressed, rearms, full;
};

struct alert_event {
	struct alert_key key;
	double time, value;
	uint64_t hpa;
	int nid;
};

/*
 * A table of at most @cap keys (it starts small and doubles when half
 * full). -EINVAL for a configuration that makes no sense (rearm >
 * threshold, ...).
 */
int alert_init(struct alert_table *t, const struct alert_cfg *cfg, size_t cap);
void alert_free(struct alert_table *t);

/* The key's metric at time @now. */
double alert_value(const struct alert_table *t, const struct alert_state *s,
		   double now);

/*
 * An entry of @count for @key at time @now: 1 and *@ev filled when it
 * raises an alert, else 0. Keys beyond the table's capacity are counted
 * in t->full and ignored.
 */
int alert_observe(struct alert_table *t, const struct alert_key *key,
		  double now, uint64_t count, uint64_t hpa, int nid,
		  struct alert_event *ev);

/* Time passes: re-arm the keys whose value fell below the re-arm level. */
void alert_tick(struct alert_table *t, double now);

#endif
