// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of procmap: the processes mapping page frames, read from
 * this process's and a child's /proc/PID/pagemap (run as root, as make
 * test is: frame numbers need CAP_SYS_ADMIN).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "../../tools/lib/procmap.h"

/* Does this kernel answer PAGEMAP_SCAN (Linux 6.7; not under every sandbox) */
static bool have_pagemap_scan(void)
{
	struct { uint64_t start, end, categories; } vec[1];
	struct {
		uint64_t size, flags, start, end, walk_end, vec, vec_len, max_pages;
		uint64_t inv, mask, anyof, ret;
	} a = { .size = sizeof(a), .vec = (uintptr_t)vec, .vec_len = 1 };
	long psz = sysconf(_SC_PAGESIZE);
	static char page[1 << 16];
	int fd = open("/proc/self/pagemap", O_RDONLY), r;

	page[0] = 1;
	a.start = ((uintptr_t)page + psz - 1) / psz * psz;
	a.end = a.start + psz;
	a.mask = a.ret = 1 << 3;	/* present */
	r = fd < 0 ? -1 : ioctl(fd, _IOWR('f', 16, a), &a);
	if (fd >= 0)
		close(fd);
	return r >= 0;
}

static void test_parse(void)
{
	pid_t p[4];

	CHECK(procmap_parse_pids("12", p, 4) == 1 && p[0] == 12);
	CHECK(procmap_parse_pids("1,22,333", p, 4) == 3 && p[2] == 333);
	CHECK(procmap_parse_pids("", p, 4) == -EINVAL);
	CHECK(procmap_parse_pids("1,", p, 4) == -EINVAL);
	CHECK(procmap_parse_pids("1,x", p, 4) == -EINVAL);
	CHECK(procmap_parse_pids("0", p, 4) == -EINVAL);
	CHECK(procmap_parse_pids("-3", p, 4) == -EINVAL);
	CHECK(procmap_parse_pids("1,2,3,4,5", p, 4) == -EINVAL);
}

static void test_scan(bool no_ioctl)
{
	long psz = sysconf(_SC_PAGESIZE);
	char *shared = mmap(NULL, psz, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	char *mine;
	struct procmap_range r[2];
	struct procmap m;
	uint64_t ps, pm;
	int pipefd[2];
	char name[64], c;
	pid_t child, pid;

	CHECK(shared != MAP_FAILED);
	shared[0] = 1;
	CHECK(!pipe(pipefd));
	child = fork();
	if (!child) {
		volatile char x = shared[0];	/* mapped in the child too */

		(void)x;
		CHECK(write(pipefd[1], "r", 1) == 1);
		pause();
		_exit(0);
	}
	CHECK(read(pipefd[0], &c, 1) == 1);
	/* after the fork: the child does not map it */
	mine = mmap(NULL, psz, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	CHECK(mine != MAP_FAILED);
	mine[0] = 1;
	ps = procmap_self_pfn(shared);
	pm = procmap_self_pfn(mine);
	CHECK(ps && pm);	/* root: frame numbers */
	if (!ps || !pm) {
		kill(child, SIGKILL);
		return;
	}

	/* sorted by lo */
	r[0] = (struct procmap_range){ ps < pm ? ps : pm, (ps < pm ? ps : pm) + 1 };
	r[1] = (struct procmap_range){ ps < pm ? pm : ps, (ps < pm ? pm : ps) + 1 };
	CHECK(!procmap_init(&m, 16, r, 2));
	m.no_scan_ioctl = no_ioctl;
	CHECK(!procmap_scan(&m, "/proc", getpid()));
	CHECK(!procmap_scan(&m, "/proc", child));
	CHECK(m.used == 2);
	/* PAGEMAP_SCAN from Linux 6.7 on, unless told not to */
	CHECK(m.ioctl_scans == (no_ioctl || !have_pagemap_scan() ? 0 : 2));
	CHECK(procmap_lookup(&m, ps, &pid) == 2 && pid == getpid());
	CHECK(procmap_lookup(&m, pm, &pid) == 1 && pid == getpid());
	/* a frame in neither range (pm + 1 may be ps: frames can be adjacent) */
	CHECK(procmap_lookup(&m, (ps > pm ? ps : pm) + 1, &pid) == 0 && pid == 0);

	{
		struct procmap_unit u;

		procmap_unit(&m, ps, 1, &u);
		CHECK(u.pid[0] == getpid() && u.pages[0] == 1 && u.shared == 1 &&
		      u.none == 0 && u.pid[1] == 0);
		procmap_unit(&m, pm, 1, &u);
		CHECK(u.pid[0] == getpid() && u.pages[0] == 1 && u.shared == 0 &&
		      u.none == 0);
		/* a frame outside the ranges: nobody's */
		procmap_unit(&m, (ps > pm ? ps : pm) + 1, 1, &u);
		CHECK(u.pid[0] == 0 && u.none == 1);
	}
	/* only frames in the ranges, and at most max of them */
	procmap_free(&m);
	CHECK(!procmap_init(&m, 1, r, 2));
	m.no_scan_ioctl = no_ioctl;
	CHECK(!procmap_scan(&m, "/proc", getpid()));
	CHECK(m.used == 1 && m.skipped == 1);
	/* a budget of one pagemap entry: the scan stops, counted */
	procmap_reset(&m);
	m.budget = 1;
	CHECK(!procmap_scan(&m, "/proc", getpid()));
	CHECK(m.truncated == 1 && m.scanned == 1);
	m.budget = 0;
	procmap_reset(&m);
	CHECK(m.used == 0 && procmap_lookup(&m, ps, &pid) == 0);
	procmap_free(&m);

	snprintf(name, sizeof(name), "test_procmap[%d]", (int)getpid());
	CHECK(!strcmp(procmap_name("/proc", getpid(), (char[64]){ 0 }, 64), name));
	kill(child, SIGKILL);
	waitpid(child, NULL, 0);
	CHECK(!procmap_init(&m, 16, r, 2));
	CHECK(procmap_scan(&m, "/proc", child) == -ESRCH);
	procmap_free(&m);
}

/* This process's own frames: present pages only, one frame each */
static void test_self_pfn(void)
{
	long psz = sysconf(_SC_PAGESIZE);
	volatile char *p = mmap(NULL, 2 * psz, PROT_READ | PROT_WRITE,
				MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	uint64_t a, b;

	CHECK(p != MAP_FAILED);
	if (p == MAP_FAILED)
		return;
	CHECK(procmap_self_pfn((const void *)p) == 0);	/* never touched */
	p[0] = 1;
	p[psz] = 1;
	a = procmap_self_pfn((const void *)p);
	b = procmap_self_pfn((const void *)(p + psz - 1));
	CHECK(a && a == b);	/* root: frame numbers; any byte of the page */
	b = procmap_self_pfn((const void *)(p + psz));
	CHECK(b && b != a);
	munmap((void *)p, 2 * psz);
}

int main(void)
{
	test_parse();
	test_self_pfn();
	test_scan(false);	/* PAGEMAP_SCAN where the kernel has it */
	test_scan(true);	/* every mapping, as before Linux 6.7 */
	return check_report("test_procmap");
}
