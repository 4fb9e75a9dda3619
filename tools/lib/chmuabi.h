/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the BPF programs (bpf/chmu.bpf.h) and the user-space check of the
 * driver's types (chmubtf.c) must agree on. Plain defines: both include it.
 */
#ifndef CHMU_ABI_H
#define CHMU_ABI_H

/* The largest struct chmu_entry the programs take; a multiple of 8 */
#define CHMU_ENTRY_MAX_SIZE 64

#endif
