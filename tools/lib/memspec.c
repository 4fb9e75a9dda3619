// SPDX-License-Identifier: GPL-2.0
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>

#include "memspec.h"

static int parse_num(const char *s, char **end, uint64_t *out)
{
	unsigned long long v;

	if (!isdigit((unsigned char)*s))
		return -1;
	errno = 0;
	/* hex with 0x, else decimal: a leading zero is not octal */
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		v = strtoull(s, end, 16);
	else
		v = strtoull(s, end, 10);
	if (errno)
		return -1;
	*out = v;
	return 0;
}

int parse_size(const char *s, uint64_t *out)
{
	unsigned int shift = 0;
	uint64_t v;
	char *end;

	if (parse_num(s, &end, &v))
		return -1;
	switch (*end) {
	case '\0':
		break;
	case 'k': case 'K':
		shift = 10;
		break;
	case 'm': case 'M':
		shift = 20;
		break;
	case 'g': case 'G':
		shift = 30;
		break;
	default:
		return -1;
	}
	if (shift && end[1] != '\0')
		return -1;
	if (shift && v > (UINT64_MAX >> shift))
		return -1;
	*out = v << shift;
	return 0;
}

int parse_u64_list(const char *s, uint64_t *vals, size_t max)
{
	size_t n = 0;
	uint64_t lo, hi;
	char *end;

	for (;;) {
		if (parse_num(s, &end, &lo))
			return -1;
		hi = lo;
		if (*end == '-') {
			if (parse_num(end + 1, &end, &hi) || hi < lo)
				return -1;
		}
		for (uint64_t v = lo;; v++) {
			if (n == max)
				return -1;
			vals[n++] = v;
			if (v == hi)
				break;
		}
		if (*end == '\0')
			return (int)n;
		if (*end != ',')
			return -1;
		s = end + 1;
	}
}
