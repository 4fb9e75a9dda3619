// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "perfev.h"

int perfev_parse_format(const char *spec, struct perfev_field *f)
{
	const char *p = spec;
	char *end;
	unsigned long lo, hi;

	if (strncmp(p, "config", 6))
		return -EINVAL;
	p += 6;
	f->word = 0;
	if (*p >= '1' && *p <= '2')
		f->word = *p++ - '0';
	if (*p++ != ':')
		return -EINVAL;
	lo = strtoul(p, &end, 10);
	if (end == p)
		return -EINVAL;
	hi = lo;
	if (*end == '-') {
		p = end + 1;
		hi = strtoul(p, &end, 10);
		if (end == p)
			return -EINVAL;
	}
	while (*end == '\n' || *end == ' ')
		end++;
	if (*end || lo > hi || hi > 63)
		return -EINVAL;
	f->lo = lo;
	f->hi = hi;
	return 0;
}

int perfev_set(const struct perfev_field *f, uint64_t val, uint64_t cfg[3])
{
	unsigned int width = f->hi - f->lo + 1;
	uint64_t mask = width == 64 ? ~0ULL : (1ULL << width) - 1;

	if (val & ~mask)
		return -ERANGE;
	cfg[f->word] &= ~(mask << f->lo);
	cfg[f->word] |= val << f->lo;
	return 0;
}

int perfev_split(const char *ev, char *pmu, size_t pmu_len, char *terms,
		 size_t terms_len)
{
	const char *slash = strchr(ev, '/');
	size_t n = slash ? (size_t)(slash - ev) : strlen(ev);
	size_t t;

	if (!n || n >= pmu_len)
		return -EINVAL;
	memcpy(pmu, ev, n);
	pmu[n] = '\0';
	terms[0] = '\0';
	if (!slash)
		return 0;
	t = strlen(slash + 1);
	if (!t || slash[t] != '/' || t > terms_len)
		return -EINVAL;
	memcpy(terms, slash + 1, t - 1);
	terms[t - 1] = '\0';
	return strchr(terms, '/') ? -EINVAL : 0;
}

int perfev_next_term(char **cursor, char **name, uint64_t *val)
{
	char *p = *cursor, *comma, *eq, *end;

	if (!p || !*p)
		return 0;
	comma = strchr(p, ',');
	if (comma)
		*comma = '\0';
	*cursor = comma ? comma + 1 : p + strlen(p);
	eq = strchr(p, '=');
	*name = p;
	*val = 1;
	if (eq) {
		*eq = '\0';
		errno = 0;
		*val = strtoull(eq + 1, &end, 0);
		if (end == eq + 1 || *end || errno || eq[1] == '-')
			return -EINVAL;
	}
	return **name ? 1 : -EINVAL;
}

void chmu_aux_decode_hdr(const uint64_t hdr[2], struct chmu_aux_hdr *h)
{
	h->count = hdr[0] & 0xffff;
	h->counter_width = (hdr[0] >> 16) & 0xff;
	h->unit_shift = (hdr[0] >> 24) & 0xff;
	h->mode = (hdr[0] >> 32) & 1;
	h->overflow = (hdr[0] >> 33) & 1;
	h->reason = (hdr[0] >> 34) & 3;
	h->seq = hdr[1];
}
