// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

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
	/* SA_RESTART: a signal during start-up must not fail a bpf() call */
	struct sigaction sa = { .sa_handler = on_signal, .sa_flags = SA_RESTART };
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP };
	unsigned int i;

	sigemptyset(&sa.sa_mask);
	for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		sigaction(sigs[i], &sa, NULL);
	/* A closed pipe is a write error the run ends on, not a death */
	signal(SIGPIPE, SIG_IGN);
}

bool chmu_output_broken(const char *tool, FILE *f)
{
	int failed;

	errno = 0;
	failed = fflush(f);
	if (!failed && !ferror(f))
		return false;
	/* an earlier write failed (errno gone by now): a closed pipe, mostly */
	if (failed && errno && errno != EPIPE)
		fprintf(stderr, "%s: writing the output: %s\n", tool, strerror(errno));
	chmu_exiting = 1;
	return true;
}

void chmu_pick_prog(struct bpf_program *btf, struct bpf_program *raw,
		    bool tp_btf)
{
	bpf_program__set_autoload(tp_btf ? raw : btf, false);
}
