/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perf event strings "pmu/term=value,.../" turned into perf_event_attr
 * config words through the PMU's sysfs format descriptions
 * ("config1:32-63", "config:26"), and the CHMU AUX record format.
 */
#ifndef CHMU_PERFEV_H
#define CHMU_PERFEV_H

#include <stddef.h>
#include <stdint.h>

/* One format field: bits lo..hi of config word @word (0, 1 or 2). */
struct perfev_field {
	int word;
	unsigned int lo, hi;
};

/* Parse a sysfs format description; 0 or -EINVAL. */
int perfev_parse_format(const char *spec, struct perfev_field *f);

/* Store @val in @cfg; -ERANGE when it does not fit the field. */
int perfev_set(const struct perfev_field *f, uint64_t val, uint64_t cfg[3]);

/*
 * Split "pmu/terms/" (or a bare "pmu") into the PMU name and the terms
 * between the slashes. Returns 0, or -EINVAL for a malformed string.
 */
int perfev_split(const char *ev, char *pmu, size_t pmu_len, char *terms,
		 size_t terms_len);

/*
 * Take the next "name=value" (or bare "name", meaning 1) from *@cursor,
 * a writable comma-separated list. Returns 1 with *@name and *@val set,
 * 0 at the end, -EINVAL for a malformed term.
 */
int perfev_next_term(char **cursor, char **name, uint64_t *val);

/* CHMU AUX records: two header words, then the raw hotlist entries. */
#define CHMU_AUX_HDR_WORDS 2

struct chmu_aux_hdr {
	unsigned int count;
	unsigned int counter_width;
	unsigned int unit_shift;
	unsigned int mode;
	unsigned int overflow;
	unsigned int reason;
	uint64_t seq;
};

void chmu_aux_decode_hdr(const uint64_t hdr[2], struct chmu_aux_hdr *h);

#endif
