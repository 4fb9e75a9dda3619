// SPDX-License-Identifier: GPL-2.0
/* Unit tests of chmutop's rates, sorting and 80-column formatting. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <poll.h>
#include <stdint.h>
#include <stdlib.h>
#include <termios.h>
#include <unistd.h>
#include <string.h>

#include "check.h"
#include "../../tools/lib/top.h"

static struct top_row row(const char *inst, uint64_t dpa, uint64_t count,
			  uint64_t isum, uint64_t seen)
{
	struct top_row r = { .dpa = dpa, .hpa = 0x110000000 + dpa, .nid = -1,
			     .last_count = count, .sum = count * seen,
			     .isum = isum, .seen = seen };

	strcpy(r.inst, inst);
	r.rate = top_rate(isum, 2.0);
	return r;
}

static void test_rate_sort(void)
{
	struct top_row v[4];

	CHECK(top_rate(300, 2.0) == 150.0);
	CHECK(top_rate(5, 0) == 0);
	CHECK(top_parse_sort("count") == TOP_SORT_COUNT);
	CHECK(top_parse_sort("sum") == TOP_SORT_SUM);
	CHECK(top_parse_sort("rate") == TOP_SORT_RATE);
	CHECK(top_parse_sort("seen") == TOP_SORT_SEEN);
	CHECK(top_parse_sort("addr") == TOP_SORT_ADDR);
	CHECK(top_parse_sort("hot") == -1);
	CHECK(!strcmp(top_sort_name(TOP_SORT_RATE), "rate"));

	v[0] = row("mem0.0.0", 0x7000, 300, 0, 1);
	v[1] = row("mem0.0.0", 0x3000, 100, 400, 4);
	v[2] = row("mem0.0.0", 0x9000, 100, 200, 9);
	v[3] = row("mem0.0.1", 0x1000, 50, 50, 1);
	top_sort(v, 4, TOP_SORT_COUNT);
	CHECK(v[0].dpa == 0x7000 && v[1].dpa == 0x3000 && v[2].dpa == 0x9000 &&
	      v[3].dpa == 0x1000);
	top_sort(v, 4, TOP_SORT_SUM);
	CHECK(v[0].dpa == 0x9000 && v[1].dpa == 0x3000 && v[2].dpa == 0x7000 &&
	      v[3].dpa == 0x1000);
	top_sort(v, 4, TOP_SORT_RATE);
	CHECK(v[0].dpa == 0x3000 && v[1].dpa == 0x9000 && v[2].dpa == 0x1000 &&
	      v[3].dpa == 0x7000);
	top_sort(v, 4, TOP_SORT_SEEN);
	CHECK(v[0].dpa == 0x9000 && v[1].dpa == 0x3000);
	top_sort(v, 4, TOP_SORT_ADDR);
	CHECK(v[0].dpa == 0x3000 && v[1].dpa == 0x7000 && v[2].dpa == 0x9000 &&
	      !strcmp(v[3].inst, "mem0.0.1"));
}

static void test_format(void)
{
	char buf[512], *nl, n[16];
	struct top_row r = row("mem0.0.0", 0x7000, 300, 300, 1);
	struct top_health h = {
		.secs = 2, .batches = 2, .entries = 4, .overflows = 1, .lost = 3,
		.fill_sum = 4, .fill_max = 3, .size = 1024,
		.drain_ns = 3000000, .drain_batches = 2, .drain_entries = 4,
		.bpf_ns = 500000, .bpf_runs = 6, .bpf_stats = true,
	};

	CHECK(!strcmp(top_fmt_age(12.4, n, sizeof(n)), "12s"));
	CHECK(!strcmp(top_fmt_age(0.9, n, sizeof(n)), "0s"));	/* elapsed, not rounded */
	CHECK(!strcmp(top_fmt_age(12.6, n, sizeof(n)), "12s"));
	CHECK(!strcmp(top_fmt_age(-1, n, sizeof(n)), "0s"));
	CHECK(!strcmp(top_fmt_age(119, n, sizeof(n)), "1m"));
	CHECK(!strcmp(top_fmt_age(600, n, sizeof(n)), "10m"));
	CHECK(!strcmp(top_fmt_age(7200, n, sizeof(n)), "2h"));
	CHECK(!strcmp(top_fmt_age(3 * 86400, n, sizeof(n)), "3d"));
	CHECK(!strcmp(top_fmt_num(300, n, sizeof(n)), "300"));
	CHECK(!strcmp(top_fmt_num(99.5, n, sizeof(n)), "99.5"));
	CHECK(!strcmp(top_fmt_num(123456, n, sizeof(n)), "123.5k"));
	CHECK(!strcmp(top_fmt_num(45600000, n, sizeof(n)), "45.6M"));

	top_fmt_titles(buf, sizeof(buf), false);
	CHECK(strlen(buf) <= TOP_WIDTH);
	CHECK(!strcmp(buf, "HPA            DPA         NID INSTANCE  COUNT    SUM  RATE/s  SEEN FIRST  LAST"));
	top_fmt_titles(buf, sizeof(buf), true);
	CHECK(strstr(buf, "REACH   HITS") != NULL);
	r.first_age = 5;
	r.last_age = 1;
	top_fmt_row(buf, sizeof(buf), &r, false);
	CHECK(!strcmp(buf, "0x110007000    0x7000        - mem0.0.0    300    300     150     1    5s    1s"));
	r.hpa = UINT64_MAX;
	r.nid = 1;
	top_fmt_row(buf, sizeof(buf), &r, true);
	CHECK(!strcmp(buf, "-              0x7000        1 mem0.0.0  >=300      1     150     1    5s    1s"));
	/* huge values still fit */
	r.hpa = 0xffffffffffffULL;
	r.dpa = 0xfffffffffULL;
	r.last_count = r.sum = r.seen = 4000000000ULL;
	r.rate = 1e12;
	top_fmt_row(buf, sizeof(buf), &r, false);
	CHECK(strlen(buf) <= TOP_WIDTH);

	top_fmt_health(buf, sizeof(buf), &h);
	nl = strchr(buf, '\n');
	CHECK(nl != NULL);
	if (nl) {
		*nl = '\0';
		CHECK(!strcmp(buf, "  batches 1/s entries 2/s overflows 1 lost 3 fill 2/1024 max 3"));
		CHECK(!strcmp(nl + 1, "  drain 1.500 ms/batch 750.00 us/entry   bpf 0.250 ms/s (6 runs)"));
		CHECK(strlen(nl + 1) <= TOP_WIDTH);
	}
	/* without --bpf-stats nothing is measured, and the line says so */
	h.bpf_stats = false;
	top_fmt_health(buf, sizeof(buf), &h);
	nl = strchr(buf, '\n');
	CHECK(nl && !strcmp(nl + 1, "  drain 1.500 ms/batch 750.00 us/entry   bpf: --bpf-stats"));
}

