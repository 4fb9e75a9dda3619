/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Histogram and heatmap maths and rendering for the CHMU tools: log2
 * buckets, region labels, and an address x time heatmap drawn in the
 * terminal (shades, optional colour, legend) or as an SVG image.
 */
#ifndef CHMU_HEAT_H
#define CHMU_HEAT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define HEAT_LEVELS 10		/* 0 = nothing, 1..9 increasingly hot */
#define HEAT_MAX_CELLS (1U << 22)	/* rows x columns of a grid: 32 MiB */

/* Bucket of @v: 0 holds 0 and 1, k holds 2^k .. 2^(k+1)-1. */
unsigned int heat_log2_slot(uint64_t v);

/* bcc-style log2 histogram: "lo -> hi : count |****|". */
void heat_print_log2(FILE *f, const unsigned long long *slots, unsigned int n,
		     const char *what);

/*
 * Address mapping: the DPA range of region @r of 2^@shift bytes, and the
 * power-of-two row size that spreads @capacity over at most @rows rows
 * (at least 4 KiB).
 */
void heat_region_range(uint64_t r, unsigned int shift, uint64_t *lo,
		       uint64_t *hi);
uint64_t heat_row_size(uint64_t capacity, unsigned int rows);

struct heat_grid {
	unsigned int rows, cols;
	uint64_t *v;		/* rows * cols, row-major */
	uint64_t row_base;	/* DPA of row 0 */
	uint64_t row_size;	/* bytes per row */
	double col_secs;	/* seconds per column */
	const char *title;
};

int heat_grid_init(struct heat_grid *g, unsigned int rows, unsigned int cols);

/*
 * A grid used as a rolling window of its last @cols intervals: interval
 * @n (0, 1, ... without bound) is column n % cols, cleared when interval
 * n starts (heat_roll_start(), called for 0, 1, 2, ... in turn).
 * heat_roll_add() adds @v at @row of interval @n, the current one (@cur)
 * or one still in the window: -ERANGE otherwise, or when @row is past the
 * grid. heat_roll_view() copies the window into @out, oldest interval
 * first (as many columns as intervals seen, up to cols); *@first is the
 * interval number of its first column.
 */
void heat_roll_start(struct heat_grid *g, uint64_t n);
int heat_roll_add(struct heat_grid *g, uint64_t cur, uint64_t n,
		  unsigned int row, uint64_t v);
int heat_roll_view(struct heat_grid *g, uint64_t seen, struct heat_grid *out,
		   uint64_t *first);
void heat_grid_free(struct heat_grid *g);
uint64_t *heat_cell(struct heat_grid *g, unsigned int row, unsigned int col);
uint64_t heat_max(const struct heat_grid *g);

/*
 * Level thresholds for a grid whose hottest cell is @max: th[l] is the
 * least value drawn at level l (1..9), log-spaced from 1 to @max.
 */
void heat_thresholds(uint64_t max, uint64_t th[HEAT_LEVELS]);
unsigned int heat_level(uint64_t v, const uint64_t th[HEAT_LEVELS]);

/* Terminal rendering; @color adds ANSI colours to the shades. */
void heat_render_text(FILE *f, const struct heat_grid *g, bool color);

/* SVG rendering; its size is heat_svg_size(). */
void heat_render_svg(FILE *f, const struct heat_grid *g);
void heat_svg_size(const struct heat_grid *g, unsigned int *w, unsigned int *h);

#endif
