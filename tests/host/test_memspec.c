// SPDX-License-Identifier: GPL-2.0
/* Host unit tests for tools/lib/memspec.c. */
#include "check.h"
#include "../../tools/lib/memspec.h"

static void test_parse_size(void)
{
	uint64_t v;

	CHECK(parse_size("4096", &v) == 0 && v == 4096);
	CHECK(parse_size("0x1000", &v) == 0 && v == 4096);
	CHECK(parse_size("4k", &v) == 0 && v == 4096);
	CHECK(parse_size("2M", &v) == 0 && v == 2 << 20);
	CHECK(parse_size("1G", &v) == 0 && v == 1ULL << 30);
	CHECK(parse_size("0", &v) == 0 && v == 0);
	CHECK(parse_size("010", &v) == 0 && v == 10);	/* not octal */
	CHECK(parse_size("08k", &v) == 0 && v == 8192);
	CHECK(parse_size("", &v) == -1);
	CHECK(parse_size("-1", &v) == -1);
	CHECK(parse_size("4kb", &v) == -1);
	CHECK(parse_size("4x", &v) == -1);
	CHECK(parse_size(" 4", &v) == -1);
	CHECK(parse_size("17179869184G", &v) == -1);
	CHECK(parse_size("99999999999999999999", &v) == -1);
}

static void test_parse_list(void)
{
	uint64_t v[8];

	CHECK(parse_u64_list("3", v, 8) == 1 && v[0] == 3);
	CHECK(parse_u64_list("3,7,10-12", v, 8) == 5);
	CHECK(v[0] == 3 && v[1] == 7 && v[2] == 10 && v[3] == 11 && v[4] == 12);
	CHECK(parse_u64_list("0x10,5-5", v, 8) == 2 && v[0] == 16 && v[1] == 5);
	CHECK(parse_u64_list("0-7", v, 8) == 8 && v[7] == 7);
	CHECK(parse_u64_list("010,09", v, 8) == 2 && v[0] == 10 && v[1] == 9);
	CHECK(parse_u64_list("0-8", v, 8) == -1);
	CHECK(parse_u64_list("5-3", v, 8) == -1);
	CHECK(parse_u64_list("3,", v, 8) == -1);
	CHECK(parse_u64_list(",3", v, 8) == -1);
	CHECK(parse_u64_list("3;4", v, 8) == -1);
	CHECK(parse_u64_list("", v, 8) == -1);
}

int main(void)
{
	test_parse_size();
	test_parse_list();
	return check_report("memspec");
}
