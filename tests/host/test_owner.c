// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the attribution's user-space half: shares of a unit's
 * pages, cgroup paths by id (walked from a directory tree made here),
 * the column and NDJSON forms, and the sums per owner.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "../../tools/lib/owner.h"

static uint64_t ino(const char *path)
{
	struct stat st;

	return stat(path, &st) ? 0 : st.st_ino;
}

static void test_shares(void)
{
	struct chmu_owners o = { .cgid = { 7, 9 }, .pages = { 100, 300 },
				 .free = 100, .kernel = 12 };
	struct owner_share s[8];
	size_t n;

	CHECK(owner_pages(&o) == 512);
	n = owner_shares(&o, s, 8);
	CHECK(n == 4);
	CHECK(s[0].kind == OWNER_CGROUP && s[0].cgid == 9 && s[0].pages == 300);
	/* equal pages: the cgroup before free */
	CHECK(s[1].kind == OWNER_CGROUP && s[1].cgid == 7 && s[1].pages == 100);
	CHECK(s[2].kind == OWNER_FREE && s[2].pages == 100);
	CHECK(s[3].kind == OWNER_KERNEL && s[3].pages == 12);
	CHECK(owner_shares(&o, s, 2) == 2 && s[1].cgid == 7);

	/* ties as the BPF programs break them: cgroups in the order found, then free, kernel, other */
	{
		struct chmu_owners t = { .cgid = { 9, 7 }, .pages = { 2, 2 }, .free = 2,
					 .kernel = 2, .other = 2 };

		CHECK(owner_shares(&t, s, 8) == 5);
		CHECK(s[0].cgid == 9 && s[1].cgid == 7 && s[2].kind == OWNER_FREE &&
		      s[3].kind == OWNER_KERNEL && s[4].kind == OWNER_OTHER);
	}

	/* nothing looked at: one owner, none */
	memset(&o, 0, sizeof(o));
	o.unwalked = 3;
	CHECK(owner_shares(&o, s, 8) == 1 && s[0].kind == OWNER_NONE &&
	      s[0].pages == 0);
}

