// SPDX-License-Identifier: GPL-2.0
/*
 * chmu-regs: find CXL Hotness Monitoring Units through the CXL register
 * locator and program them directly from user space (PCI sysfs resource
 * mappings). A bring-up and test tool for the emulated device, usable
 * with or without the kernel driver; it must not be used on an instance
 * the driver is monitoring.
 *
 *   chmu-regs list
 *   chmu-regs [-d BDF] [-b BLOCK] [-i INST] status | dump | drain |
 *             enable [config options] | disable | reset |
 *             read OFFSET | write OFFSET VALUE [WIDTH]
 */
#include <argp.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "lib/chmu.h"
#include "lib/memspec.h"

#define PCI_DEVS "/sys/bus/pci/devices"
#define CXL_VENDOR 0x1e98
#define DVSEC_REG_LOCATOR 8
#define MAX_BLOCKS 16

const char *argp_program_version = "chmu-regs 0.1";

struct block {
	char bdf[256];
	unsigned int bar;
	uint64_t offset;
};

static struct env {
	const char *bdf;
	int block, inst;
	const char *cmd;
	char *args[3];
	int nargs;
	struct chmu_config cfg;
	const char *ranges;
	int timeout_ms;
} env = {
	.cfg = {
		.access = 6, .threshold = 1, .unit_shift = 12, .mode = 0,
		.epoch_us = 100000,
	},
	.ranges = "all",
	.timeout_ms = 2000,
};

enum { OPT_FILL = 1000, OPT_RANDDS, OPT_IRQ, OPT_RANGES, OPT_TIMEOUT };

static const struct argp_option opts[] = {
	{ "device", 'd', "BDF", 0, "PCI device (default: first with a CHMU)", 0 },
	{ "block", 'b', "N", 0, "CHMU block (default 0)", 0 },
	{ "instance", 'i', "N", 0, "Instance in the block (default 0)", 0 },
	{ "access", 'a', "N", 0, "enable: CFG0 request type 1..6 (default 6, RW)", 1 },
	{ "threshold", 't', "N", 0, "enable: hotness threshold (default 1)", 1 },
	{ "unit-shift", 'u', "N", 0, "enable: log2 unit bytes (default 12)", 1 },
	{ "downsample", 's', "N", 0, "enable: count one in 2^N (default 0)", 1 },
	{ "mode", 'm', "MODE", 0, "enable: epoch or always-on (default epoch)", 1 },
	{ "epoch-us", 'e', "US", 0, "enable: epoch length (default 100000)", 1 },
	{ "fill", OPT_FILL, "N", 0, "enable: fill threshold (default 0, off)", 1 },
	{ "rand-ds", OPT_RANDDS, NULL, 0, "enable: randomized down-sampling", 1 },
	{ "irq", OPT_IRQ, NULL, 0, "enable: overflow and fill interrupts", 1 },
	{ "ranges", OPT_RANGES, "MASK", 0, "enable: range bitmap word 0, or all", 1 },
	{ "timeout-ms", OPT_TIMEOUT, "MS", 0, "wait for operations (default 2000)", 1 },
	{ 0 },
};

static unsigned long num(struct argp_state *state, const char *arg)
{
	uint64_t v;

	if (parse_size(arg, &v) || v > 0xffffffffULL)
		argp_error(state, "invalid number '%s'", arg);
	return v;
}

