// SPDX-License-Identifier: GPL-2.0
#include <stdarg.h>
#include <stdio.h>

#include "chmubpf.h"

volatile sig_atomic_t chmu_exiting;
static bool libbpf_verbose;

static void on_signal(int sig)
{
	(void)sig;
	chmu_exiting = 1;
}

static int libbpf_print(enum libbpf_print_level level, const char *fmt,
			va_list args)
{
	if (level == LIBBPF_DEBUG && !libbpf_verbose)
		return 0;
	return vfprintf(stderr, fmt, args);
}

void chmu_libbpf_init(bool verbose)
{
	libbpf_verbose = verbose;
	libbpf_set_print(libbpf_print);
}

void chmu_catch_signals(void)
{
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
}

void chmu_pick_prog(struct bpf_program *btf, struct bpf_program *raw,
		    bool tp_btf)
{
	bpf_program__set_autoload(tp_btf ? raw : btf, false);
}