static void test_names_fmt_json(void)
{
	char tmp[] = "/tmp/chmu-owner-XXXXXX", p[256], buf[64], *out = NULL;
	struct owner_names *n;
	struct chmu_owners o = {};
	uint64_t a, db;
	size_t len = 0;
	FILE *f;

	CHECK(mkdtemp(tmp) != NULL);
	snprintf(p, sizeof(p), "%s/a", tmp);
	CHECK(!mkdir(p, 0755));
	snprintf(p, sizeof(p), "%s/sys.slice", tmp);
	CHECK(!mkdir(p, 0755));
	snprintf(p, sizeof(p), "%s/sys.slice/db \"x\".service", tmp);
	CHECK(!mkdir(p, 0755));
	db = ino(p);
	snprintf(p, sizeof(p), "%s/a", tmp);
	a = ino(p);

	n = owner_names_new(tmp);
	CHECK(n != NULL);
	if (!n)
		return;
	CHECK(!strcmp(owner_name(n, ino(tmp)), "/"));
	CHECK(!strcmp(owner_name(n, a), "/a"));
	CHECK(!strcmp(owner_name(n, db), "/sys.slice/db \"x\".service"));
	CHECK(!strcmp(owner_name(n, 1ULL << 62), "cgroup:4611686018427387904"));
	CHECK(!strcmp(owner_key_name(n, a), "/a"));
	CHECK(!strcmp(owner_key_name(n, CHMU_KEY_FREE), "free"));
	CHECK(!strcmp(owner_key_name(n, CHMU_KEY_KERNEL), "kernel"));
	CHECK(!strcmp(owner_key_name(n, CHMU_KEY_NONE), "-"));
	CHECK(!strcmp(owner_key_name(n, CHMU_KEY_OTHER), "other"));

	/* a cgroup made after the walk: found once the names expire */
	snprintf(p, sizeof(p), "%s/b", tmp);
	CHECK(!mkdir(p, 0755));
	CHECK(!strncmp(owner_name(n, ino(p)), "cgroup:", 7));
	owner_names_expire(n);
	CHECK(!strcmp(owner_name(n, ino(p)), "/b"));
	{
		uint64_t b = ino(p);

		/* removed: its id keeps its path, after another walk too */
		rmdir(p);
		owner_names_expire(n);
		CHECK(!strncmp(owner_name(n, 1ULL << 61), "cgroup:", 7));	/* walks */
		CHECK(!strcmp(owner_name(n, b), "/b"));
	}

	o.cgid[0] = a;
	o.pages[0] = 1;
	CHECK(!strcmp(owner_fmt(n, &o, buf, sizeof(buf)), "/a"));
	o.pages[0] = 3;
	o.free = 1;
	CHECK(!strcmp(owner_fmt(n, &o, buf, sizeof(buf)), "/a 75%"));
	o.unwalked = 4;
	CHECK(!strcmp(owner_fmt(n, &o, buf, sizeof(buf)), "/a 75%+"));
	memset(&o, 0, sizeof(o));
	o.free = 1;
	CHECK(!strcmp(owner_fmt(n, &o, buf, sizeof(buf)), "free"));
	o.free = 0;
	o.kernel = 1;
	CHECK(!strcmp(owner_fmt(n, &o, buf, sizeof(buf)), "kernel"));
	o.kernel = 0;
	o.none = 1;
	CHECK(!strcmp(owner_fmt(n, &o, buf, sizeof(buf)), "-"));

	memset(&o, 0, sizeof(o));
	o.cgid[0] = db;
	o.pages[0] = 2;
	o.free = 2;
	o.unwalked = 508;
	f = open_memstream(&out, &len);
	owner_json(f, n, &o);
	fclose(f);
	CHECK(out && !strcmp(out,
		",\"cgroup\":\"/sys.slice/db \\\"x\\\".service\""
		",\"owners\":[{\"cgroup\":\"/sys.slice/db \\\"x\\\".service\",\"pages\":2},"
		"{\"cgroup\":\"free\",\"pages\":2}],\"owner_pages\":4,\"owner_unwalked\":508"));
	free(out);

	owner_names_free(n);
	snprintf(p, sizeof(p), "%s/sys.slice/db \"x\".service", tmp);
	rmdir(p);
	snprintf(p, sizeof(p), "%s/sys.slice", tmp);
	rmdir(p);
	snprintf(p, sizeof(p), "%s/a", tmp);
	rmdir(p);
	rmdir(tmp);
	/* no such mount */
	CHECK(owner_names_new(tmp) == NULL);
}

/* Names of removed cgroups are kept, up to a bound: the oldest go first */
static void test_stale(void)
{
	char tmp[] = "/tmp/chmu-stale-XXXXXX";
	struct owner_names *n;
	uint64_t i;

	CHECK(mkdtemp(tmp) != NULL);
	n = owner_names_new(tmp);
	CHECK(n != NULL);
	if (!n)
		return;
	for (i = 1; i <= 4096; i++)	/* ids no walk finds: removed cgroups */
		CHECK(!owner_names_add(n, (1ULL << 40) + i, "/gone"));
	CHECK(!strcmp(owner_name(n, ino(tmp)), "/"));	/* a walk */
	CHECK(!strcmp(owner_name(n, (1ULL << 40) + 1), "/gone"));	/* 4096 kept */
	CHECK(!owner_names_add(n, (1ULL << 41), "/gone2"));
	owner_names_expire(n);
	CHECK(!strncmp(owner_name(n, 7), "cgroup:", 7));	/* a walk: 4097 stale */
	CHECK(!strcmp(owner_name(n, (1ULL << 40) + 1), "cgroup:1099511627777"));
	CHECK(!strcmp(owner_name(n, ino(tmp)), "/"));
	owner_names_free(n);
	rmdir(tmp);
}

