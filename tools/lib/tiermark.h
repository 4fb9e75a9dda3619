/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The marker qemu/plugins/tiermem.c watches for: an 8-byte no-op
 * (nopl 0x43484d55(%rax,%rax,1)) with a command in %rdi and a tag in
 * %rsi. Under QEMU with the plugin loaded it resets (TIERMARK_RESET) or
 * dumps (TIERMARK_DUMP) the plugin's counts of the guest's accesses by
 * tier; anywhere else it does nothing.
 */
#ifndef CHMU_TIERMARK_H
#define CHMU_TIERMARK_H

#include <stdint.h>

enum { TIERMARK_RESET = 1, TIERMARK_DUMP = 2 };

static inline void tiermark(uint64_t cmd, uint64_t tag)
{
#if defined(__x86_64__)
	__asm__ volatile(".byte 0x0f, 0x1f, 0x84, 0x00, 0x55, 0x4d, 0x48, 0x43"
			 : : "D"(cmd), "S"(tag) : "memory");
#else
	(void)cmd;
	(void)tag;
#endif
}

#endif
