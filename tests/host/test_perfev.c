// SPDX-License-Identifier: GPL-2.0
/* Unit tests of the perf event string and AUX header helpers. */
#include <errno.h>
#include <stdint.h>

#include "check.h"
#include "../../tools/lib/perfev.h"

static void test_format(void)
{
	struct perfev_field f;

	CHECK(perfev_parse_format("config:0-1\n", &f) == 0);
	CHECK(f.word == 0 && f.lo == 0 && f.hi == 1);
	CHECK(perfev_parse_format("config1:32-63", &f) == 0);
	CHECK(f.word == 1 && f.lo == 32 && f.hi == 63);
	CHECK(perfev_parse_format("config:26", &f) == 0);
	CHECK(f.word == 0 && f.lo == 26 && f.hi == 26);
	CHECK(perfev_parse_format("config2:0-31", &f) == 0 && f.word == 2);
	CHECK(perfev_parse_format("config3:0-1", &f) == -EINVAL);
	CHECK(perfev_parse_format("config:5-4", &f) == -EINVAL);
	CHECK(perfev_parse_format("config:0-64", &f) == -EINVAL);
	CHECK(perfev_parse_format("cfg:0-1", &f) == -EINVAL);
	CHECK(perfev_parse_format("config:", &f) == -EINVAL);
}

static void test_set(void)
{
	struct perfev_field mode = { 0, 0, 1 }, ds = { 0, 27, 34 };
	struct perfev_field gran = { 1, 32, 63 }, all = { 2, 0, 63 };
	uint64_t cfg[3] = { 0 };

	CHECK(perfev_set(&mode, 1, cfg) == 0 && cfg[0] == 1);
	CHECK(perfev_set(&mode, 4, cfg) == -ERANGE && cfg[0] == 1);
	CHECK(perfev_set(&ds, 255, cfg) == 0);
	CHECK(cfg[0] == (1 | (255ULL << 27)));
	CHECK(perfev_set(&ds, 3, cfg) == 0 && cfg[0] == (1 | (3ULL << 27)));
	CHECK(perfev_set(&gran, 12, cfg) == 0 && cfg[1] == 12ULL << 32);
	CHECK(perfev_set(&all, ~0ULL, cfg) == 0 && cfg[2] == ~0ULL);
}

static void test_split_terms(void)
{
	char pmu[64], terms[256], *cur, *name;
	uint64_t val;

	CHECK(perfev_split("cxl_hmu_mem0.0.0/epoch_type=0,access_type=6/",
			   pmu, sizeof(pmu), terms, sizeof(terms)) == 0);
	CHECK(!strcmp(pmu, "cxl_hmu_mem0.0.0"));
	CHECK(!strcmp(terms, "epoch_type=0,access_type=6"));
	CHECK(perfev_split("cxl_hmu_mem0.0.0", pmu, sizeof(pmu), terms,
			   sizeof(terms)) == 0 && !terms[0]);
	CHECK(perfev_split("pmu/a=1", pmu, sizeof(pmu), terms,
			   sizeof(terms)) == -EINVAL);
	CHECK(perfev_split("pmu/a=1/b/", pmu, sizeof(pmu), terms,
			   sizeof(terms)) == -EINVAL);
	CHECK(perfev_split("/a=1/", pmu, sizeof(pmu), terms,
			   sizeof(terms)) == -EINVAL);

	strcpy(terms, "epoch_type=0,hotness_threshold=0x10,randomized_downsampling");
	cur = terms;
	CHECK(perfev_next_term(&cur, &name, &val) == 1);
	CHECK(!strcmp(name, "epoch_type") && val == 0);
	CHECK(perfev_next_term(&cur, &name, &val) == 1);
	CHECK(!strcmp(name, "hotness_threshold") && val == 16);
	CHECK(perfev_next_term(&cur, &name, &val) == 1);
	CHECK(!strcmp(name, "randomized_downsampling") && val == 1);
	CHECK(perfev_next_term(&cur, &name, &val) == 0);

	strcpy(terms, "a=x");
	cur = terms;
	CHECK(perfev_next_term(&cur, &name, &val) == -EINVAL);
	strcpy(terms, "a=-1");
	cur = terms;
	CHECK(perfev_next_term(&cur, &name, &val) == -EINVAL);
	strcpy(terms, "=1");
	cur = terms;
	CHECK(perfev_next_term(&cur, &name, &val) == -EINVAL);
}

static void test_aux_hdr(void)
{
	uint64_t hdr[2] = {
		0x29c | 32ULL << 16 | 12ULL << 24 | 1ULL << 32 | 1ULL << 33 |
		2ULL << 34, 7
	};
	struct chmu_aux_hdr h;

	chmu_aux_decode_hdr(hdr, &h);
	CHECK(h.count == 0x29c && h.counter_width == 32 && h.unit_shift == 12);
	CHECK(h.mode == 1 && h.overflow == 1 && h.reason == 2 && h.seq == 7);
}

int main(void)
{
	test_format();
	test_set();
	test_split_terms();
	test_aux_hdr();
	return check_report("test_perfev");
}
