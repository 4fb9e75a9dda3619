// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "metrics.h"

void mx_init(struct mx_buf *b, enum mx_format fmt)
{
	memset(b, 0, sizeof(*b));
	b->fmt = fmt;
}

void mx_free(struct mx_buf *b)
{
	free(b->data);
	b->data = NULL;
	b->len = b->cap = 0;
}

static bool reserve(struct mx_buf *b, size_t more)
{
	size_t cap;
	char *p;

	if (b->oom)
		return false;
	if (b->len + more + 1 <= b->cap)
		return true;
	cap = b->cap ? b->cap : 4096;
	while (cap < b->len + more + 1)
		cap *= 2;
	p = realloc(b->data, cap);
	if (!p) {
		b->oom = true;
		return false;
	}
	b->data = p;
	b->cap = cap;
	return true;
}

void mx_printf(struct mx_buf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0 || !reserve(b, n))
		return;
	va_start(ap, fmt);
	vsnprintf(b->data + b->len, b->cap - b->len, fmt, ap);
	va_end(ap);
	b->len += n;
}

/* The quality of one media range ("type/sub; a=b; q=0.5"): 1 by default. */
static double range_q(const char *p, size_t len)
{
	const char *q = p, *end = p + len;

	while ((q = memchr(q, ';', end - q))) {
		q++;
		while (q < end && (*q == ' ' || *q == '\t'))
			q++;
		if (end - q > 2 && (q[0] == 'q' || q[0] == 'Q') && q[1] == '=')
			return strtod(q + 2, NULL);
	}
	return 1;
}

static bool range_is(const char *p, size_t len, const char *type)
{
	size_t n = strlen(type);

	return len >= n && !strncasecmp(p, type, n) &&
	       (len == n || p[n] == ';' || p[n] == ' ' || p[n] == '\t');
}

/*
 * RFC 9110 content negotiation between the two formats: OpenMetrics when
 * application/openmetrics-text has a non-zero quality at least that of
 * the text format (text/plain, text/\*, or \*\/\*); the text format
 * otherwise, and when there is no Accept header.
 */
enum mx_format mx_negotiate(const char *accept)
{
	double q_om = 0, q_text = 0, q;
	const char *p = accept;

	while (p && *p) {
		const char *end = strchr(p, ',');
		size_t len = end ? (size_t)(end - p) : strlen(p);

		while (len && (*p == ' ' || *p == '\t'))
			p++, len--;
		q = range_q(p, len);
		if (range_is(p, len, "application/openmetrics-text")) {
			if (q > q_om)
				q_om = q;
		} else if (range_is(p, len, "text/plain") || range_is(p, len, "text/*") ||
			   range_is(p, len, "*/*")) {
			if (q > q_text)
				q_text = q;
		}
		p = end ? end + 1 : NULL;
	}
	return q_om > 0 && q_om >= q_text ? MX_OPENMETRICS : MX_PROMETHEUS;
}

void mx_labels_init(struct mx_labels *l)
{
	l->n = 0;
}

void mx_label(struct mx_labels *l, const char *name, const char *fmt, ...)
{
	va_list ap;

	if (l->n >= MX_MAX_LABELS)
		return;
	l->name[l->n] = name;
	va_start(ap, fmt);
	vsnprintf(l->value[l->n], sizeof(l->value[0]), fmt, ap);
	va_end(ap);
	l->n++;
}

/* HELP text: backslash and newline escaped, and in OpenMetrics '"'. */
static void put_help(struct mx_buf *b, const char *s)
{
	for (; *s; s++) {
		if (*s == '\\')
			mx_printf(b, "\\\\");
		else if (*s == '\n')
			mx_printf(b, "\\n");
		else if (*s == '"' && b->fmt == MX_OPENMETRICS)
			mx_printf(b, "\\\"");
		else
			mx_printf(b, "%c", *s);
	}
}

static const char *type_name(struct mx_buf *b, enum mx_type t)
{
	switch (t) {
	case MX_COUNTER:
		return "counter";
	case MX_HISTOGRAM:
		return "histogram";
	case MX_INFO:
		return b->fmt == MX_OPENMETRICS ? "info" : "gauge";
	default:
		return "gauge";
	}
}

/* The name samples carry: counters "_total", info "_info". */
static const char *suffix(enum mx_type t)
{
	return t == MX_COUNTER ? "_total" : t == MX_INFO ? "_info" : "";
}

void mx_family(struct mx_buf *b, const char *name, enum mx_type type,
	       const char *help)
{
	const char *tname = type_name(b, type);
	/* Prometheus: the family is the sample name; OpenMetrics: the bare name */
	const char *fsuf = b->fmt == MX_OPENMETRICS ? "" : suffix(type);

	b->name = name;
	b->type = type;
	mx_printf(b, "# HELP %s%s ", name, fsuf);
	put_help(b, help);
	mx_printf(b, "\n# TYPE %s%s %s\n", name, fsuf, tname);
}