static void test_groups(void)
{
	struct owner_names *n = owner_names_new("/");
	struct owner_groups g = {};
	struct chmu_owners u1 = { .cgid = { 5 }, .pages = { 1 } };
	struct chmu_owners u2 = { .cgid = { 5, 6 }, .pages = { 3, 1 } };
	struct chmu_owners u3 = { .free = 1 };

	CHECK(n != NULL);
	if (!n)
		return;
	CHECK(!owner_names_add(n, 5, "/a"));
	CHECK(!owner_names_add(n, 6, "/b"));
	CHECK(!owner_groups_add(&g, n, &u1, 100, 10));
	CHECK(!owner_groups_add(&g, n, &u2, 400, 40));
	CHECK(!owner_groups_add(&g, n, &u3, 50, 100));
	owner_groups_sort(&g, true);
	CHECK(g.n == 3);
	/* /a: 100 + 3/4 of 400; /b: 1/4 of 400; free: 50 */
	CHECK(!strcmp(g.v[0].name, "/a") && g.v[0].sum == 400 &&
	      g.v[0].rate == 40 && g.v[0].units == 1.75 && g.v[0].touched == 2 &&
	      g.v[0].pages == 4);
	CHECK(!strcmp(g.v[1].name, "/b") && g.v[1].sum == 100 &&
	      g.v[1].units == 0.25 && g.v[1].touched == 1);
	CHECK(!strcmp(g.v[2].name, "free") && g.v[2].sum == 50 &&
	      g.v[2].active == 1);
	CHECK(!owner_groups_add(&g, n, &u1, 1, 0));
	owner_groups_sort(&g, true);
	CHECK(g.v[0].units == 2.75 && g.v[0].active == 1.75);
	owner_groups_sort(&g, false);
	CHECK(!strcmp(g.v[0].name, "free") && !strcmp(g.v[1].name, "/a"));
	owner_groups_reset(&g);
	CHECK(g.n == 0);
	owner_groups_free(&g);
	owner_names_free(n);
}

static void put(const char *dir, const char *file, const char *val)
{
	char p[512];
	FILE *f;

	snprintf(p, sizeof(p), "%s/%s", dir, file);
	f = fopen(p, "w");
	if (f) {
		fputs(val, f);
		fclose(f);
	}
}

static void test_contig(void)
{
	char tmp[] = "/tmp/chmu-regions-XXXXXX", r0[256], r1[256];
	struct owner_names *n = owner_names_new("/");

	CHECK(n && mkdtemp(tmp));
	if (!n)
		return;
	snprintf(r0, sizeof(r0), "%s/region0", tmp);
	snprintf(r1, sizeof(r1), "%s/region1", tmp);
	CHECK(!mkdir(r0, 0755) && !mkdir(r1, 0755));
	put(r0, "resource", "0x1000000000\n");
	put(r0, "size", "0x10000000\n");
	put(r0, "interleave_ways", "1\n");
	put(r0, "interleave_granularity", "256\n");
	put(r1, "resource", "0x2000000000\n");
	put(r1, "size", "0x10000000\n");
	put(r1, "interleave_ways", "2\n");
	put(r1, "interleave_granularity", "4096\n");
	CHECK(!owner_regions_load(n, tmp));
	CHECK(owner_contig(n, 0x1000200000) == UINT64_MAX);
	CHECK(owner_contig(n, 0x2000200000) == 4096);
	CHECK(owner_contig(n, 0x2000200800) == 2048);
	CHECK(owner_contig(n, 0x2010000000) == UINT64_MAX);	/* past it */
	{
		struct chmu_owner_region v[4];

		CHECK(owner_interleaved(n, v, 4) == 1 && v[0].start == 0x2000000000 &&
		      v[0].size == 0x10000000 && v[0].gran == 4096);
		CHECK(owner_interleaved(n, v, 0) == 0);
	}
	CHECK(owner_regions_load(n, "/nonexistent/chmu") == -ENOENT);
	owner_names_free(n);
	for (const char *f = "resource\0size\0interleave_ways\0interleave_granularity\0"; *f; f += strlen(f) + 1) {
		char p[512];

		snprintf(p, sizeof(p), "%s/%s", r0, f);
		unlink(p);
		snprintf(p, sizeof(p), "%s/%s", r1, f);
		unlink(p);
	}
	rmdir(r0);
	rmdir(r1);
	rmdir(tmp);
}

int main(void)
{
	test_contig();
	test_shares();
	test_names_fmt_json();
	test_stale();
	test_groups();
	return check_report("test_owner");
}
