// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "top.h"

static const char *const sort_names[TOP_SORT_NR] = {
	"count", "sum", "rate", "seen", "addr",
};

int top_parse_sort(const char *s)
{
	int i;

	for (i = 0; i < TOP_SORT_NR; i++)
		if (!strcmp(s, sort_names[i]))
			return i;
	return -1;
}

const char *top_sort_name(int key)
{
	return key >= 0 && key < TOP_SORT_NR ? sort_names[key] : "?";
}

double top_rate(uint64_t delta, double secs)
{
	return secs > 0 ? delta / secs : 0;
}

static int sort_key;

static int cmp_u64(uint64_t a, uint64_t b)
{
	return a < b ? -1 : a > b;
}

static int cmp_rows(const void *pa, const void *pb)
{
	const struct top_row *a = pa, *b = pb;
	int c = 0;

	switch (sort_key) {
	case TOP_SORT_COUNT:
		c = cmp_u64(b->last_count, a->last_count);
		break;
	case TOP_SORT_SUM:
		c = cmp_u64(b->sum, a->sum);
		if (!c)
			c = cmp_u64(b->last_count, a->last_count);
		break;
	case TOP_SORT_RATE:
		c = a->rate < b->rate ? 1 : a->rate > b->rate ? -1 : 0;
		if (!c)
			c = cmp_u64(b->last_count, a->last_count);
		break;
	case TOP_SORT_SEEN:
		c = cmp_u64(b->seen, a->seen);
		break;
	}
	if (!c)
		c = strcmp(a->inst, b->inst);
	return c ? c : cmp_u64(a->dpa, b->dpa);
}

void top_sort(struct top_row *rows, size_t n, int key)
{
	sort_key = key;
	qsort(rows, n, sizeof(*rows), cmp_rows);
}

/* Whole units elapsed, as ps and top show times: 0.9 s is "0s", not "1s" */
const char *top_fmt_age(double s, char *buf, size_t len)
{
	unsigned long long t = s > 0 ? (unsigned long long)s : 0;

	if (t < 100)
		snprintf(buf, len, "%llus", t);
	else if (t < 100 * 60)
		snprintf(buf, len, "%llum", t / 60);
	else if (t < 48 * 3600)
		snprintf(buf, len, "%lluh", t / 3600);
	else
		snprintf(buf, len, "%llud", t / 86400);
	return buf;
}

const char *top_fmt_num(double v, char *buf, size_t len)
{
	static const char sfx[] = " kMGTP";
	int i = 0;

	if (v < 10000) {
		snprintf(buf, len, v == (uint64_t)v ? "%.0f" : "%.1f", v);
		return buf;
	}
	while (v >= 1000 && i < 5) {
		v /= 1000;
		i++;
	}
	snprintf(buf, len, "%.1f%c", v, sfx[i]);
	return buf;
}

/*
 * HPA 14, DPA 12, NODE 4, INSTANCE 8, COUNT 7, SUM 7, RATE/s 7, SEEN 5,
 * FIRST 5, LAST 5, single spaces: 83 - 3 = 80 with the widths below.
 */
#define ROW_FMT "%-14s %-11s %3s %-8s %6s %6s %7s %5s %5s %5s"

void top_fmt_titles(char *buf, size_t len, bool always_on)
{
	snprintf(buf, len, ROW_FMT, "HPA", "DPA", "NID", "INSTANCE",
		 always_on ? "REACH" : "COUNT", always_on ? "HITS" : "SUM",
		 "RATE/s", "SEEN", "FIRST", "LAST");
}