static void put_labels(struct mx_buf *b, const struct mx_labels *l,
		       const char *extra_name, const char *extra_value)
{
	int i;

	if ((!l || !l->n) && !extra_name)
		return;
	mx_printf(b, "{");
	for (i = 0; l && i < l->n; i++) {
		const char *v;

		mx_printf(b, "%s%s=\"", i ? "," : "", l->name[i]);
		for (v = l->value[i]; *v; v++) {
			if (*v == '\\' || *v == '"')
				mx_printf(b, "\\%c", *v);
			else if (*v == '\n')
				mx_printf(b, "\\n");
			else
				mx_printf(b, "%c", *v);
		}
		mx_printf(b, "\"");
	}
	if (extra_name)
		mx_printf(b, "%s%s=\"%s\"", l && l->n ? "," : "", extra_name,
			  extra_value);
	mx_printf(b, "}");
}

/* A value: integers exactly, others with the digits a double holds. */
static void put_value(struct mx_buf *b, double v)
{
	if (isnan(v))
		mx_printf(b, " NaN\n");
	else if (isinf(v))
		mx_printf(b, " %sInf\n", v < 0 ? "-" : "+");
	else if (v == floor(v) && fabs(v) < 9007199254740992.0)
		mx_printf(b, " %.0f\n", v + 0.0);	/* + 0.0: no "-0" */
	else
		mx_printf(b, " %.17g\n", v);
}

void mx_sample(struct mx_buf *b, const struct mx_labels *l, double value)
{
	mx_printf(b, "%s%s", b->name, suffix(b->type));
	put_labels(b, l, NULL, NULL);
	put_value(b, b->type == MX_INFO ? 1 : value);
}

void mx_sample_u64(struct mx_buf *b, const struct mx_labels *l, uint64_t value)
{
	mx_printf(b, "%s%s", b->name, suffix(b->type));
	put_labels(b, l, NULL, NULL);
	mx_printf(b, " %llu\n", (unsigned long long)value);
}

void mx_histogram_log2(struct mx_buf *b, const struct mx_labels *l,
		       const uint64_t *buckets, int nbuckets, int n,
		       uint64_t sum)
{
	const char *dot = b->fmt == MX_OPENMETRICS ? ".0" : "";
	uint64_t cum = 0, total = 0;
	char le[32];
	int k;

	for (k = 0; k < nbuckets; k++)
		total += buckets[k];
	for (k = 0; k < n && k < nbuckets; k++) {
		cum += buckets[k];
		snprintf(le, sizeof(le), "%llu%s",
			 (unsigned long long)((k >= 63 ? ~0ULL : (2ULL << k) - 1)), dot);
		mx_printf(b, "%s_bucket", b->name);
		put_labels(b, l, "le", le);
		mx_printf(b, " %llu\n", (unsigned long long)cum);
	}
	mx_printf(b, "%s_bucket", b->name);
	put_labels(b, l, "le", "+Inf");
	mx_printf(b, " %llu\n", (unsigned long long)total);
	mx_printf(b, "%s_sum", b->name);
	put_labels(b, l, NULL, NULL);
	mx_printf(b, " %llu\n", (unsigned long long)sum);
	mx_printf(b, "%s_count", b->name);
	put_labels(b, l, NULL, NULL);
	mx_printf(b, " %llu\n", (unsigned long long)total);
}

void mx_finish(struct mx_buf *b)
{
	if (b->fmt == MX_OPENMETRICS)
		mx_printf(b, "# EOF\n");
}

int mx_parse_listen(const char *s, const char *def_host, unsigned int def_port,
		    char *host, size_t hostlen, unsigned int *port)
{
	const char *colon, *h = s;
	size_t hl;
	char *end;
	long p;

	if (!s || !*s)
		return -EINVAL;
	if (*s == '[') {
		const char *rb = strchr(s, ']');

		if (!rb || rb == s + 1 || (rb[1] && rb[1] != ':'))
			return -EINVAL;
		h = s + 1;
		hl = rb - h;
		colon = rb[1] ? rb + 1 : NULL;
	} else {
		colon = strrchr(s, ':');
		if (colon && strchr(s, ':') != colon)
			return -EINVAL;	/* a bare IPv6 address needs brackets */
		hl = colon ? (size_t)(colon - s) : strlen(s);
	}
	if (!hl) {
		h = def_host;
		hl = strlen(def_host);
	}
	if (hl + 1 > hostlen)
		return -EINVAL;
	memcpy(host, h, hl);
	host[hl] = '\0';
	*port = def_port;
	if (colon) {
		errno = 0;
		p = strtol(colon + 1, &end, 10);
		if (errno || end == colon + 1 || *end || p < 1 || p > 65535)
			return -EINVAL;
		*port = p;
	}
	return 0;
}

uint64_t mx_window_value(uint64_t win, uint64_t cur, uint64_t pwin,
			 uint64_t prev, uint64_t now, uint64_t len)
{
	uint64_t w = len ? now / len : 0;

	if (!w)
		return 0;
	if (win == w - 1)
		return cur;
	if (win == w && pwin == w - 1)
		return prev;
	return 0;
}
