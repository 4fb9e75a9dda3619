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

/*
 * The entries of one drain (one hotlist batch) that fall on the same key
 * (the units of one -g region) are combined: the count is their largest,
 * the rate adds them all up.
 */
enum alert_metric {
	ALERT_COUNT,	/* the key's count in its last batch, within the window */
	ALERT_RATE,	/* sum of counts within the window, per second */
};

struct alert_cfg {
	int metric;
	double threshold;
	double rearm;		/* re-arm below this; <= threshold */
	double window;		/* seconds */
	double holdoff;		/* seconds between two alerts of a key */
};

/*
 * The rate's window is summed in steps of window / ALERT_BUCKETS, however
 * many entries a key gets; the oldest step counts for the part of it still
 * inside the window (counts taken as spread evenly over a step).
 */
#define ALERT_BUCKETS 16
#define ALERT_INITIAL_KEYS 1024	/* the table doubles up to its maximum */
#define ALERT_PROBE	16	/* slots a key may be in, from its hash on */

struct alert_key {
	uint32_t inst;
	uint64_t slot;
};

struct alert_state {
	struct alert_key key;
	bool used, armed;
	double last_alert;	/* time of the last alert, < 0: none */
	/* count: the last batch's largest count, and when it came */
	uint64_t seq, count;
	double t;
	/* rate: counts per step of the window, step number b_step[i] */
	int64_t b_step[ALERT_BUCKETS + 1];
	uint64_t b_sum[ALERT_BUCKETS + 1];
	/* the hottest entry of the last batch: what an alert reports */
	uint64_t hpa;
	int nid;
};

struct alert_table {
	struct alert_cfg cfg;
	struct alert_state *v;
	size_t cap, used, max;	/* slots, keys, most keys */
	uint64_t alerts, suppressed, rearms;
	uint64_t full;		/* entries not tracked (none since keys are evicted) */
	uint64_t reclaimed;	/* idle keys dropped to make room (alert_observe) */
	uint64_t evicted;	/* keys with state dropped to make room */
	uint64_t probes;	/* slots looked at, all lookups (for the tests) */
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
 * An entry of @count for @key at time @now, from batch @seq of its
 * instance: 1 and *@ev filled when it raises an alert, else 0. The alert
 * reports the HPA and node of the hottest entry of the key's last batch
 * (with regions, their units need not be contiguous in HPA space). A key
 * lives in one of ALERT_PROBE slots from its hash on, so that finding it,
 * or room for it, costs the same however full the table is. When those
 * are all taken, a key among them makes room: one with nothing left to
 * remember (no entry within the window, so its value is 0 and it would
 * re-arm, and past its hold-off), counted in t->reclaimed; else the least
 * recently seen, counted in t->evicted (it comes back as new: armed, so it
 * may alert again). Every entry is tracked.
 */
int alert_observe(struct alert_table *t, const struct alert_key *key,
		  double now, uint64_t seq, uint64_t count, uint64_t hpa,
		  int nid, struct alert_event *ev);

/*
 * Time passes: re-arm the keys whose value fell below the re-arm level,
 * but not one that had an entry in the last ALERT_SETTLE seconds: its
 * batch may still be coming in (a drain takes milliseconds).
 */
#define ALERT_SETTLE 0.1
void alert_tick(struct alert_table *t, double now);

/*
 * The ring buffer a tool needs so that @drains whole drains of every
 * instance it watches fit while its consumer is away: @entries is the sum
 * of the instances' hotlist sizes, shipped in records of at most @chunk
 * entries of @item bytes behind a @hdr-byte header (and the ring buffer's
 * own 8-byte header, each record rounded up to 8 bytes). A power of two
 * (as BPF ring buffers are), at least @min.
 */
uint64_t alert_ringbuf_size(uint64_t entries, unsigned int drains,
			    unsigned int chunk, size_t hdr, size_t item,
			    uint64_t min);

#endif