/* Rows that fit a terminal: 30 lines under a 7-line head keep 22 rows */
static void test_fit(void)
{
	bool note;

	CHECK(top_fit_rows(0, 7, 100, &note) == 100 && !note);	/* no terminal size */
	CHECK(top_fit_rows(30, 7, 10, &note) == 10 && !note);	/* all fit */
	CHECK(top_fit_rows(30, 7, 22, &note) == 22 && !note);	/* exactly: last line free */
	CHECK(top_fit_rows(30, 7, 23, &note) == 21 && note);	/* one hidden: a note line */
	CHECK(top_fit_rows(12, 7, 10, &note) == 3 && note);
	CHECK(top_fit_rows(10, 7, 10, &note) == 1 && note);	/* a row and the note */
	CHECK(top_fit_rows(9, 7, 10, &note) == 1 && !note);	/* at least one, no room for a note */
	CHECK(top_fit_rows(5, 7, 10, &note) == 1 && !note);
	CHECK(top_fit_rows(10, 7, 0, &note) == 0 && !note);
}

/* The promoter's lines: rates over the interval, the commonest failure */
static void test_promote(void)
{
	struct top_promote prev = { .present = true, .enabled = true, .node = -1,
				    .tried = 100, .promoted = 90, .worker_ns = 0 };
	struct top_promote cur = prev;
	char buf[512], *nl;

	cur.tried = 100 + 1040;
	cur.promoted = 90 + 1024;
	cur.failed[TOP_PF_NOT_LRU] = 10;
	cur.failed[TOP_PF_BUSY] = 6;
	cur.pending = 3;
	cur.dropped = 2;
	cur.expired = 5;
	cur.failed[TOP_PF_WATERMARK] = 12;
	cur.worker_ns = 20000000;	/* 20 ms over 2 s: 1% */
	top_fmt_promote(buf, sizeof(buf), &cur, &prev, 2.0, 4096);
	nl = strchr(buf, '\n');
	CHECK(nl != NULL);
	if (nl) {
		*nl = '\0';
		CHECK(!strcmp(buf, "  promote on -> nearest top tier: 512 pages/s (2.00 MiB/s) tried 520/s"));
		CHECK(!strcmp(nl + 1, "  pending 3 dropped 2 expired 5 failed 28 (most watermark 12) worker 1.0% CPU"));
		CHECK(strlen(buf) <= TOP_WIDTH && strlen(nl + 1) <= TOP_WIDTH);
	}
	/* re-enabled meanwhile: counters below the last frame's count from 0 */
	prev.promoted = 5000;
	cur.node = 0;
	top_fmt_promote(buf, sizeof(buf), &cur, &prev, 2.0, 4096);
	CHECK(!strncmp(buf, "  promote on -> node 0: 557 pages/s (2.18 MiB/s)", 48));
	cur.enabled = false;
	top_fmt_promote(buf, sizeof(buf), &cur, &prev, 2.0, 4096);
	CHECK(!strcmp(buf, ""));
	cur.present = false;
	top_fmt_promote(buf, sizeof(buf), &cur, &prev, 2.0, 4096);
	CHECK(!strcmp(buf, ""));
}

