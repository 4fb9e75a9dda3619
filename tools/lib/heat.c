// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "chmutool.h"
#include "heat.h"

static const char shades[HEAT_LEVELS + 1] = " .:-=+*#%@";

unsigned int heat_log2_slot(uint64_t v)
{
	unsigned int k = 0;

	while (v > 1) {
		v >>= 1;
		k++;
	}
	return k;
}

void heat_print_log2(FILE *f, const unsigned long long *slots, unsigned int n,
		     const char *what)
{
	unsigned int i, last = 0, first = n, j, stars;
	unsigned long long max = 0;

	for (i = 0; i < n; i++) {
		if (!slots[i])
			continue;
		if (first == n)
			first = i;
		last = i;
		if (slots[i] > max)
			max = slots[i];
	}
	if (first == n) {
		fprintf(f, "     (no entries)\n");
		return;
	}
	fprintf(f, "%24s : %-10s distribution\n", what, "entries");
	for (i = first; i <= last; i++) {
		uint64_t lo = i ? 1ULL << i : 0;
		uint64_t hi = i < 63 ? (2ULL << i) - 1 : UINT64_MAX;

		fprintf(f, "%10" PRIu64 " -> %-10" PRIu64 " : %-10llu |",
			lo, hi, slots[i]);
		stars = max ? (unsigned int)(slots[i] * 40 / max) : 0;
		for (j = 0; j < 40; j++)
			fputc(j < stars ? '*' : ' ', f);
		fputs("|\n", f);
	}
}

void heat_region_range(uint64_t r, unsigned int shift, uint64_t *lo,
		       uint64_t *hi)
{
	*lo = r << shift;
	*hi = *lo + (1ULL << shift) - 1;
}

uint64_t heat_row_size(uint64_t capacity, unsigned int rows)
{
	uint64_t sz = 4096;

	if (!rows)
		rows = 1;
	while (sz < (1ULL << 62) && sz * rows < capacity)
		sz <<= 1;
	return sz;
}

int heat_grid_init(struct heat_grid *g, unsigned int rows, unsigned int cols)
{
	memset(g, 0, sizeof(*g));
	if (!rows || !cols || rows > 4096 || cols > 100000)
		return -EINVAL;
	g->v = calloc((size_t)rows * cols, sizeof(*g->v));
	if (!g->v)
		return -ENOMEM;
	g->rows = rows;
	g->cols = cols;
	g->col_secs = 1;
	return 0;
}

void heat_roll_start(struct heat_grid *g, uint64_t n)
{
	unsigned int r, c = n % g->cols;

	if (n < g->cols)
		return;		/* still zero */
	for (r = 0; r < g->rows; r++)
		*heat_cell(g, r, c) = 0;
}

int heat_roll_add(struct heat_grid *g, uint64_t cur, uint64_t n,
		  unsigned int row, uint64_t v)
{
	if (row >= g->rows || n > cur || cur - n >= g->cols)
		return -ERANGE;
	*heat_cell(g, row, n % g->cols) += v;
	return 0;
}

int heat_roll_view(struct heat_grid *g, uint64_t seen, struct heat_grid *out,
		   uint64_t *first)
{
	unsigned int cols = seen < g->cols ? (seen ? seen : 1) : g->cols;
	unsigned int r, c;
	int err;

	err = heat_grid_init(out, g->rows, cols);
	if (err)
		return err;
	*first = seen > cols ? seen - cols : 0;
	for (r = 0; r < g->rows; r++)
		for (c = 0; c < cols; c++)
			*heat_cell(out, r, c) =
				*heat_cell(g, r, (*first + c) % g->cols);
	out->row_base = g->row_base;
	out->row_size = g->row_size;
	out->col_secs = g->col_secs;
	out->title = g->title;
	return 0;
}

void heat_grid_free(struct heat_grid *g)
{
	free(g->v);
	g->v = NULL;
}

uint64_t *heat_cell(struct heat_grid *g, unsigned int row, unsigned int col)
{
	return &g->v[(size_t)row * g->cols + col];
}

uint64_t heat_max(const struct heat_grid *g)
{
	uint64_t m = 0;
	size_t i;

	for (i = 0; i < (size_t)g->rows * g->cols; i++)
		if (g->v[i] > m)
			m = g->v[i];
	return m;
}

void heat_thresholds(uint64_t max, uint64_t th[HEAT_LEVELS])
{
	unsigned int l;

	th[0] = 0;
	for (l = 1; l < HEAT_LEVELS; l++) {
		double t = max > 1 ? pow((double)max, (l - 1) / 8.0) : 1;
		uint64_t v = (uint64_t)ceil(t - 1e-9);

		th[l] = v < th[l - 1] ? th[l - 1] : v;
		if (th[l] < 1)
			th[l] = 1;
	}
}

unsigned int heat_level(uint64_t v, const uint64_t th[HEAT_LEVELS])
{
	unsigned int l;

	if (!v)
		return 0;
	for (l = HEAT_LEVELS - 1; l > 1; l--)
		if (v >= th[l])
			return l;
	return 1;
}

static const char *const ansi[HEAT_LEVELS] = {
	"", "\033[34m", "\033[34m", "\033[36m", "\033[32m", "\033[32m",
	"\033[33m", "\033[33m", "\033[31m", "\033[1;31m",
};

