/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Metrics exposition for chmu-exporter: the Prometheus text format
 * (version 0.0.4) and OpenMetrics 1.0, written into a growing buffer.
 * Pure logic, unit-tested on the host (tests/host/test_metrics.c).
 *
 * A family is begun with its name without suffix ("chmu_hotlist_entries"),
 * its type and help; samples follow. Counters get "_total" on their
 * samples in both formats; the TYPE line names the family as each format
 * wants it (Prometheus: with "_total", OpenMetrics: without). OpenMetrics
 * output ends with "# EOF".
 */
#ifndef CHMU_METRICS_H
#define CHMU_METRICS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum mx_format { MX_PROMETHEUS, MX_OPENMETRICS };
enum mx_type { MX_COUNTER, MX_GAUGE, MX_HISTOGRAM, MX_INFO };

#define MX_CONTENT_PROMETHEUS	"text/plain; version=0.0.4; charset=utf-8"
#define MX_CONTENT_OPENMETRICS	"application/openmetrics-text; version=1.0.0; charset=utf-8"

struct mx_buf {
	char *data;
	size_t len, cap;
	bool oom;		/* an append failed: the output is incomplete */
	enum mx_format fmt;
	/* the family being written */
	const char *name;
	enum mx_type type;
};

/* A label set: up to MX_MAX_LABELS name/value pairs. */
#define MX_MAX_LABELS 8
struct mx_labels {
	int n;
	const char *name[MX_MAX_LABELS];
	char value[MX_MAX_LABELS][256];	/* a cgroup path fits */
};

void mx_init(struct mx_buf *b, enum mx_format fmt);
void mx_free(struct mx_buf *b);
/* printf into the buffer (sets oom on failure). */
void mx_printf(struct mx_buf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* The format a scraper asked for through its Accept header (NULL: none). */
enum mx_format mx_negotiate(const char *accept);

void mx_labels_init(struct mx_labels *l);
/* Add a label; its value printf-style. Ignored past MX_MAX_LABELS. */
void mx_label(struct mx_labels *l, const char *name, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

void mx_family(struct mx_buf *b, const char *name, enum mx_type type,
	       const char *help);
/* A sample of the current counter or gauge family (info: value 1). */
void mx_sample(struct mx_buf *b, const struct mx_labels *l, double value);
void mx_sample_u64(struct mx_buf *b, const struct mx_labels *l, uint64_t value);
/*
 * A histogram of the current family from log2 buckets: bucket k (0..n-1)
 * counts values 2^k .. 2^(k+1)-1, bucket 0 also 0; its upper bound "le" is
 * 2^(k+1)-1. Values in buckets >= n count in +Inf only.
 */
void mx_histogram_log2(struct mx_buf *b, const struct mx_labels *l,
		       const uint64_t *buckets, int nbuckets, int n,
		       uint64_t sum);
/* End of the exposition ("# EOF" in OpenMetrics). */
void mx_finish(struct mx_buf *b);

/*
 * Split a listen address "HOST:PORT", "HOST", ":PORT" or "[V6]:PORT" into
 * host and port (defaults @def_host, @def_port); -EINVAL when malformed
 * or the port is not 1..65535.
 */
int mx_parse_listen(const char *s, const char *def_host, unsigned int def_port,
		    char *host, size_t hostlen, unsigned int *port);

/*
 * The value of a windowed gauge at time @now: windows are @len long and
 * numbered now / len; @win holds @cur, the window before it (@pwin)
 * @prev. The value is that of the last complete window (now's minus one),
 * 0 when no posting fell in it.
 */
uint64_t mx_window_value(uint64_t win, uint64_t cur, uint64_t pwin,
			 uint64_t prev, uint64_t now, uint64_t len);

#endif
