/* SPDX-License-Identifier: GPL-2.0 */
/* Parsing helpers shared by the CHMU user-space tools. */
#ifndef CHMU_MEMSPEC_H
#define CHMU_MEMSPEC_H

#include <stddef.h>
#include <stdint.h>

/*
 * parse_size() - parse "4096", "0x1000", "4k", "2M", "1G" (binary units);
 * decimal unless "0x" makes it hex ("010" is ten, never octal).
 * Returns 0 and stores the byte count, or -1 on malformed or overflowing input.
 */
int parse_size(const char *s, uint64_t *out);

/*
 * parse_u64_list() - parse a comma separated list of numbers and ranges,
 * "3,7,10-12" (ranges inclusive, bases as parse_size() without suffixes).
 * Stores at most @max values; returns how many, or -1 on malformed input,
 * a reversed range or more than @max values.
 */
int parse_u64_list(const char *s, uint64_t *vals, size_t max);

#endif
