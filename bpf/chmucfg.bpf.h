/* SPDX-License-Identifier: GPL-2.0 */
/*
 * chmu:chmu_config, kept per instance in chmu_cfgs (struct chmu_cfg,
 * lib/chmuabi.h): the driver emits it whenever an instance is enabled,
 * reconfigured or disabled, so a tool that read the configuration once
 * from sysfs at start learns every change from this map (one lookup per
 * instance) instead of reading a dozen sysfs files per interval. The
 * programs take the event's arguments (TP_PROTO), not its tracefs record:
 * no tracefs needed.
 */
#ifndef CHMU_CFG_BPF_H
#define CHMU_CFG_BPF_H

#include "lib/chmuabi.h"

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, CHMU_CFG_MAX_INST);
	__type(key, __u32);
	__type(value, struct chmu_cfg);
} chmu_cfgs SEC(".maps");

/*
 * The record, from the event's arguments (TP_PROTO's order). Attached as
 * tp_btf or raw_tp like the batch programs (CHMU_CONFIG_PROGS: the tool
 * keeps one with chmu_pick_prog()), so that neither tracefs nor debugfs
 * need be mounted; tp_btf has the kernel check the arguments' types.
 */
static __always_inline int chmu_config_record(int memdev, int chmu, int inst, __u32 enabled,
					      __u32 mode, __u32 threshold, __u32 unit_shift,
					      __u64 epoch_us, __u32 ds_shift, __u32 access,
					      __u32 range_first, __u32 range_count)
{
	static const struct chmu_cfg zero;
	struct chmu_cfg *c;
	__u32 id;

	id = CHMU_ID(memdev, chmu, inst);
	c = chmu_lookup_init(&chmu_cfgs, &id, &zero);
	if (!c)
		return 0;
	c->enabled = enabled;
	c->mode = mode;
	c->threshold = threshold;
	c->unit_shift = unit_shift;
	c->epoch_us = epoch_us;
	c->ds_shift = ds_shift;
	c->access = access;
	c->range_first = range_first;
	c->range_count = range_count;
	/* the fields first: user space applies a record whose count moved */
	__sync_fetch_and_add(&c->events, 1);
	return 0;
}

#define CHMU_CONFIG_ARGS int memdev, int chmu, int inst, __u32 enabled, __u32 mode,	\
	__u32 threshold, __u32 unit_shift, __u64 epoch_us, __u32 ds_shift,		\
	__u32 access, __u32 range_first, __u32 range_count
#define CHMU_CONFIG_CALL chmu_config_record(memdev, chmu, inst, enabled, mode,		\
	threshold, unit_shift, epoch_us, ds_shift, access, range_first, range_count)

SEC("tp_btf/chmu_config")
int BPF_PROG(config_btf, CHMU_CONFIG_ARGS)
{
	return CHMU_CONFIG_CALL;
}

SEC("raw_tp/chmu_config")
int BPF_PROG(config_raw, CHMU_CONFIG_ARGS)
{
	return CHMU_CONFIG_CALL;
}

#endif
