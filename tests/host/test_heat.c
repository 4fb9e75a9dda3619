// SPDX-License-Identifier: GPL-2.0
/* Unit tests of the histogram and heatmap maths and rendering. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "../../tools/lib/heat.h"

/* Render with @fn into a string. */
static char *render(void (*fn)(FILE *, const struct heat_grid *, int),
		    const struct heat_grid *g, int arg)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	fn(f, g, arg);
	fclose(f);
	return buf;
}

static void text_plain(FILE *f, const struct heat_grid *g, int color)
{
	heat_render_text(f, g, color);
}

static void svg(FILE *f, const struct heat_grid *g, int unused)
{
	(void)unused;
	heat_render_svg(f, g);
}

static void hist(FILE *f, const struct heat_grid *g, int unused)
{
	unsigned long long slots[12] = { 0 };

	(void)g;
	(void)unused;
	slots[2] = 1;	/* 5 */
	slots[6] = 1;	/* 100 */
	slots[8] = 2;	/* 300, 400 */
	heat_print_log2(f, slots, 12, "count");
}

/* Compare with tests/host/golden/NAME; UPDATE_GOLDEN=1 rewrites it. */
static void golden(const char *name, const char *got)
{
	char path[256], *want = NULL;
	size_t len = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", getenv("GOLDEN_DIR") ?: "tests/host/golden", name);
	if (getenv("UPDATE_GOLDEN")) {
		f = fopen(path, "w");
		fputs(got, f);
		fclose(f);
	}
	f = fopen(path, "r");
	CHECK(f != NULL);
	if (!f)
		return;
	getdelim(&want, &len, '\0', f);
	fclose(f);
	CHECK(want && !strcmp(want, got));
	if (want && strcmp(want, got))
		fprintf(stderr, "golden %s differs; got:\n%s\n", name, got);
	free(want);
}

static void test_slots(void)
{
	CHECK(heat_log2_slot(0) == 0);
	CHECK(heat_log2_slot(1) == 0);
	CHECK(heat_log2_slot(2) == 1);
	CHECK(heat_log2_slot(3) == 1);
	CHECK(heat_log2_slot(4) == 2);
	CHECK(heat_log2_slot(100) == 6);
	CHECK(heat_log2_slot(300) == 8);
	CHECK(heat_log2_slot(~0ULL) == 63);
}

static void test_levels(void)
{
	uint64_t th[HEAT_LEVELS];

	heat_thresholds(400, th);
	CHECK(th[1] == 1 && th[9] == 400);
	for (int l = 2; l < HEAT_LEVELS; l++)
		CHECK(th[l] >= th[l - 1]);
	CHECK(heat_level(0, th) == 0);
	CHECK(heat_level(1, th) == 1);
	CHECK(heat_level(400, th) == 9);
	CHECK(heat_level(399, th) == 8);
	CHECK(heat_level(1000, th) == 9);
	heat_thresholds(1, th);
	CHECK(heat_level(1, th) == 9);
	heat_thresholds(0, th);
	CHECK(heat_level(0, th) == 0);
}

static void test_mapping(void)
{
	uint64_t lo, hi;

	heat_region_range(0, 28, &lo, &hi);
	CHECK(lo == 0 && hi == 0xfffffff);
	heat_region_range(2, 26, &lo, &hi);
	CHECK(lo == 0x8000000 && hi == 0xbffffff);
	CHECK(heat_row_size(512ULL << 20, 16) == 32ULL << 20);
	CHECK(heat_row_size(500ULL << 20, 16) == 32ULL << 20);
	CHECK(heat_row_size(513ULL << 20, 16) == 64ULL << 20);
	CHECK(heat_row_size(0, 16) == 4096);
	CHECK(heat_row_size(1 << 20, 0) == 1 << 20);
	CHECK(heat_row_size(32ULL << 30, 16) == 2ULL << 30);
}

static void test_render(void)
{
	struct heat_grid g;
	unsigned int w, h;
	char *s;

	CHECK(heat_grid_init(&g, 0, 3) != 0);
	CHECK(heat_grid_init(&g, 4, 3) == 0);
	g.row_size = 32 << 20;
	g.col_secs = 1;
	g.title = "mem0.0.0 test";
	*heat_cell(&g, 0, 0) = 400;
	*heat_cell(&g, 0, 1) = 20;
	*heat_cell(&g, 2, 0) = 9;
	*heat_cell(&g, 3, 2) = 1;
	CHECK(heat_max(&g) == 400);

	s = render(text_plain, &g, 0);
	golden("heat.txt", s);
	free(s);
	s = render(text_plain, &g, 1);
	CHECK(strstr(s, "\033[1;31m@\033[0m") != NULL);
	free(s);

	heat_svg_size(&g, &w, &h);
	CHECK(w == 890 && h == 174);
	s = render(svg, &g, 0);
	CHECK(strstr(s, "width=\"890\" height=\"174\"") != NULL);
	golden("heat.svg", s);
	free(s);
	heat_grid_free(&g);

	CHECK(heat_grid_init(&g, 2, 60) == 0);
	heat_svg_size(&g, &w, &h);
	CHECK(w == 150 + 60 * 16 + 20 && h == 40 + 2 * 16 + 70);
	/* an hour per column: in full, not 3.6e+03 */
	g.row_size = 1 << 20;
	g.col_secs = 3600;
	g.title = "hours";
	s = render(text_plain, &g, 0);
	CHECK(strstr(s, "one cell: 1 MiB of DPA x 3600 s;") != NULL);
	free(s);
	s = render(svg, &g, 0);
	CHECK(strstr(s, "time (one column = 3600 s)") != NULL);
	free(s);
	heat_grid_free(&g);

	s = render(hist, NULL, 0);
	golden("hist.txt", s);
	free(s);
}

/*
 * The heatmap rolls: interval 5 of a 3-column window lands in column 2,
 * the view shows intervals 3..5 oldest first, rows past the grid and
 * intervals out of the window are refused (the caller counts them).
 */
static void test_roll(void)
{
	struct heat_grid g, v;
	uint64_t n, first = 99;

	CHECK(heat_grid_init(&g, 2, 3) == 0);
	for (n = 0; n < 6; n++) {
		heat_roll_start(&g, n);
		CHECK(heat_roll_add(&g, n, n, n % 2, 10 + n) == 0);
	}
	CHECK(heat_roll_add(&g, 5, 4, 0, 1) == 0);	/* a late cell, still in */
	CHECK(heat_roll_add(&g, 5, 2, 0, 1) == -ERANGE);	/* rolled out */
	CHECK(heat_roll_add(&g, 5, 6, 0, 1) == -ERANGE);	/* not started */
	CHECK(heat_roll_add(&g, 5, 5, 2, 1) == -ERANGE);	/* past the rows */
	CHECK(heat_roll_view(&g, 6, &v, &first) == 0);
	CHECK(first == 3 && v.cols == 3);
	CHECK(*heat_cell(&v, 1, 0) == 13 && *heat_cell(&v, 0, 1) == 14 + 1);
	CHECK(*heat_cell(&v, 1, 2) == 15 && *heat_cell(&v, 0, 0) == 0);
	heat_grid_free(&v);
	/* fewer intervals than columns: only those */
	CHECK(heat_roll_view(&g, 2, &v, &first) == 0 && first == 0 && v.cols == 2);
	heat_grid_free(&v);
	heat_grid_free(&g);
}

int main(void)
{
	test_slots();
	test_levels();
	test_mapping();
	test_render();
	test_roll();
	return check_report("test_heat");
}