static error_t parse_arg(int key, char *arg, struct argp_state *state)
{
	switch (key) {
	case 'd': env.bdf = arg; break;
	case 'b': env.block = num(state, arg); break;
	case 'i': env.inst = num(state, arg); break;
	case 'a': env.cfg.access = num(state, arg); break;
	case 't': env.cfg.threshold = num(state, arg); break;
	case 'u': env.cfg.unit_shift = num(state, arg); break;
	case 's': env.cfg.ds_shift = num(state, arg); break;
	case 'e': env.cfg.epoch_us = num(state, arg); break;
	case OPT_FILL: env.cfg.fill_threshold = num(state, arg); break;
	case OPT_RANDDS: env.cfg.rand_ds = true; break;
	case OPT_IRQ: env.cfg.ovf_irq = env.cfg.fill_irq = true; break;
	case OPT_RANGES: env.ranges = arg; break;
	case OPT_TIMEOUT: env.timeout_ms = num(state, arg); break;
	case 'm':
		if (!strcmp(arg, "epoch"))
			env.cfg.mode = 0;
		else if (!strcmp(arg, "always-on"))
			env.cfg.mode = 1;
		else
			argp_error(state, "mode must be epoch or always-on");
		break;
	case ARGP_KEY_ARG:
		if (!env.cmd)
			env.cmd = arg;
		else if (env.nargs < 3)
			env.args[env.nargs++] = arg;
		else
			argp_usage(state);
		break;
	case ARGP_KEY_END:
		if (!env.cmd)
			argp_error(state, "no command given");
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

/* Walk the device's extended capabilities for the CXL register locator. */
static int find_blocks(const char *bdf, struct block *out, int max)
{
	char path[512];
	uint8_t cfg[4096];
	ssize_t len;
	int fd, n = 0;
	unsigned int off = 0x100;

	snprintf(path, sizeof(path), PCI_DEVS "/%s/config", bdf);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return 0;
	len = pread(fd, cfg, sizeof(cfg), 0);
	close(fd);
	if (len < 0x104)
		return 0;
	while (off && off + 12 <= (unsigned int)len) {
		uint32_t hdr = *(uint32_t *)&cfg[off];
		uint32_t h1 = *(uint32_t *)&cfg[off + 4];
		uint16_t id = *(uint16_t *)&cfg[off + 8];

		if ((hdr & 0xffff) == 0x23 && (h1 & 0xffff) == CXL_VENDOR &&
		    id == DVSEC_REG_LOCATOR) {
			unsigned int dlen = h1 >> 20;

			for (unsigned int e = 0xc; e + 8 <= dlen && n < max; e += 8) {
				uint32_t lo = *(uint32_t *)&cfg[off + e];
				uint32_t hi = *(uint32_t *)&cfg[off + e + 4];

				if (((lo >> 8) & 0xff) != CHMU_RBI)
					continue;
				snprintf(out[n].bdf, sizeof(out[n].bdf), "%s", bdf);
				out[n].bar = lo & 7;
				out[n].offset = ((uint64_t)hi << 32) | (lo & 0xffff0000);
				n++;
			}
		}
		off = hdr >> 20;
	}
	return n;
}

static int all_blocks(struct block *out, int max)
{
	struct dirent **names;
	int n, total = 0;

	n = scandir(PCI_DEVS, &names, NULL, alphasort);
	if (n < 0)
		return -errno;
	for (int i = 0; i < n; i++) {
		if (names[i]->d_name[0] != '.' && (!env.bdf || !strcmp(env.bdf, names[i]->d_name)))
			total += find_blocks(names[i]->d_name, out + total, max - total);
		free(names[i]);
	}
	free(names);
	return total;
}

struct mapped {
	volatile uint8_t *base;         /* block base */
	void *map;
	size_t map_len;
};

static int map_block(const struct block *b, struct mapped *m)
{
	char path[512];
	long page = sysconf(_SC_PAGESIZE);
	uint64_t start = b->offset & ~(uint64_t)(page - 1);
	size_t len;
	int fd;

	snprintf(path, sizeof(path), PCI_DEVS "/%s/resource%u", b->bdf, b->bar);
	fd = open(path, O_RDWR | O_SYNC);
	if (fd < 0) {
		fprintf(stderr, "chmu-regs: %s: %s\n", path, strerror(errno));
		return -1;
	}
	len = lseek(fd, 0, SEEK_END) - start;
	m->map = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, start);
	close(fd);
	if (m->map == MAP_FAILED) {
		fprintf(stderr, "chmu-regs: mmap %s: %s\n", path, strerror(errno));
		return -1;
	}
	m->map_len = len;
	m->base = (volatile uint8_t *)m->map + (b->offset - start);
	return 0;
}

static uint64_t rd64(volatile uint8_t *p, uint64_t off)
{
	return *(volatile uint64_t *)(p + off);
}

static void wr64(volatile uint8_t *p, uint64_t off, uint64_t v)
{
	*(volatile uint64_t *)(p + off) = v;
}

static void print_caps(volatile uint8_t *inst)
{
	struct chmu_caps c;

	chmu_decode_caps(rd64(inst, CHMU_CAP0), rd64(inst, CHMU_CAP1), &c);
	printf("  hotlist_size=%u msgnum=%u ovf_irq=%d fill_irq=%d epoch_type=%u "
	       "req_types=0x%x epoch_us=%llu..%llu unit_sizes=0x%x ds_factors=0x%x "
	       "epoch=%d always_on=%d rand_ds=%d overlap=%d insert_after_clear=%d "
	       "range_off=0x%llx hotlist_off=0x%llx\n",
	       c.hotlist_size, c.msgnum, c.ovf_irq, c.fill_irq, c.epoch_type,
	       c.req_types, (unsigned long long)c.min_epoch_us,
	       (unsigned long long)c.max_epoch_us, c.unit_sizes, c.ds_factors,
	       c.epoch_mode, c.always_on, c.rand_ds, c.overlap,
	       c.insert_after_clear,
	       (unsigned long long)rd64(inst, CHMU_RANGE_OFF),
	       (unsigned long long)rd64(inst, CHMU_HOTLIST_OFF));
}

static void print_status(volatile uint8_t *inst)
{
	uint64_t st = rd64(inst, CHMU_STATUS);

	printf("enabled=%llu op=%llu counter_width=%llu overflow=%llu fill=%llu "
	       "head=%u tail=%u cfg0=0x%llx cfg1=0x%llx cfg2=0x%llx\n",
	       (unsigned long long)(st & 1), (unsigned long long)((st >> 16) & 0xffff),
	       (unsigned long long)((st >> 32) & 0xff),
	       (unsigned long long)((st >> 40) & 1), (unsigned long long)((st >> 41) & 1),
	       *(volatile uint16_t *)(inst + CHMU_HEAD),
	       *(volatile uint16_t *)(inst + CHMU_TAIL),
	       (unsigned long long)rd64(inst, CHMU_CFG0),
	       (unsigned long long)rd64(inst, CHMU_CFG1),
	       (unsigned long long)rd64(inst, CHMU_CFG2));
}

/* Wait for operation-in-progress to clear. */
static int wait_op(volatile uint8_t *inst)
{
	struct timespec ts = { 0, 1000000 };

	for (int i = 0; i < env.timeout_ms; i++) {
		if (!((rd64(inst, CHMU_STATUS) >> 16) & 0xffff))
			return 0;
		nanosleep(&ts, NULL);
	}
	fprintf(stderr, "chmu-regs: operation still in progress after %d ms\n",
		env.timeout_ms);
	return -1;
}

/* Print entries between head and tail; with @consume, advance head. */
static int drain(volatile uint8_t *inst, bool consume)
{
	struct chmu_caps c;
	unsigned int head, tail, cw, n = 0;
	uint64_t hl = rd64(inst, CHMU_HOTLIST_OFF);

	chmu_decode_caps(rd64(inst, CHMU_CAP0), rd64(inst, CHMU_CAP1), &c);
	cw = (rd64(inst, CHMU_STATUS) >> 32) & 0xff;
	head = *(volatile uint16_t *)(inst + CHMU_HEAD);
	tail = *(volatile uint16_t *)(inst + CHMU_TAIL);
	if (head >= c.hotlist_size || tail >= c.hotlist_size) {
		fprintf(stderr, "chmu-regs: head %u / tail %u outside the hotlist (%u)\n",
			head, tail, c.hotlist_size);
		return -1;
	}
	for (unsigned int i = head; i != tail; i = (i + 1) % c.hotlist_size, n++) {
		uint64_t e = rd64(inst, hl + 8ULL * i);

		printf("entry unit=%llu count=%llu\n",
		       (unsigned long long)chmu_entry_unit(e, cw),
		       (unsigned long long)chmu_entry_count(e, cw));
	}
	printf("entries=%u\n", n);
	if (consume)
		*(volatile uint16_t *)(inst + CHMU_HEAD) = tail;
	return 0;
}

static int do_enable(volatile uint8_t *inst)
{
	struct chmu_caps c;
	uint64_t cfg0, cfg1, cfg2, range_off = rd64(inst, CHMU_RANGE_OFF);
	uint64_t nregs = (rd64(inst, CHMU_HOTLIST_OFF) - range_off) / 8;
	unsigned int cw = (rd64(inst, CHMU_STATUS) >> 32) & 0xff;
	const char *why;

	chmu_decode_caps(rd64(inst, CHMU_CAP0), rd64(inst, CHMU_CAP1), &c);
	if (chmu_encode(&env.cfg, &c, cw, &cfg0, &cfg1, &cfg2, &why)) {
		fprintf(stderr, "chmu-regs: %s\n", why);
		return 1;
	}
	wr64(inst, CHMU_CFG1, cfg1);
	wr64(inst, CHMU_CFG2, cfg2);
	for (uint64_t k = 0; k < nregs; k++) {
		uint64_t v = 0;

		if (!strcmp(env.ranges, "all"))
			v = ~0ULL;
		else if (k == 0)
			v = strtoull(env.ranges, NULL, 0);
		/* Bits for ranges the device lacks read back as zero. */
		wr64(inst, range_off + 8 * k, v);
	}
	wr64(inst, CHMU_CFG0, cfg0);
	wr64(inst, CHMU_CFG0, cfg0 | CHMU_CFG0_ENABLE);
	if (wait_op(inst))
		return 1;
	if (!(rd64(inst, CHMU_STATUS) & CHMU_STATUS_ENABLED)) {
		fprintf(stderr, "chmu-regs: the instance did not enable\n");
		return 1;
	}
	print_status(inst);
	return 0;
}

int main(int argc, char **argv)
{
	static const struct argp argp = {
		.options = opts,
		.parser = parse_arg,
		.args_doc = "COMMAND [ARGS]",
		.doc = "Find and program CXL Hotness Monitoring Units from user space.\v"
		       "Commands: list, status, dump, drain, enable, disable, reset, "
		       "read OFFSET, write OFFSET VALUE [WIDTH 2|4|8]. Offsets are "
		       "relative to the instance.",
	};
	struct block blocks[MAX_BLOCKS];
	struct mapped m = { 0 };
	volatile uint8_t *inst;
	unsigned int ninst, stride;
	int n, err = 0;

	argp_err_exit_status = 1;
	if (argp_parse(&argp, argc, argv, 0, NULL, NULL))
		return 1;
	if (geteuid()) {
		fprintf(stderr, "chmu-regs: must run as root\n");
		return 2;
	}
	n = all_blocks(blocks, MAX_BLOCKS);
	if (n <= 0) {
		fprintf(stderr, "chmu-regs: no CHMU found%s%s\n",
			env.bdf ? " on " : "", env.bdf ? env.bdf : "");
		return 2;
	}
	if (!strcmp(env.cmd, "list")) {
		for (int b = 0; b < n; b++) {
			if (map_block(&blocks[b], &m))
				return 2;
			ninst = (rd64(m.base, 0) >> 8) & 0xff;
			stride = rd64(m.base, 8) & 0xffff;
			printf("%s block=%d bar=%u offset=0x%llx version=%llu instances=%u stride=0x%x\n",
			       blocks[b].bdf, b, blocks[b].bar,
			       (unsigned long long)blocks[b].offset,
			       (unsigned long long)(rd64(m.base, 0) & 0xf), ninst, stride);
			for (unsigned int i = 0; i < ninst; i++) {
				printf(" instance %u:\n", i);
				print_caps(m.base + CHMU_COMMON_SIZE + (uint64_t)i * stride);
			}
			munmap(m.map, m.map_len);
		}
		return 0;
	}
	if (env.block >= n) {
		fprintf(stderr, "chmu-regs: no block %d (%d found)\n", env.block, n);
		return 2;
	}
	if (map_block(&blocks[env.block], &m))
		return 2;
	ninst = (rd64(m.base, 0) >> 8) & 0xff;
	stride = rd64(m.base, 8) & 0xffff;
	if (env.inst >= (int)ninst) {
		fprintf(stderr, "chmu-regs: no instance %d (%u in block)\n", env.inst, ninst);
		err = 2;
		goto out;
	}
	inst = m.base + CHMU_COMMON_SIZE + (uint64_t)env.inst * stride;

	if (!strcmp(env.cmd, "status")) {
		print_status(inst);
	} else if (!strcmp(env.cmd, "dump")) {
		print_status(inst);
		err = drain(inst, false) ? 1 : 0;
	} else if (!strcmp(env.cmd, "drain")) {
		err = drain(inst, true) ? 1 : 0;
	} else if (!strcmp(env.cmd, "enable")) {
		err = do_enable(inst);
	} else if (!strcmp(env.cmd, "disable") || !strcmp(env.cmd, "reset")) {
		uint64_t cfg0 = rd64(inst, CHMU_CFG0);

		wr64(inst, CHMU_CFG0, !strcmp(env.cmd, "disable") ?
		     cfg0 & ~CHMU_CFG0_ENABLE : cfg0 | CHMU_CFG0_RESET);
		err = wait_op(inst) ? 1 : 0;
		print_status(inst);
	} else if (!strcmp(env.cmd, "read") && env.nargs == 1) {
		uint64_t off;

		if (parse_size(env.args[0], &off) || off + 8 > stride) {
			fprintf(stderr, "chmu-regs: bad offset '%s'\n", env.args[0]);
			err = 1;
		} else {
			printf("0x%llx\n", (unsigned long long)rd64(inst, off & ~7ULL));
		}
	} else if (!strcmp(env.cmd, "write") && (env.nargs == 2 || env.nargs == 3)) {
		uint64_t off, val, width = 8;

		if (parse_size(env.args[0], &off) || parse_size(env.args[1], &val) ||
		    (env.nargs == 3 && parse_size(env.args[2], &width)) ||
		    (width != 2 && width != 4 && width != 8) || off % width ||
		    off + width > stride) {
			fprintf(stderr, "chmu-regs: bad write arguments\n");
			err = 1;
		} else if (width == 8) {
			wr64(inst, off, val);
		} else if (width == 4) {
			*(volatile uint32_t *)(inst + off) = val;
		} else {
			*(volatile uint16_t *)(inst + off) = val;
		}
	} else {
		fprintf(stderr, "chmu-regs: unknown command or arguments '%s'\n", env.cmd);
		err = 1;
	}
out:
	munmap(m.map, m.map_len);
	return err;
}
