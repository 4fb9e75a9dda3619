/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Do the driver's tracepoint types read the way the tools' BPF programs
 * read them? Pure logic over a struct btf, unit-tested on the host.
 */
#ifndef CHMU_BTF_H
#define CHMU_BTF_H

#include <stdbool.h>
#include <stddef.h>
#include <bpf/btf.h>

#include "chmuabi.h"

/*
 * Check @btf (the cxl_hmu module's BTF on the kernel's) for what the
 * programs read through CO-RE: struct chmu_batch with memdev, chmu, inst,
 * nr, size, overflow, unit_shift (4-byte integers), seq and lost (8-byte
 * integers) and
 * entries, a pointer to struct chmu_entry; struct chmu_entry with unit,
 * dpa, hpa, count (8-byte integers) and nid (a 4-byte integer), each
 * aligned to its size, the whole at most CHMU_ENTRY_MAX_SIZE bytes and a
 * multiple of 8 (the programs copy entries back to back and load from the
 * copy). Members are found by name, in any order
 * (CO-RE relocates their offsets). On a mismatch, write one line saying
 * what differs to @why and return false.
 */
bool chmu_btf_types_ok(const struct btf *btf, char *why, size_t len);

#endif