void heat_render_text(FILE *f, const struct heat_grid *g, bool color)
{
	uint64_t th[HEAT_LEVELS], max = heat_max(g);
	char sz[32], num[64];
	unsigned int r, c, l;

	heat_thresholds(max, th);
	if (g->title)
		fprintf(f, "%s\n", g->title);
	fprintf(f, "%18s  time ->\n", "DPA");
	for (r = 0; r < g->rows; r++) {
		char lab[24];

		snprintf(lab, sizeof(lab), "0x%" PRIx64, g->row_base + r * g->row_size);
		fprintf(f, "%18s |", lab);
		for (c = 0; c < g->cols; c++) {
			l = heat_level(g->v[(size_t)r * g->cols + c], th);
			if (color && l)
				fprintf(f, "%s%c\033[0m", ansi[l], shades[l]);
			else
				fputc(shades[l], f);
		}
		fputs("|\n", f);
	}
	fprintf(f, "one cell: %s of DPA x %s s; value: sum of hotlist counts (max %" PRIu64 ")\n",
		chmu_fmt_size(g->row_size, sz, sizeof(sz)),
		chmu_fmt_num(g->col_secs, num, sizeof(num)), max);
	fputs("legend:", f);
	for (l = 1; l < HEAT_LEVELS; l++) {
		if (l > 1 && th[l] == th[l - 1])
			continue;
		if (color)
			fprintf(f, " %s'%c'\033[0m>=%" PRIu64, ansi[l], shades[l], th[l]);
		else
			fprintf(f, " '%c'>=%" PRIu64, shades[l], th[l]);
	}
	fputc('\n', f);
}

#define SVG_CELL	16
#define SVG_LEFT	150
#define SVG_TOP		40
#define SVG_RIGHT	20
#define SVG_BOTTOM	70

static const char *const palette[HEAT_LEVELS] = {
	"#f2f2f2", "#ffffcc", "#ffeda0", "#fed976", "#feb24c",
	"#fd8d3c", "#fc4e2a", "#e31a1c", "#bd0026", "#800026",
};

void heat_svg_size(const struct heat_grid *g, unsigned int *w, unsigned int *h)
{
	unsigned int plot = g->cols * SVG_CELL;

	/* wide enough for the legend's nine swatches */
	*w = SVG_LEFT + (plot > 720 ? plot : 720) + SVG_RIGHT;
	*h = SVG_TOP + g->rows * SVG_CELL + SVG_BOTTOM;
}

void heat_render_svg(FILE *f, const struct heat_grid *g)
{
	uint64_t th[HEAT_LEVELS], max = heat_max(g);
	unsigned int w, h, r, c, l, x;
	char sz[32], num[64];

	heat_thresholds(max, th);
	heat_svg_size(g, &w, &h);
	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
	fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%u\" height=\"%u\" viewBox=\"0 0 %u %u\" font-family=\"monospace\" font-size=\"11\">\n",
		w, h, w, h);
	fprintf(f, "<rect width=\"%u\" height=\"%u\" fill=\"white\"/>\n", w, h);
	fprintf(f, "<text x=\"%d\" y=\"20\" font-size=\"13\">%s</text>\n", SVG_LEFT,
		g->title ? g->title : "CHMU heatmap");
	for (r = 0; r < g->rows; r++) {
		fprintf(f, "<text x=\"%d\" y=\"%u\" text-anchor=\"end\">0x%" PRIx64 "</text>\n",
			SVG_LEFT - 6, SVG_TOP + r * SVG_CELL + 12,
			g->row_base + r * g->row_size);
		for (c = 0; c < g->cols; c++) {
			uint64_t v = g->v[(size_t)r * g->cols + c];

			fprintf(f, "<rect x=\"%u\" y=\"%u\" width=\"%d\" height=\"%d\" fill=\"%s\"><title>%" PRIu64 "</title></rect>\n",
				SVG_LEFT + c * SVG_CELL, SVG_TOP + r * SVG_CELL,
				SVG_CELL, SVG_CELL, palette[heat_level(v, th)], v);
		}
	}
	fprintf(f, "<text x=\"%d\" y=\"%u\">time (one column = %s s) -&gt;</text>\n",
		SVG_LEFT, SVG_TOP + g->rows * SVG_CELL + 16,
		chmu_fmt_num(g->col_secs, num, sizeof(num)));
	fprintf(f, "<text x=\"%d\" y=\"%u\">one cell: %s of DPA; value: sum of hotlist counts (max %" PRIu64 ")</text>\n",
		SVG_LEFT, SVG_TOP + g->rows * SVG_CELL + 32,
		chmu_fmt_size(g->row_size, sz, sizeof(sz)), max);
	for (l = 1, x = SVG_LEFT; l < HEAT_LEVELS; l++) {
		if (l > 1 && th[l] == th[l - 1])
			continue;
		fprintf(f, "<rect x=\"%u\" y=\"%u\" width=\"12\" height=\"12\" fill=\"%s\"/><text x=\"%u\" y=\"%u\">&gt;=%" PRIu64 "</text>\n",
			x, SVG_TOP + g->rows * SVG_CELL + 42, palette[l], x + 15,
			SVG_TOP + g->rows * SVG_CELL + 52, th[l]);
		x += 80;
	}
	fputs("</svg>\n", f);
}
