// SPDX-License-Identifier: GPL-2.0
/* Host unit tests for tools/lib/chmu.c: capability decoding and encoding. */
#include "check.h"
#include "../../tools/lib/chmu.h"

/* The emulated device's capabilities (see tests/guest/chmu-discovery.sh). */
#define CAP0 0x0400001100a53f38ULL
#define CAP1 0x001fffff00ffffffULL

static void test_caps(void)
{
	struct chmu_caps c;

	chmu_decode_caps(CAP0, CAP1, &c);
	CHECK(c.msgnum == 8);
	CHECK(c.ovf_irq && c.fill_irq);
	CHECK(c.epoch_type == 0);
	CHECK(c.req_types == 0x3f);
	CHECK(c.max_epoch_us == 10000000);
	CHECK(c.min_epoch_us == 100);
	CHECK(c.hotlist_size == 1024);
	CHECK(c.unit_sizes == 0xffffff);
	CHECK(c.ds_factors == 0xffff);
	CHECK(c.epoch_mode && c.always_on && c.rand_ds && c.overlap &&
	      c.insert_after_clear);
}

static void test_epoch(void)
{
	unsigned int s, m;

	CHECK(chmu_encode_epoch(100, &s, &m) == 0 && s == 1 && m == 1);
	CHECK(chmu_encode_epoch(2000000, &s, &m) == 0 && s == 2 && m == 2000);
	CHECK(chmu_encode_epoch(409500, &s, &m) == 0 && s == 1 && m == 4095);
	CHECK(chmu_encode_epoch(5000000, &s, &m) == 0 && s == 3 && m == 500);
	CHECK(chmu_encode_epoch(409600, &s, &m) == -1);
	CHECK(chmu_encode_epoch(10000000, &s, &m) == 0 && s == 3 && m == 1000);
	CHECK(chmu_encode_epoch(150, &s, &m) == -1);
	CHECK(chmu_encode_epoch(0, &s, &m) == -1);
	CHECK(chmu_scale_us(5) == 1000000 && chmu_scale_us(6) == 0 && chmu_scale_us(0) == 0);
}

static void test_encode(void)
{
	struct chmu_caps c;
	struct chmu_config cfg = {
		.access = 6, .threshold = 5, .unit_shift = 12, .mode = 0,
		.epoch_us = 2000000, .fill_threshold = 0,
	};
	uint64_t c0, c1, c2;
	const char *why = NULL;

	chmu_decode_caps(CAP0, CAP1, &c);
	CHECK(chmu_encode(&cfg, &c, 32, &c0, &c1, &c2, &why) == 0);
	CHECK(c0 == 0x500000006ULL);
	CHECK(c1 == 0x7d0200000000000cULL);
	CHECK(c2 == 0);

	cfg.mode = 1;
	cfg.rand_ds = true;
	cfg.ovf_irq = cfg.fill_irq = true;
	cfg.ds_shift = 3;
	cfg.fill_threshold = 1023;
	CHECK(chmu_encode(&cfg, &c, 32, &c0, &c1, &c2, &why) == 0);
	CHECK(c0 == 0x500000706ULL);
	CHECK(c1 == 0x1030000000cULL);
	CHECK(c2 == 1023);

#define REJECT(field, value, reason)                                         \
	do {                                                                 \
		struct chmu_config bad = cfg;                                \
		bad.field = value;                                           \
		why = NULL;                                                  \
		CHECK(chmu_encode(&bad, &c, 32, &c0, &c1, &c2, &why) == -1); \
		CHECK(why && !strcmp(why, reason));                          \
	} while (0)
	REJECT(access, 0, "request type must be 1..6");
	REJECT(access, 7, "request type must be 1..6");
	REJECT(threshold, 0, "threshold must be 1..2^counter_width-1");
	REJECT(unit_shift, 7, "unit size not supported");
	REJECT(unit_shift, 32, "unit size not supported");
	REJECT(ds_shift, 16, "down-sampling factor not supported");
	REJECT(mode, 2, "reporting mode not supported");
	REJECT(fill_threshold, 1024, "fill threshold must be below the hotlist size");
	cfg.mode = 0;
	REJECT(epoch_us, 50, "epoch outside the supported range");
	REJECT(epoch_us, 10000100, "epoch outside the supported range");
	REJECT(epoch_us, 150, "epoch not expressible as scale x multiplier");

	/* Counter width bounds the threshold: the RFC's check was inverted. */
	cfg.threshold = 0x10000;
	CHECK(chmu_encode(&cfg, &c, 16, &c0, &c1, &c2, &why) == -1);
	cfg.threshold = 0xffff;
	CHECK(chmu_encode(&cfg, &c, 16, &c0, &c1, &c2, &why) == 0 &&
	      (c0 >> 32) == 0xffff);
	cfg.threshold = 0xffffffff;
	CHECK(chmu_encode(&cfg, &c, 32, &c0, &c1, &c2, &why) == 0);

	/* Capabilities limit what is accepted. */
	c.req_types = 0x07;      /* non-TEE only */
	cfg.access = 4;
	why = NULL;
	CHECK(chmu_encode(&cfg, &c, 32, &c0, &c1, &c2, &why) == -1 &&
	      !strcmp(why, "request type not supported by this instance"));
}

static void test_entries(void)
{
	uint64_t e = (12345ULL << 32) | 678;

	CHECK(chmu_entry_unit(e, 32) == 12345);
	CHECK(chmu_entry_count(e, 32) == 678);
	CHECK(chmu_entry_unit(e, 16) == (e >> 16));
	CHECK(chmu_entry_count(e, 16) == 678);
}

int main(void)
{
	test_caps();
	test_epoch();
	test_encode();
	test_entries();
	return check_report("chmu");
}
