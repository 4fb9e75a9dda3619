/* SPDX-License-Identifier: GPL-2.0 */
/* Shared by chmualert.bpf.c and chmualert.c. */
#ifndef CHMUALERT_H
#define CHMUALERT_H

/* One hotlist entry, as it reaches user space through the ring buffer. */
struct alert_entry {
	__u64 ts;		/* bpf_ktime_get_ns() */
	__u64 dpa;
	__u64 hpa;
	__u64 count;
	__u64 seq;		/* the batch of the instance it came in */
	__u32 inst;		/* CHMU_INST_ID */
	__s32 nid;
};

#endif
