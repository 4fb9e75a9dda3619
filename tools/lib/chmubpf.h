/* SPDX-License-Identifier: GPL-2.0 */
/* libbpf plumbing every CHMU BPF tool shares (linked into them only). */
#ifndef CHMU_BPF_USER_H
#define CHMU_BPF_USER_H

#include <signal.h>
#include <stdbool.h>
#include <bpf/libbpf.h>

/*
 * Set by SIGINT, SIGTERM and SIGHUP once chmu_catch_signals() ran, and by
 * chmu_output_broken(). Tools call chmu_catch_signals() before chmu_open()
 * (which may enable instances), so that every way out goes through their
 * cleanup and chmu_close() restores what --enable changed.
 */
extern volatile sig_atomic_t chmu_exiting;

/* libbpf messages on stderr, its debug output only when @verbose. */
void chmu_libbpf_init(bool verbose);
/* The signals above end the run; SIGPIPE is ignored (see below). */
void chmu_catch_signals(void);
/*
 * Flush @f; if its reader is gone (EPIPE: "tool | head") or writing
 * failed otherwise, end the run (chmu_exiting) and return true. Other
 * errors than EPIPE are reported on stderr as "TOOL: writing the output:
 * reason".
 */
bool chmu_output_broken(const char *tool, FILE *f);
/* Keep the tp_btf or the raw_tp program of a pair, not both. */
void chmu_pick_prog(struct bpf_program *btf, struct bpf_program *raw,
		    bool tp_btf);

#endif