static void test_plan_direct(void)
{
	/* 256 MiB, 1 GiB, 64 MiB + 1 byte, none, 4 KiB */
	uint64_t cap[5] = { 256ULL << 20, 1ULL << 30, (64ULL << 20) + 1, 0, 4096 };
	uint32_t base[5], n[5];

	/* 4 KiB slots, room for 80 Ki: the 1 GiB device (256 Ki) goes to the hash */
	CHECK(top_plan_direct(cap, 5, 12, 80 * 1024, base, n) == 65537);
	CHECK(base[0] == 0 && n[0] == 65536);
	CHECK(base[1] == 0 && n[1] == 0);
	CHECK(n[2] == 0);	/* 16385 do not fit in the 16384 left */
	CHECK(n[3] == 0);
	CHECK(base[4] == 65536 && n[4] == 1);
	/* all of them fit at 2 MiB regions; a part slot rounds up */
	CHECK(top_plan_direct(cap, 5, 21, 1 << 22, base, n) == 128 + 512 + 33 + 0 + 1);
	CHECK(base[1] == 128 && n[1] == 512 && base[2] == 640 && n[2] == 33);
	CHECK(base[4] == 673 && n[4] == 1);
	/* no budget: the hash for all */
	CHECK(top_plan_direct(cap, 5, 12, 0, base, n) == 0);
	CHECK(n[0] == 0 && n[4] == 0);
}

static void test_touched(void)
{
	/* slots 5, a hole, 7, 5 again, one out of range */
	uint64_t list[10] = { 1 + 5, 0, 1 + 7, 1 + 5, 99999 };
	struct top_touched t;

	CHECK(!top_touched_init(&t, 10));
	top_touched_read(&t, list, 5);
	CHECK(t.nread == 5 && t.hole == 1);
	CHECK(t.known[0] == 6 && t.known[1] == 0 && t.known[2] == 8);
	CHECK(t.known[3] == UINT32_MAX && t.known[4] == UINT32_MAX);
	/* the hole written since, a new place taken and not yet written */
	list[1] = 1 + 2;
	top_touched_read(&t, list, 6);
	CHECK(t.known[1] == 3 && t.known[0] == 6 && t.known[2] == 8);
	CHECK(t.nread == 6 && t.hole == 5);
	list[5] = 1 + 9;
	list[6] = 1 + 2;	/* listed twice: known once */
	top_touched_read(&t, list, 7);
	CHECK(t.known[5] == 10 && t.known[6] == UINT32_MAX);
	CHECK(t.nread == 7 && t.hole == 7);
	/* a count past the slots (cannot be): only the slots' places */
	top_touched_read(&t, list, 100);
	CHECK(t.nread == 10 && t.hole == 7);
	top_touched_free(&t);
}

/*
 * Keys from a pseudo-terminal in chmutop's raw mode: no key is not the
 * end of the keys (a Ctrl-Z flushing a key that poll had reported left
 * chmutop deaf to 'q'); a key is read; the master closed (a hang-up) is.
 */
static void test_read_key(void)
{
	struct termios t;
	struct pollfd p;
	int m, sl;
	char c = 0;

	m = posix_openpt(O_RDWR | O_NOCTTY);
	CHECK(m >= 0);
	if (m < 0)
		return;
	CHECK(!grantpt(m) && !unlockpt(m));
	sl = open(ptsname(m), O_RDWR | O_NOCTTY);
	CHECK(sl >= 0);
	if (sl < 0) {
		close(m);
		return;
	}
	CHECK(!tcgetattr(sl, &t));
	t.c_lflag &= ~(ICANON | ECHO);
	t.c_cc[VMIN] = 0;
	t.c_cc[VTIME] = 0;
	CHECK(!tcsetattr(sl, TCSANOW, &t));
	CHECK(top_read_key(sl, &c) == 0);	/* nothing typed: keys go on */
	CHECK(top_read_key(sl, &c) == 0);
	CHECK(write(m, "q", 1) == 1);
	p = (struct pollfd){ .fd = sl, .events = POLLIN };
	CHECK(poll(&p, 1, 5000) == 1);		/* the pty hands it over soon */
	CHECK(top_read_key(sl, &c) == 1 && c == 'q');
	CHECK(top_read_key(sl, &c) == 0);
	close(m);				/* hangs the slave up */
	CHECK(top_read_key(sl, &c) == -1);
	close(sl);
}

int main(void)
{
	test_rate_sort();
	test_format();
	test_fit();
	test_promote();
	test_plan_direct();
	test_touched();
	test_read_key();
	return check_report("test_top");
}
