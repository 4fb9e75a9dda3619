// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the check the tools run on the driver's tracepoint types
 * before loading programs that read them by name: the driver's layout as
 * it is, the same members in another order (fine: CO-RE finds them by
 * name), and each way a driver can differ from what the programs read.
 */
#include <string.h>
#include <bpf/btf.h>

#include "check.h"
#include "../../tools/lib/chmubtf.h"

struct mem {
	const char *name;
	int type;	/* 0 int, 1 u32, 2 u64, 3 entries pointer, 4 u16 */
};

struct layout {
	const struct mem *batch;
	int nbatch;
	const struct mem *entry;
	int nentry;
	int entry_pad;		/* bytes added at the end of struct chmu_entry */
	const char *entry_name;	/* what the entries pointer points to */
	int bitfield;		/* make chmu_entry.count a 40-bit field */
	int packed;		/* chmu_entry's members without alignment */
};

#define ALIGN(x, a) (((x) + (a) - 1) / (a) * (a))

static const struct mem batch_std[] = {
	{ "memdev", 0 }, { "chmu", 0 }, { "inst", 0 }, { "seq", 2 }, { "nr", 1 },
	{ "head", 1 }, { "tail", 1 }, { "size", 1 }, { "counter_width", 1 },
	{ "unit_shift", 1 }, { "mode", 1 }, { "reason", 1 }, { "overflow", 1 },
	{ "lost", 2 }, { "entries", 3 },
};

static const struct mem entry_std[] = {
	{ "unit", 2 }, { "dpa", 2 }, { "hpa", 2 }, { "count", 2 }, { "nid", 0 },
};

static int msize(int type)
{
	return type == 0 || type == 1 ? 4 : type == 4 ? 2 : 8;
}

/* A BTF with struct chmu_batch and struct chmu_entry laid out as @l says */
static struct btf *make(const struct layout *l)
{
	struct btf *btf = btf__new_empty();
	int t_int, t_u32, t_u64, t_u16, t_target, t_const, t_ptr, t_entry, t_typedef;
	int i, off, ids[5];

	t_int = btf__add_int(btf, "int", 4, BTF_INT_SIGNED);
	t_u32 = btf__add_int(btf, "unsigned int", 4, 0);
	t_u64 = btf__add_int(btf, "long long unsigned int", 8, 0);
	t_u16 = btf__add_int(btf, "short unsigned int", 2, 0);
	t_typedef = btf__add_typedef(btf, "u64", t_u64);	/* as the kernel has it */
	for (off = 0, i = 0; i < l->nentry; i++)
		off = ALIGN(off, l->packed ? 1 : msize(l->entry[i].type)) +
		      msize(l->entry[i].type);
	off = (l->packed ? off : (off + 7) / 8 * 8) + l->entry_pad;
	t_entry = btf__add_struct(btf, "chmu_entry", off);
	for (off = 0, i = 0; i < l->nentry; i++) {
		int bits = l->bitfield && !strcmp(l->entry[i].name, "count") ? 40 : 0;

		ids[0] = t_int; ids[1] = t_u32; ids[2] = t_typedef; ids[4] = t_u16;
		off = ALIGN(off, l->packed ? 1 : msize(l->entry[i].type));
		btf__add_field(btf, l->entry[i].name, ids[l->entry[i].type], off * 8, bits);
		off += msize(l->entry[i].type);
	}
	t_target = t_entry;
	if (strcmp(l->entry_name, "chmu_entry"))
		t_target = btf__add_struct(btf, l->entry_name, 8);
	t_const = btf__add_const(btf, t_target);
	t_ptr = btf__add_ptr(btf, t_const);
	btf__add_struct(btf, "chmu_batch", 128);
	for (off = 0, i = 0; i < l->nbatch; i++) {
		ids[0] = t_int; ids[1] = t_u32; ids[2] = t_typedef; ids[3] = t_ptr;
		ids[4] = t_u16;
		off = (off + msize(l->batch[i].type) - 1) / msize(l->batch[i].type) *
		      msize(l->batch[i].type);
		btf__add_field(btf, l->batch[i].name, ids[l->batch[i].type], off * 8, 0);
		off += msize(l->batch[i].type);
	}
	return btf;
}

static bool ok(const struct layout *l, char *why, size_t len)
{
	struct btf *btf = make(l);
	bool r;

	why[0] = 0;
	r = chmu_btf_types_ok(btf, why, len);
	btf__free(btf);
	return r;
}

#define N(a) ((int)(sizeof(a) / sizeof((a)[0])))

