/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Intervals for the tools whose maps are read per interval (chmutop,
 * chmuheat): user space advances gen (it never goes back) and then waits
 * until no program run that may still write the interval it closed is
 * running (gen_busy[old & 1] == 0, chmu_gen_advance() in
 * tools/lib/chmubpf.c) before it takes that interval. A run takes its
 * interval once, at its start, so all of a drain's counts land in one
 * interval, and none lands in an interval already taken.
 */
#ifndef CHMU_GEN_BPF_H
#define CHMU_GEN_BPF_H

__u32 gen;		/* the interval open now */
__u64 gen_busy[2];	/* runs writing an interval, by its parity */

/* The interval this run writes; chmu_gen_exit() with it at the end. */
static __always_inline __u32 chmu_gen_enter(void)
{
	__u32 g = *(volatile __u32 *)&gen, g2;

	__sync_fetch_and_add(&gen_busy[g & 1], 1);
	/*
	 * Announced, then read again: user space writes gen before it reads
	 * gen_busy, so either it sees this run or this run sees its gen
	 */
	g2 = *(volatile __u32 *)&gen;
	if (g2 != g) {
		__sync_fetch_and_add(&gen_busy[g2 & 1], 1);
		__sync_fetch_and_add(&gen_busy[g & 1], -1);
		g = g2;
	}
	return g;
}

static __always_inline void chmu_gen_exit(__u32 g)
{
	__sync_fetch_and_add(&gen_busy[g & 1], -1);
}

#endif
