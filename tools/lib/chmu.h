/* SPDX-License-Identifier: GPL-2.0 */
/*
 * CHMU register encodings (CXL r3.2 8.2.8), shared by the user-space
 * tools: capability decoding, configuration encoding, hotlist entries.
 */
#ifndef CHMU_REGS_H
#define CHMU_REGS_H

#include <stdbool.h>
#include <stdint.h>

#define CHMU_RBI                5       /* register locator block id */
#define CHMU_COMMON_SIZE        0x10
#define CHMU_CAP0               0x00
#define CHMU_CAP1               0x08
#define CHMU_RANGE_OFF          0x10
#define CHMU_HOTLIST_OFF        0x18
#define CHMU_CFG0               0x40
#define CHMU_CFG1               0x48
#define CHMU_CFG2               0x50
#define CHMU_STATUS             0x60
#define CHMU_HEAD               0x68
#define CHMU_TAIL               0x6a
#define CHMU_RANGE_SHIFT        28      /* 256 MiB per bitmap bit */

#define CHMU_CFG0_RAND_DS       (1ULL << 8)
#define CHMU_CFG0_OVF_INT       (1ULL << 9)
#define CHMU_CFG0_FILL_INT      (1ULL << 10)
#define CHMU_CFG0_ENABLE        (1ULL << 16)
#define CHMU_CFG0_RESET         (1ULL << 17)
#define CHMU_STATUS_ENABLED     (1ULL << 0)
#define CHMU_STATUS_OVF         (1ULL << 40)
#define CHMU_STATUS_FILL        (1ULL << 41)

struct chmu_caps {
	unsigned int msgnum;
	bool ovf_irq, fill_irq;
	unsigned int epoch_type;
	unsigned int req_types;         /* CAP0[15:8] mask */
	uint64_t max_epoch_us, min_epoch_us;
	unsigned int hotlist_size;
	uint32_t unit_sizes;            /* bit N: 256 B << N */
	uint16_t ds_factors;            /* bit N: 2^N */
	bool epoch_mode, always_on, rand_ds, overlap, insert_after_clear;
};

struct chmu_config {
	unsigned int access;            /* CFG0 request type, 1..6 */
	bool rand_ds, ovf_irq, fill_irq;
	uint32_t threshold;
	unsigned int unit_shift;        /* log2 bytes */
	unsigned int ds_shift;
	unsigned int mode;              /* 0 epoch, 1 always-on */
	uint64_t epoch_us;
	unsigned int fill_threshold;
};

void chmu_decode_caps(uint64_t cap0, uint64_t cap1, struct chmu_caps *c);

/* Epoch scale codes: 1 = 100 us ... 5 = 1 s; 0 when not a valid scale. */
uint64_t chmu_scale_us(unsigned int scale);

/*
 * chmu_encode_epoch() - the (scale, multiplier) pair for @us, using the
 * finest scale whose 12-bit multiplier can express it exactly.
 * Returns 0, or -1 when no pair gives exactly @us.
 */
int chmu_encode_epoch(uint64_t us, unsigned int *scale, unsigned int *mult);

/*
 * chmu_encode() - CFG0 (without enable), CFG1 and CFG2 for @cfg.
 * Returns 0, or -1 with a reason in @why when @cfg does not fit @caps or
 * @counter_width.
 */
int chmu_encode(const struct chmu_config *cfg, const struct chmu_caps *caps,
		unsigned int counter_width, uint64_t *cfg0, uint64_t *cfg1,
		uint64_t *cfg2, const char **why);

static inline uint64_t chmu_entry_unit(uint64_t e, unsigned int cw)
{
	return cw >= 64 ? 0 : e >> cw;
}

static inline uint64_t chmu_entry_count(uint64_t e, unsigned int cw)
{
	return cw >= 64 ? e : e & ((1ULL << cw) - 1);
}

#endif
