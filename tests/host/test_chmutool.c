// SPDX-License-Identifier: GPL-2.0
/* Unit tests of the toolkit's shared argument parsing and output helpers. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "../../tools/lib/chmutool.h"

static void test_parse(void)
{
	int m, c, i;
	uint64_t sz;

	CHECK(chmu_parse_memdev("mem0", &m) == 0 && m == 0);
	CHECK(chmu_parse_memdev("mem12", &m) == 0 && m == 12);
	CHECK(chmu_parse_memdev("mem", &m) == -EINVAL);
	CHECK(chmu_parse_memdev("0", &m) == -EINVAL);
	CHECK(chmu_parse_memdev("mem1x", &m) == -EINVAL);
	CHECK(chmu_parse_instance("0.0", &c, &i) == 0 && c == 0 && i == 0);
	CHECK(chmu_parse_instance("1.3", &c, &i) == 0 && c == 1 && i == 3);
	CHECK(chmu_parse_instance("1", &c, &i) == -EINVAL);
	CHECK(chmu_parse_instance("1.", &c, &i) == -EINVAL);
	CHECK(chmu_parse_instance(".1", &c, &i) == -EINVAL);
	CHECK(chmu_parse_instance("1.2.3", &c, &i) == -EINVAL);
	CHECK(chmu_parse_instance("256.0", &c, &i) == -EINVAL);
	CHECK(chmu_parse_size("256M", &sz) == 0 && sz == 256ULL << 20);
	CHECK(chmu_parse_size("4k", &sz) == 0 && sz == 4096);
	CHECK(chmu_parse_size("x", &sz) == -EINVAL);
}

static void test_select(void)
{
	struct chmu_inst v[4] = {};
	int k;

	v[0].memdev = 0; v[0].chmu = 0; v[0].inst = 0;
	v[1].memdev = 0; v[1].chmu = 0; v[1].inst = 1;
	v[2].memdev = 0; v[2].chmu = 1; v[2].inst = 0;
	v[3].memdev = 1; v[3].chmu = 0; v[3].inst = 0;
	k = chmu_select(v, 4, -1, -1, -1);
	CHECK(k == 4);
	k = chmu_select(v, 4, 0, 0, 1);
	CHECK(k == 1 && v[0].inst == 1);
	v[0].memdev = 0; v[0].chmu = 0; v[0].inst = 0;
	v[1].memdev = 1;
	k = chmu_select(v, 4, 1, -1, -1);
	CHECK(k == 2);
	CHECK(CHMU_INST_ID(1, 2, 3) == 0x10203);
	CHECK(CHMU_ID_MEMDEV(0x10203) == 1 && CHMU_ID_CHMU(0x10203) == 2 &&
	      CHMU_ID_INST(0x10203) == 3);
}

static void test_settings(void)
{
	struct chmu_settings s;

	chmu_settings_init(&s);
	CHECK(!chmu_settings_given(&s));
	s.threshold = 5;
	CHECK(chmu_settings_given(&s));
	chmu_settings_init(&s);
	s.mode = "epoch";
	CHECK(chmu_settings_given(&s));
}

static void test_output(void)
{
	char *buf = NULL, sz[32];
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	chmu_json_begin(f, "alert");
	chmu_json_str(f, "instance", "mem0.0.0");
	chmu_json_str(f, "note", "a \"quoted\" \\ line\n");
	chmu_json_u64(f, "dpa", 4096);
	chmu_json_i64(f, "nid", -1);
	chmu_json_end(f);
	fclose(f);
	CHECK(!strcmp(buf, "{\"version\":1,\"type\":\"alert\",\"instance\":\"mem0.0.0\","
		      "\"note\":\"a \\\"quoted\\\" \\\\ line\\u000a\",\"dpa\":4096,\"nid\":-1}\n"));
	free(buf);
	CHECK(!strcmp(chmu_fmt_size(256ULL << 20, sz, sizeof(sz)), "256 MiB"));
	CHECK(!strcmp(chmu_fmt_size(4096, sz, sizeof(sz)), "4 KiB"));
	CHECK(!strcmp(chmu_fmt_size(1000, sz, sizeof(sz)), "1000 B"));
	CHECK(!strcmp(chmu_fmt_size(3ULL << 30, sz, sizeof(sz)), "3 GiB"));
}

/* Measured values are never printed in exponent form. */
static void test_fmt_num(void)
{
	char b[64];

	CHECK(!strcmp(chmu_fmt_num(1234567, b, sizeof(b)), "1234567"));
	CHECK(!strcmp(chmu_fmt_num(4294967295.0, b, sizeof(b)), "4294967295"));
	CHECK(!strcmp(chmu_fmt_num(1e15, b, sizeof(b)), "1000000000000000"));
	CHECK(!strcmp(chmu_fmt_num(2500000.25, b, sizeof(b)), "2500000.25"));
	CHECK(!strcmp(chmu_fmt_num(0.5, b, sizeof(b)), "0.5"));
	CHECK(!strcmp(chmu_fmt_num(1.0 / 3, b, sizeof(b)), "0.333333"));
	CHECK(!strcmp(chmu_fmt_num(100, b, sizeof(b)), "100"));
	CHECK(!strcmp(chmu_fmt_num(0, b, sizeof(b)), "0"));
	CHECK(!strcmp(chmu_fmt_num(-0.0, b, sizeof(b)), "0"));
	CHECK(!strcmp(chmu_fmt_num(-2.5, b, sizeof(b)), "-2.5"));
}

int main(void)
{
	test_parse();
	test_select();
	test_settings();
	test_output();
	test_fmt_num();
	return check_report("test_chmutool");
}
