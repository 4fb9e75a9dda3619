// SPDX-License-Identifier: GPL-2.0
#include "chmu.h"

static const uint64_t scale_us[] = { 0, 100, 1000, 10000, 100000, 1000000 };

uint64_t chmu_scale_us(unsigned int scale)
{
	return scale < sizeof(scale_us) / sizeof(scale_us[0]) ? scale_us[scale] : 0;
}

static uint64_t field(uint64_t v, unsigned int shift, unsigned int bits)
{
	return (v >> shift) & ((1ULL << bits) - 1);
}

void chmu_decode_caps(uint64_t cap0, uint64_t cap1, struct chmu_caps *c)
{
	c->msgnum = field(cap0, 0, 4);
	c->ovf_irq = field(cap0, 4, 1);
	c->fill_irq = field(cap0, 5, 1);
	c->epoch_type = field(cap0, 6, 2);
	c->req_types = field(cap0, 8, 8);
	c->max_epoch_us = chmu_scale_us(field(cap0, 16, 4)) * field(cap0, 20, 12);
	c->min_epoch_us = chmu_scale_us(field(cap0, 32, 4)) * field(cap0, 36, 12);
	c->hotlist_size = field(cap0, 48, 16);
	c->unit_sizes = field(cap1, 0, 32);
	c->ds_factors = field(cap1, 32, 16);
	c->epoch_mode = field(cap1, 48, 1);
	c->always_on = field(cap1, 49, 1);
	c->rand_ds = field(cap1, 50, 1);
	c->overlap = field(cap1, 51, 1);
	c->insert_after_clear = field(cap1, 52, 1);
}

int chmu_encode_epoch(uint64_t us, unsigned int *scale, unsigned int *mult)
{
	for (unsigned int s = 1; s <= 5; s++) {
		if (us % scale_us[s] == 0 && us / scale_us[s] >= 1 &&
		    us / scale_us[s] <= 0xfff) {
			*scale = s;
			*mult = us / scale_us[s];
			return 0;
		}
	}
	return -1;
}

int chmu_encode(const struct chmu_config *cfg, const struct chmu_caps *caps,
		unsigned int counter_width, uint64_t *cfg0, uint64_t *cfg1,
		uint64_t *cfg2, const char **why)
{
	unsigned int scale = 0, mult = 0;

	if (cfg->access < 1 || cfg->access > 6) {
		*why = "request type must be 1..6";
		return -1;
	}
	/* Types 1..3 are CAP0 bits 8..10, 4..6 bits 11..13. */
	if (!(caps->req_types & (1u << (cfg->access - 1)))) {
		*why = "request type not supported by this instance";
		return -1;
	}
	if (!cfg->threshold || counter_width < 1 || counter_width > 63 ||
	    cfg->threshold >= (1ULL << counter_width)) {
		*why = "threshold must be 1..2^counter_width-1";
		return -1;
	}
	if (cfg->unit_shift < 8 || cfg->unit_shift > 39 ||
	    !(caps->unit_sizes & (1u << (cfg->unit_shift - 8)))) {
		*why = "unit size not supported";
		return -1;
	}
	if (cfg->ds_shift > 15 || !(caps->ds_factors & (1u << cfg->ds_shift))) {
		*why = "down-sampling factor not supported";
		return -1;
	}
	if (cfg->rand_ds && !caps->rand_ds) {
		*why = "randomized down-sampling not supported";
		return -1;
	}
	if (cfg->mode > 1 || (cfg->mode == 0 && !caps->epoch_mode) ||
	    (cfg->mode == 1 && !caps->always_on)) {
		*why = "reporting mode not supported";
		return -1;
	}
	if (cfg->mode == 0) {
		if (cfg->epoch_us < caps->min_epoch_us ||
		    cfg->epoch_us > caps->max_epoch_us) {
			*why = "epoch outside the supported range";
			return -1;
		}
		if (chmu_encode_epoch(cfg->epoch_us, &scale, &mult)) {
			*why = "epoch not expressible as scale x multiplier";
			return -1;
		}
	}
	if (cfg->fill_threshold >= caps->hotlist_size) {
		*why = "fill threshold must be below the hotlist size";
		return -1;
	}
	*cfg0 = cfg->access | (cfg->rand_ds ? CHMU_CFG0_RAND_DS : 0) |
		(cfg->ovf_irq ? CHMU_CFG0_OVF_INT : 0) |
		(cfg->fill_irq ? CHMU_CFG0_FILL_INT : 0) |
		((uint64_t)cfg->threshold << 32);
	*cfg1 = cfg->unit_shift | ((uint64_t)cfg->ds_shift << 32) |
		((uint64_t)cfg->mode << 40) | ((uint64_t)scale << 48) |
		((uint64_t)mult << 52);
	*cfg2 = cfg->fill_threshold;
	return 0;
}
