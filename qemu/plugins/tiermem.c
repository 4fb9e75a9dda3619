// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * tiermem: a TCG plugin that counts the guest's memory accesses by where
 * they land, an instrument independent of the CHMU under test.
 *
 * Every load and store the guest executes is classed by the memory behind
 * its guest-physical address: "ram" (guest RAM: node 0's DRAM in the lab),
 * "cxl" (a CXL fixed memory window, whatever region is mapped there) or
 * "mmio" (any other device), and by the mode it ran in: "user" (a
 * lower-half virtual address) or "kernel". Counts are kept per vCPU, with
 * the instructions each vCPU executed, and per 256 MiB chunk of CXL
 * windows. With pages=on, accesses from user mode are also counted per
 * 4 KiB guest-physical page, both tiers (to compute the best placement of
 * a run whose pages do not move, such as a run without promotion).
 *
 * The guest asks for a reset or a dump by executing a marker: the 8-byte
 * no-op "nopl 0x43484d55(%rax,%rax,1)" (0f 1f 84 00 55 4d 48 43) with the
 * command in %rdi (1: reset every counter, 2: dump) and a tag in %rsi.
 * Without the plugin the marker is a no-op. A dump appends to out=FILE:
 *
 *   tiermem dump tag=T vcpus=N
 *   tiermem tag=T vcpu=V insns=N
 *   tiermem tag=T vcpu=V mode=user|kernel class=ram|cxl|mmio loads=N stores=N
 *   tiermem tag=T vcpu=V unresolved=N              (no physical address)
 *   tiermem tag=T chunk=0xADDR user_loads=N user_stores=N kernel_loads=N kernel_stores=N
 *   tiermem tag=T page=0xADDR accesses=N          (pages=on; pages touched)
 *   tiermem end tag=T
 *
 * A line per vCPU, mode and class that saw an access; chunks and pages
 * likewise. Counters are read while the other vCPUs run: a dump is
 * exact for accesses that ended before the marker on every vCPU (the
 * lab's runs stop their workload first). Instructions are counted per
 * translation block as it starts, so the count around a marker is
 * within a block of exact. Counts are per vCPU, not per process: what
 * else runs on a vCPU meanwhile counts too (pin a workload to a vCPU of
 * its own to see it alone). tools/chmu-workload.c's "mark"
 * command executes the marker; qemu/run-guest.sh loads the plugin with
 * TIERMEM=FILE.
 */
#include <errno.h>
#include <glib.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <qemu-plugin.h>

QEMU_PLUGIN_EXPORT int qemu_plugin_version = QEMU_PLUGIN_VERSION;

enum { MODE_USER, MODE_KERNEL, MODE_NR };
enum { CLASS_RAM, CLASS_CXL, CLASS_MMIO, CLASS_NR };
static const char *const mode_name[MODE_NR] = { "user", "kernel" };
static const char *const class_name[CLASS_NR] = { "ram", "cxl", "mmio" };

#define MARKER_LEN 8
static const uint8_t marker[MARKER_LEN] = {
	0x0f, 0x1f, 0x84, 0x00, 0x55, 0x4d, 0x48, 0x43
};
enum { CMD_RESET = 1, CMD_DUMP = 2 };

/*
 * One vCPU's counters. Only the vCPU itself writes them (the inline
 * instruction count and vcpu_mem's increments are not atomic): a reset
 * takes a copy as the baseline a dump subtracts, never writes them.
 */
struct vcpu_count {
	uint64_t insns;
	uint64_t acc[MODE_NR][CLASS_NR][2];	/* [mode][class][store] */
	uint64_t unresolved;			/* no physical address */
};

/* Guest-physical chunks of 256 MiB: CXL windows' totals, and pages */
#define CHUNK_SHIFT 28
#define CHUNK_PAGES (1u << (CHUNK_SHIFT - 12))
#define NR_CHUNKS 4096			/* 1 TiB of guest-physical space */
struct chunk {
	uint64_t acc[MODE_NR][2];		/* CXL accesses */
	uint64_t *pages;			/* pages=on: user accesses per page */
};
/*
 * Whether an I/O access in a chunk is to a CXL window: windows are whole
 * 256 MiB chunks (sized and aligned so by the machine), so the region's
 * name is looked up once per chunk, not per access (GLib's interned
 * strings take a global lock)
 */
enum { IO_UNKNOWN, IO_CXL, IO_OTHER };
static uint8_t chunk_io[NR_CHUNKS];

static struct qemu_plugin_scoreboard *counts, *base;
static struct chunk *chunks[NR_CHUNKS];
static GMutex lock;			/* chunk allocation, dumps */
static FILE *out;
static bool per_page;
static const char *cxl_name;		/* the CXL windows' region name */
static struct qemu_plugin_register *reg_rdi, *reg_rsi;
static uint64_t dropped;		/* accesses beyond NR_CHUNKS */

static struct chunk *chunk_of(uint64_t pa)
{
	uint64_t i = pa >> CHUNK_SHIFT;
	struct chunk *c;

	if (i >= NR_CHUNKS)
		return NULL;
	c = __atomic_load_n(&chunks[i], __ATOMIC_ACQUIRE);
	if (c)
		return c;
	g_mutex_lock(&lock);
	c = chunks[i];
	if (!c) {
		c = g_new0(struct chunk, 1);
		if (per_page)
			c->pages = g_new0(uint64_t, CHUNK_PAGES);
		__atomic_store_n(&chunks[i], c, __ATOMIC_RELEASE);
	}
	g_mutex_unlock(&lock);
	return c;
}

static int io_class(struct qemu_plugin_hwaddr *hw, uint64_t pa)
{
	uint64_t i = pa >> CHUNK_SHIFT;
	uint8_t k = i < NR_CHUNKS ? __atomic_load_n(&chunk_io[i], __ATOMIC_RELAXED) : IO_UNKNOWN;

	if (k == IO_UNKNOWN) {
		k = qemu_plugin_hwaddr_device_name(hw) == cxl_name ? IO_CXL : IO_OTHER;
		if (i < NR_CHUNKS)
			__atomic_store_n(&chunk_io[i], k, __ATOMIC_RELAXED);
	}
	return k == IO_CXL ? CLASS_CXL : CLASS_MMIO;
}

static void vcpu_mem(unsigned int vcpu, qemu_plugin_meminfo_t info,
		     uint64_t vaddr, void *udata)
{
	struct vcpu_count *v = qemu_plugin_scoreboard_find(counts, vcpu);
	struct qemu_plugin_hwaddr *hw = qemu_plugin_get_hwaddr(info, vaddr);
	int mode = (int64_t)vaddr < 0 ? MODE_KERNEL : MODE_USER;
	int store = qemu_plugin_mem_is_store(info);
	int class = CLASS_RAM;
	struct chunk *c = NULL;
	uint64_t pa;

	if (!hw) {
		v->unresolved++;
		return;
	}
	pa = qemu_plugin_hwaddr_phys_addr(hw);
	if (qemu_plugin_hwaddr_is_io(hw))
		class = io_class(hw, pa);
	v->acc[mode][class][store]++;
	if (class == CLASS_MMIO || (class == CLASS_RAM && !per_page))
		return;
	if (class == CLASS_RAM && mode == MODE_KERNEL)
		return;
	c = chunk_of(pa);
	if (!c) {
		__atomic_fetch_add(&dropped, 1, __ATOMIC_RELAXED);
		return;
	}
	if (class == CLASS_CXL)
		__atomic_fetch_add(&c->acc[mode][store], 1, __ATOMIC_RELAXED);
	if (c->pages && mode == MODE_USER)
		__atomic_fetch_add(&c->pages[(pa >> 12) & (CHUNK_PAGES - 1)], 1,
				   __ATOMIC_RELAXED);
}

static void reset(void)
{
	int i, n = qemu_plugin_num_vcpus();

	/* each vCPU's counts now are the baseline (a racy copy: see vcpu_count) */
	for (i = 0; i < n; i++)
		memcpy(qemu_plugin_scoreboard_find(base, i),
		       qemu_plugin_scoreboard_find(counts, i), sizeof(struct vcpu_count));
	for (i = 0; i < NR_CHUNKS; i++) {
		struct chunk *c = chunks[i];

		if (!c)
			continue;
		memset(c->acc, 0, sizeof(c->acc));
		if (c->pages)
			memset(c->pages, 0, CHUNK_PAGES * sizeof(*c->pages));
	}
	__atomic_store_n(&dropped, 0, __ATOMIC_RELAXED);
}

static void dump(uint64_t tag)
{
	int i, m, k, n = qemu_plugin_num_vcpus();
	uint32_t p;

	fprintf(out, "tiermem dump tag=%" PRIu64 " vcpus=%d\n", tag, n);
	for (i = 0; i < n; i++) {
		struct vcpu_count v = *(struct vcpu_count *)qemu_plugin_scoreboard_find(counts, i);
		struct vcpu_count *b = qemu_plugin_scoreboard_find(base, i);

		fprintf(out, "tiermem tag=%" PRIu64 " vcpu=%d insns=%" PRIu64 "\n",
			tag, i, v.insns - b->insns);
		for (m = 0; m < MODE_NR; m++)
			for (k = 0; k < CLASS_NR; k++) {
				uint64_t ld = v.acc[m][k][0] - b->acc[m][k][0];
				uint64_t st = v.acc[m][k][1] - b->acc[m][k][1];

				if (!ld && !st)
					continue;
				fprintf(out, "tiermem tag=%" PRIu64 " vcpu=%d mode=%s class=%s loads=%" PRIu64 " stores=%" PRIu64 "\n",
					tag, i, mode_name[m], class_name[k], ld, st);
			}
		if (v.unresolved != b->unresolved)
			fprintf(out, "tiermem tag=%" PRIu64 " vcpu=%d unresolved=%" PRIu64 "\n",
				tag, i, v.unresolved - b->unresolved);
	}
	for (i = 0; i < NR_CHUNKS; i++) {
		struct chunk *c = chunks[i];
		uint64_t base = (uint64_t)i << CHUNK_SHIFT;

		if (!c)
			continue;
		if (c->acc[0][0] || c->acc[0][1] || c->acc[1][0] || c->acc[1][1])
			fprintf(out, "tiermem tag=%" PRIu64 " chunk=0x%" PRIx64 " user_loads=%" PRIu64 " user_stores=%" PRIu64 " kernel_loads=%" PRIu64 " kernel_stores=%" PRIu64 "\n",
				tag, base, c->acc[0][0], c->acc[0][1],
				c->acc[1][0], c->acc[1][1]);
		for (p = 0; c->pages && p < CHUNK_PAGES; p++)
			if (c->pages[p])
				fprintf(out, "tiermem tag=%" PRIu64 " page=0x%" PRIx64 " accesses=%" PRIu64 "\n",
					tag, base + ((uint64_t)p << 12), c->pages[p]);
	}
	if (dropped)
		fprintf(out, "tiermem tag=%" PRIu64 " beyond_1TiB=%" PRIu64 "\n",
			tag, dropped);
	fprintf(out, "tiermem end tag=%" PRIu64 "\n", tag);
	fflush(out);
}

static uint64_t read_reg(struct qemu_plugin_register *r)
{
	g_autoptr(GByteArray) buf = g_byte_array_new();
	uint64_t v = 0;

	if (qemu_plugin_read_register(r, buf) == 8)
		memcpy(&v, buf->data, 8);	/* x86: little-endian, as the host */
	return v;
}

static void vcpu_marker(unsigned int vcpu, void *udata)
{
	uint64_t cmd = read_reg(reg_rdi), tag = read_reg(reg_rsi);

	g_mutex_lock(&lock);
	if (!out) {
		g_mutex_unlock(&lock);
		return;
	}
	if (cmd == CMD_RESET)
		reset();
	else if (cmd == CMD_DUMP)
		dump(tag);
	else
		fprintf(out, "tiermem unknown command %" PRIu64 " tag=%" PRIu64 "\n",
			cmd, tag);
	g_mutex_unlock(&lock);
}

static void vcpu_tb_trans(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	size_t i, n = qemu_plugin_tb_n_insns(tb);
	qemu_plugin_u64 insns = qemu_plugin_scoreboard_u64_in_struct(
		counts, struct vcpu_count, insns);

	qemu_plugin_register_vcpu_tb_exec_inline_per_vcpu(
		tb, QEMU_PLUGIN_INLINE_ADD_U64, insns, n);
	for (i = 0; i < n; i++) {
		struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
		uint8_t b[MARKER_LEN];

		qemu_plugin_register_vcpu_mem_cb(insn, vcpu_mem,
						 QEMU_PLUGIN_CB_NO_REGS,
						 QEMU_PLUGIN_MEM_RW, NULL);
		if (reg_rdi && reg_rsi &&
		    qemu_plugin_insn_size(insn) == MARKER_LEN &&
		    qemu_plugin_insn_data(insn, b, MARKER_LEN) == MARKER_LEN &&
		    !memcmp(b, marker, MARKER_LEN))
			qemu_plugin_register_vcpu_insn_exec_cb(
				insn, vcpu_marker, QEMU_PLUGIN_CB_R_REGS, NULL);
	}
}

static void vcpu_init(qemu_plugin_id_t id, unsigned int vcpu)
{
	g_autoptr(GArray) regs = qemu_plugin_get_registers();
	guint i;

	for (i = 0; i < regs->len; i++) {
		qemu_plugin_reg_descriptor *d =
			&g_array_index(regs, qemu_plugin_reg_descriptor, i);

		if (!strcmp(d->name, "rdi"))
			reg_rdi = d->handle;
		else if (!strcmp(d->name, "rsi"))
			reg_rsi = d->handle;
	}
}

static void at_exit(qemu_plugin_id_t id, void *p)
{
	g_mutex_lock(&lock);
	if (out)
		fclose(out);
	out = NULL;
	g_mutex_unlock(&lock);
}

QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id,
					   const qemu_info_t *info,
					   int argc, char **argv)
{
	const char *path = NULL;
	int i;

	if (strcmp(info->target_name, "x86_64")) {
		fprintf(stderr, "tiermem: x86_64 guests only, not %s\n",
			info->target_name);
		return -1;
	}
	for (i = 0; i < argc; i++) {
		char *eq = strchr(argv[i], '=');

		if (eq && !strncmp(argv[i], "out=", 4)) {
			path = eq + 1;
		} else if (eq && !strncmp(argv[i], "pages=", 6)) {
			if (!qemu_plugin_bool_parse("pages", eq + 1, &per_page)) {
				fprintf(stderr, "tiermem: pages=on|off, not '%s'\n", eq + 1);
				return -1;
			}
		} else {
			fprintf(stderr, "tiermem: unknown argument '%s' (out=FILE, pages=on|off)\n",
				argv[i]);
			return -1;
		}
	}
	if (!path) {
		fprintf(stderr, "tiermem: out=FILE is required\n");
		return -1;
	}
	out = fopen(path, "a");
	if (!out) {
		fprintf(stderr, "tiermem: cannot open %s: %s\n", path, g_strerror(errno));
		return -1;
	}
	cxl_name = g_intern_static_string("cxl-fixed-memory-region");
	counts = qemu_plugin_scoreboard_new(sizeof(struct vcpu_count));
	base = qemu_plugin_scoreboard_new(sizeof(struct vcpu_count));
	qemu_plugin_register_vcpu_init_cb(id, vcpu_init);
	qemu_plugin_register_vcpu_tb_trans_cb(id, vcpu_tb_trans);
	qemu_plugin_register_atexit_cb(id, at_exit, NULL);
	return 0;
}