void top_fmt_row(char *buf, size_t len, const struct top_row *r,
		 bool always_on)
{
	char hpa[24], dpa[24], nid[16], cnt[32], sum[16], rate[16], seen[16];
	char first[16], last[16];

	if (r->hpa == UINT64_MAX)
		snprintf(hpa, sizeof(hpa), "-");
	else
		snprintf(hpa, sizeof(hpa), "0x%" PRIx64, r->hpa);
	snprintf(dpa, sizeof(dpa), "0x%" PRIx64, r->dpa);
	if (r->nid < 0)
		snprintf(nid, sizeof(nid), "-");
	else
		snprintf(nid, sizeof(nid), "%d", r->nid);
	if (always_on) {
		/* each entry is one crossing of the threshold */
		snprintf(cnt, sizeof(cnt), ">=%" PRIu64, r->last_count);
		top_fmt_num(r->seen, sum, sizeof(sum));
	} else {
		top_fmt_num(r->last_count, cnt, sizeof(cnt));
		top_fmt_num(r->sum, sum, sizeof(sum));
	}
	top_fmt_num(r->rate, rate, sizeof(rate));
	top_fmt_num(r->seen, seen, sizeof(seen));
	snprintf(buf, len, ROW_FMT, hpa, dpa, nid, r->inst, cnt, sum, rate,
		 seen, top_fmt_age(r->first_age, first, sizeof(first)),
		 top_fmt_age(r->last_age, last, sizeof(last)));
	if (strlen(buf) > TOP_WIDTH)
		buf[TOP_WIDTH] = '\0';
}

void top_fmt_health(char *buf, size_t len, const struct top_health *h)
{
	char b[16], e[16];
	double avg_fill = h->batches ? (double)h->fill_sum / h->batches : 0;
	double avg_ms = h->drain_batches ?
		h->drain_ns / 1e6 / h->drain_batches : 0;
	double per_entry = h->drain_entries ?
		(double)h->drain_ns / h->drain_entries : 0;
	int n;

	n = snprintf(buf, len,
		     "  batches %s/s entries %s/s overflows %" PRIu64 " lost %" PRIu64
		     " fill %.0f/%" PRIu64 " max %" PRIu64 "\n",
		     top_fmt_num(top_rate(h->batches, h->secs), b, sizeof(b)),
		     top_fmt_num(top_rate(h->entries, h->secs), e, sizeof(e)),
		     h->overflows, h->lost, avg_fill, h->size, h->fill_max);
	if (n < 0 || (size_t)n >= len)
		return;
	if (!h->bpf_stats) {
		snprintf(buf + n, len - n,
			 "  drain %.3f ms/batch %.2f us/entry   bpf: --bpf-stats",
			 avg_ms, per_entry / 1e3);
		return;
	}
	snprintf(buf + n, len - n,
		 "  drain %.3f ms/batch %.2f us/entry   bpf %.3f ms/s (%" PRIu64 " runs)",
		 avg_ms, per_entry / 1e3,
		 h->secs > 0 ? h->bpf_ns / 1e6 / h->secs : 0, h->bpf_runs);
}

const char *const top_pf_names[TOP_PF_NR] = {
	"gone", "not_lru", "isolate", "no_memory", "on_target", "busy",
	"watermark", "policy", "rate_limited", "settling",
};

/* @cur moved on from @prev; an enable in between restarts from zero */
static uint64_t top_since(uint64_t cur, uint64_t prev)
{
	return cur >= prev ? cur - prev : cur;
}

void top_fmt_promote(char *buf, size_t len, const struct top_promote *cur,
		     const struct top_promote *prev, double secs,
		     unsigned int page_size)
{
	uint64_t promoted = top_since(cur->promoted, prev->promoted);
	uint64_t tried = top_since(cur->tried, prev->tried);
	uint64_t failed = 0, top = 0, d;
	char p[16], t[16], to[32], why[40] = "";
	int k, worst = -1, n;

	if (!len)
		return;
	buf[0] = '\0';
	if (!cur->present || !cur->enabled)
		return;
	for (k = 0; k < TOP_PF_NR; k++) {
		d = top_since(cur->failed[k], prev->failed[k]);
		failed += d;
		if (d > top) {
			top = d;
			worst = k;
		}
	}
	if (worst >= 0)
		snprintf(why, sizeof(why), " (most %s %" PRIu64 ")", top_pf_names[worst], top);
	if (cur->node < 0)
		snprintf(to, sizeof(to), "nearest top tier");
	else
		snprintf(to, sizeof(to), "node %" PRId64, cur->node);
	n = snprintf(buf, len, "  promote on -> %s: %s pages/s (%.2f MiB/s) tried %s/s\n",
		     to, top_fmt_num(top_rate(promoted, secs), p, sizeof(p)),
		     secs > 0 ? promoted * (double)page_size / (1 << 20) / secs : 0,
		     top_fmt_num(top_rate(tried, secs), t, sizeof(t)));
	if (n < 0 || (size_t)n >= len)
		return;
	snprintf(buf + n, len - n,
		 "  pending %" PRIu64 " dropped %" PRIu64 " expired %" PRIu64 " failed %" PRIu64
		 "%s worker %.1f%% CPU",
		 cur->pending, top_since(cur->dropped, prev->dropped),
		 top_since(cur->expired, prev->expired), failed, why,
		 secs > 0 ? top_since(cur->worker_ns, prev->worker_ns) / 1e7 / secs : 0);
}

