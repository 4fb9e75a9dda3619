// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>
#include <string.h>
#include <linux/btf.h>
#include <bpf/btf.h>

#include "chmubtf.h"

struct want {
	const char *name;
	unsigned int size;	/* bytes of an integer; 0: the entries pointer */
};

static const struct want batch_members[] = {
	{ "memdev", 4 }, { "chmu", 4 }, { "inst", 4 }, { "seq", 8 },
	{ "nr", 4 }, { "size", 4 }, { "overflow", 4 }, { "lost", 8 },
	{ "unit_shift", 4 },	/* the attributing walks: a unit's bytes */
	{ "entries", 0 },
};

static const struct want entry_members[] = {
	{ "unit", 8 }, { "dpa", 8 }, { "hpa", 8 }, { "count", 8 }, { "nid", 4 },
};

/* @id past typedefs and qualifiers */
static const struct btf_type *strip(const struct btf *btf, __u32 id, __u32 *out)
{
	const struct btf_type *t = btf__type_by_id(btf, id);

	while (t && (btf_is_typedef(t) || btf_is_const(t) || btf_is_volatile(t) ||
		     btf_is_restrict(t))) {
		id = t->type;
		t = btf__type_by_id(btf, id);
	}
	if (out)
		*out = id;
	return t;
}

static const struct btf_type *find_struct(const struct btf *btf, const char *name,
					  char *why, size_t len)
{
	__s32 id = btf__find_by_name_kind(btf, name, BTF_KIND_STRUCT);

	if (id <= 0) {
		snprintf(why, len, "the driver's BTF has no struct %s", name);
		return NULL;
	}
	return btf__type_by_id(btf, id);
}

static const struct btf_member *find_member(const struct btf *btf,
					    const struct btf_type *s,
					    const char *name)
{
	const struct btf_member *m = btf_members(s);
	unsigned short i;

	for (i = 0; i < btf_vlen(s); i++, m++) {
		const char *n = btf__name_by_offset(btf, m->name_off);

		if (n && !strcmp(n, name))
			return m;
	}
	return NULL;
}

static bool members_ok(const struct btf *btf, const char *sname,
		       const struct want *w, size_t nw, const struct btf_type **entry,
		       char *why, size_t len)
{
	const struct btf_type *s = find_struct(btf, sname, why, len), *t;
	size_t i;

	if (!s)
		return false;
	for (i = 0; i < nw; i++) {
		const struct btf_member *m = find_member(btf, s, w[i].name);

		if (!m) {
			snprintf(why, len, "the driver's struct %s has no member %s", sname,
				 w[i].name);
			return false;
		}
		if (btf_member_bitfield_size(s, m - btf_members(s)) ||
		    btf_member_bit_offset(s, m - btf_members(s)) % 8) {
			snprintf(why, len, "the driver's %s.%s is a bit field", sname, w[i].name);
			return false;
		}
		t = strip(btf, m->type, NULL);
		if (!w[i].size) {
			__u32 id;

			t = t && btf_is_ptr(t) ? strip(btf, t->type, &id) : NULL;
			if (!t || !btf_is_struct(t) ||
			    strcmp(btf__name_by_offset(btf, t->name_off), "chmu_entry")) {
				snprintf(why, len, "the driver's %s.%s is not a pointer to struct chmu_entry",
					 sname, w[i].name);
				return false;
			}
			*entry = t;
			continue;
		}
		if (!t || !btf_is_int(t) || t->size != w[i].size) {
			snprintf(why, len, "the driver's %s.%s is not an integer of %u bytes", sname,
				 w[i].name, w[i].size);
			return false;
		}
		/* the programs load entry fields from a copy, aligned */
		if (btf_member_bit_offset(s, m - btf_members(s)) / 8 % w[i].size) {
			snprintf(why, len, "the driver's %s.%s is not aligned to its size", sname,
				 w[i].name);
			return false;
		}
	}
	return true;
}

bool chmu_btf_types_ok(const struct btf *btf, char *why, size_t len)
{
	const struct btf_type *entry = NULL;

	if (!members_ok(btf, "chmu_batch", batch_members,
			sizeof(batch_members) / sizeof(batch_members[0]), &entry, why, len))
		return false;
	if (!members_ok(btf, "chmu_entry", entry_members,
			sizeof(entry_members) / sizeof(entry_members[0]), NULL, why, len))
		return false;
	if (entry->size > CHMU_ENTRY_MAX_SIZE) {
		snprintf(why, len, "the driver's struct chmu_entry is %u bytes, more than the %d the tools read",
			 entry->size, CHMU_ENTRY_MAX_SIZE);
		return false;
	}
	if (entry->size % 8) {
		snprintf(why, len, "the driver's struct chmu_entry is %u bytes, not a multiple of 8",
			 entry->size);
		return false;
	}
	return true;
}
