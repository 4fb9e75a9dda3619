/* SPDX-License-Identifier: GPL-2.0 */
/* libbpf plumbing every CHMU BPF tool shares (linked into them only). */
#ifndef CHMU_BPF_USER_H
#define CHMU_BPF_USER_H

#include <signal.h>
#include <stdbool.h>
#include <bpf/libbpf.h>

/* Set by SIGINT and SIGTERM once chmu_catch_signals() ran. */
extern volatile sig_atomic_t chmu_exiting;

/* libbpf messages on stderr, its debug output only when @verbose. */
void chmu_libbpf_init(bool verbose);
void chmu_catch_signals(void);
/* Keep the tp_btf or the raw_tp program of a pair, not both. */
void chmu_pick_prog(struct bpf_program *btf, struct bpf_program *raw,
		    bool tp_btf);

#endif
