/* SPDX-License-Identifier: GPL-2.0 */
/* Shared by chmualert.bpf.c and chmualert.c. */
#ifndef CHMUALERT_H
#define CHMUALERT_H

#define ALERT_CHUNK	64	/* entries per ring-buffer record at most */

/* One hotlist entry, as it reaches user space. */
struct alert_item {
	__u64 dpa;
	__u64 hpa;
	__u64 count;
	__s32 nid;
	__u32 pad;
	__u64 owner;		/* --by cgroup: the unit's main owner (CHMU_KEY) */
};

/*
 * Up to ALERT_CHUNK entries of one batch, in one ring-buffer record of
 * offsetof(e) + n entries.
 */
struct alert_chunk {
	__u64 ts;		/* bpf_ktime_get_ns() of the batch */
	__u64 seq;		/* the batch (the instance's drain number) */
	__u32 inst;		/* CHMU_INST_ID */
	__u32 n;
	struct alert_item e[ALERT_CHUNK];
};

#endif