int main(void)
{
	struct layout l = { batch_std, N(batch_std), entry_std, N(entry_std), 0,
			    "chmu_entry", 0, 0 };
	struct mem batch[N(batch_std)], entry[N(entry_std)];
	char why[160];
	int i;

	/* the driver's layout */
	CHECK(ok(&l, why, sizeof(why)));

	/* same members, reversed: read by name, so still fine */
	for (i = 0; i < N(batch_std); i++)
		batch[i] = batch_std[N(batch_std) - 1 - i];
	for (i = 0; i < N(entry_std); i++)
		entry[i] = entry_std[N(entry_std) - 1 - i];
	l.batch = batch;
	l.entry = entry;
	CHECK(ok(&l, why, sizeof(why)));

	/* a member gone (renamed) */
	memcpy(entry, entry_std, sizeof(entry));
	entry[3].name = "cnt";
	CHECK(!ok(&l, why, sizeof(why)));
	CHECK(!strcmp(why, "the driver's struct chmu_entry has no member count"));

	/* a member of another size */
	entry[3].name = "count";
	entry[3].type = 1;
	CHECK(!ok(&l, why, sizeof(why)));
	CHECK(!strcmp(why, "the driver's chmu_entry.count is not an integer of 8 bytes"));
	entry[3].type = 2;
	entry[4].type = 4;
	CHECK(!ok(&l, why, sizeof(why)));
	CHECK(!strcmp(why, "the driver's chmu_entry.nid is not an integer of 4 bytes"));
	entry[4].type = 0;
	memcpy(batch, batch_std, sizeof(batch));
	batch[3].type = 1;	/* seq */
	CHECK(!ok(&l, why, sizeof(why)));
	CHECK(!strcmp(why, "the driver's chmu_batch.seq is not an integer of 8 bytes"));
	batch[3].type = 2;

	/* nid first: aligned by the compiler, fine; packed, the u64s are not */
	entry[0] = entry_std[4];
	entry[1] = entry_std[0];
	entry[2] = entry_std[1];
	entry[3] = entry_std[2];
	entry[4] = entry_std[3];
	CHECK(ok(&l, why, sizeof(why)));
	l.packed = 1;
	CHECK(!ok(&l, why, sizeof(why)));
	CHECK(!strcmp(why, "the driver's chmu_entry.unit is not aligned to its size"));
	l.packed = 0;
	memcpy(entry, entry_std, sizeof(entry));
	/* __packed as declared: the members aligned, 36 bytes in all */
	l.packed = 1;
	CHECK(!ok(&l, why, sizeof(why)));
	CHECK(!strcmp(why, "the driver's struct chmu_entry is 36 bytes, not a multiple of 8"));
	l.packed = 0;

	/* a bit field */
	l.bitfield = 1;
	CHECK(!ok(&l, why, sizeof(why)));
	CHECK(!strcmp(why, "the driver's chmu_entry.count is a bit field"));
	l.bitfield = 0;

	/* a driver older than the batch path: no entries */
	l.nbatch = N(batch_std) - 1;
	CHECK(!ok(&l, why, sizeof(why)));
	CHECK(!strcmp(why, "the driver's struct chmu_batch has no member entries"));
	l.nbatch = N(batch_std);

	/* no unit_shift, which the programs that attribute read */
	batch[9].name = "unit_bits";
	CHECK(!ok(&l, why, sizeof(why)));
	CHECK(!strcmp(why, "the driver's struct chmu_batch has no member unit_shift"));
	batch[9].name = "unit_shift";
	batch[9].type = 2;
	CHECK(!ok(&l, why, sizeof(why)));
	CHECK(!strcmp(why, "the driver's chmu_batch.unit_shift is not an integer of 4 bytes"));
	batch[9].type = 1;

	/* entries of another type */
	batch[N(batch_std) - 1].type = 2;
	CHECK(!ok(&l, why, sizeof(why)));
	CHECK(!strcmp(why, "the driver's chmu_batch.entries is not a pointer to struct chmu_entry"));
	batch[N(batch_std) - 1].type = 3;
	l.entry_name = "chmu_other";
	CHECK(!ok(&l, why, sizeof(why)));
	CHECK(!strcmp(why, "the driver's chmu_batch.entries is not a pointer to struct chmu_entry"));
	l.entry_name = "chmu_entry";

	/* an entry larger than the programs' buffer */
	l.entry_pad = 32;
	CHECK(!ok(&l, why, sizeof(why)));
	CHECK(!strcmp(why, "the driver's struct chmu_entry is 72 bytes, more than the 64 the tools read"));
	l.entry_pad = 24;
	CHECK(ok(&l, why, sizeof(why)));	/* 64: fits */
	l.entry_pad = 0;

	/* everything as it was: fine again */
	CHECK(ok(&l, why, sizeof(why)));
	return check_report("test_btf");
}