size_t top_fit_rows(int lines, size_t head, size_t nrows, bool *note)
{
	long avail = (long)lines - (long)head - 1;

	*note = false;
	if (lines <= 0 || avail >= (long)nrows)
		return nrows;
	if (avail < 2)
		return 1;
	*note = true;
	return avail - 1;
}

uint64_t top_plan_direct(const uint64_t *capacity, size_t n, unsigned int shift,
			 uint64_t budget, uint32_t *base, uint32_t *nslots)
{
	uint64_t used = 0, need;
	size_t i;

	for (i = 0; i < n; i++) {
		base[i] = nslots[i] = 0;
		if (shift >= 64 || !capacity[i])
			continue;
		need = (capacity[i] >> shift) + !!(capacity[i] & ((1ULL << shift) - 1));
		if (need > budget - used || need > UINT32_MAX - used)
			continue;
		base[i] = used;
		nslots[i] = need;
		used += need;
	}
	return used;
}

int top_touched_init(struct top_touched *t, uint64_t nslots)
{
	memset(t, 0, sizeof(*t));
	t->nslots = nslots;
	t->known = calloc(nslots ? nslots : 1, sizeof(*t->known));
	t->listed = calloc(nslots / 8 + 1, 1);
	if (!t->known || !t->listed) {
		top_touched_free(t);
		return -ENOMEM;
	}
	return 0;
}

void top_touched_free(struct top_touched *t)
{
	free(t->known);
	free(t->listed);
	t->known = NULL;
	t->listed = NULL;
}

void top_touched_read(struct top_touched *t, const uint64_t *list, uint64_t nr)
{
	uint64_t pos, hole = UINT64_MAX, v;

	if (nr > t->nslots)
		nr = t->nslots;
	for (pos = t->hole; pos < nr; pos++) {
		if (t->known[pos])
			continue;
		v = __atomic_load_n(&list[pos], __ATOMIC_ACQUIRE);
		if (!v) {
			if (hole == UINT64_MAX)
				hole = pos;
			continue;
		}
		v--;
		if (v >= t->nslots || (t->listed[v / 8] & (1 << v % 8))) {
			t->known[pos] = UINT32_MAX;
		} else {
			t->listed[v / 8] |= 1 << v % 8;
			t->known[pos] = v + 1;
		}
	}
	if (nr > t->nread)
		t->nread = nr;
	t->hole = hole == UINT64_MAX ? t->nread : hole;
}

/*
 * With VMIN 0 a read of 0 is "no key now", not an end of file: poll may
 * report a key that a Ctrl-Z or Ctrl-\ then flushes before the read
 * (n_tty_poll() looks at the buffer unlocked, while the flush runs),
 * and the keys go on after it. A terminal that is gone is hung up:
 * every poll of it says POLLHUP or POLLERR.
 */
int top_read_key(int fd, char *c)
{
	struct pollfd p = { .fd = fd };	/* hang-ups and errors only */

	if (read(fd, c, 1) == 1)
		return 1;
	return poll(&p, 1, 0) > 0 && (p.revents & (POLLHUP | POLLERR | POLLNVAL)) ? -1 : 0;
}
