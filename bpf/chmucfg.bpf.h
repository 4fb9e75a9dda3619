/* SPDX-License-Identifier: GPL-2.0 */
/*
 * chmu:chmu_config, kept per instance in chmu_cfgs (struct chmu_cfg,
 * lib/chmuabi.h): the driver emits it whenever an instance is enabled,
 * reconfigured or disabled, so a tool that read the configuration once
 * from sysfs at start learns every change from this map (one lookup per
 * instance) instead of reading a dozen sysfs files per interval. The
 * event's fields are read by name through CO-RE from the driver's BTF
 * (struct trace_event_raw_chmu_config), not by position.
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

SEC("tracepoint/chmu/chmu_config")
int chmu_config_tp(struct trace_event_raw_chmu_config *ctx)
{
	static const struct chmu_cfg zero;
	struct chmu_cfg *c;
	__u32 id;

	id = CHMU_ID(BPF_CORE_READ(ctx, memdev), BPF_CORE_READ(ctx, chmu),
		     BPF_CORE_READ(ctx, inst));
	c = chmu_lookup_init(&chmu_cfgs, &id, &zero);
	if (!c)
		return 0;
	c->enabled = BPF_CORE_READ(ctx, enabled);
	c->mode = BPF_CORE_READ(ctx, mode);
	c->threshold = BPF_CORE_READ(ctx, threshold);
	c->unit_shift = BPF_CORE_READ(ctx, unit_shift);
	c->epoch_us = BPF_CORE_READ(ctx, epoch_us);
	c->ds_shift = BPF_CORE_READ(ctx, ds_shift);
	c->access = BPF_CORE_READ(ctx, access);
	c->range_first = BPF_CORE_READ(ctx, range_first);
	c->range_count = BPF_CORE_READ(ctx, range_count);
	/* the fields first: user space applies a record whose count moved */
	__sync_fetch_and_add(&c->events, 1);
	return 0;
}

#endif
