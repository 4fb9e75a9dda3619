// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/bpf.h>
#include <linux/capability.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>

#include "chmubpf.h"
#include "chmubtf.h"

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

#ifndef CAP_PERFMON
#define CAP_PERFMON 38
#endif
#ifndef CAP_BPF
#define CAP_BPF 39
#endif

static bool have_cap(int cap)
{
	struct __user_cap_header_struct h = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct d[2] = {};

	if (syscall(SYS_capget, &h, d))
		return false;
	return d[cap / 32].effective & (1U << (cap % 32));
}

/* The tracepoints every tool attaches to */
static const char *const chmu_tps[] = { "chmu_hotlist_batch" };
#define CHMU_NR_TPS (sizeof(chmu_tps) / sizeof(chmu_tps[0]))

/* Do the raw tracepoints exist? One do-nothing program attaches to each. */
static bool raw_tps_exist(void)
{
	struct bpf_insn prog[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	bool ok = true;
	unsigned int i;
	int fd, tp;

	fd = bpf_prog_load(BPF_PROG_TYPE_RAW_TRACEPOINT, NULL, "GPL", prog, 2, NULL);
	if (fd < 0)
		return false;
	for (i = 0; ok && i < CHMU_NR_TPS; i++) {
		tp = bpf_raw_tracepoint_open(chmu_tps[i], fd);
		ok = tp >= 0;
		if (ok)
			close(tp);
	}
	close(fd);
	return ok;
}

/* Can tp_btf programs attach: @btf has every tracepoint's btf_trace_ type. */
static bool tp_btf_possible(const struct btf *btf)
{
	unsigned int i;
	char name[128];

	for (i = 0; i < CHMU_NR_TPS; i++) {
		snprintf(name, sizeof(name), "btf_trace_%s", chmu_tps[i]);
		if (btf__find_by_name_kind(btf, name, BTF_KIND_TYPEDEF) <= 0)
			return false;
	}
	return true;
}

bool chmu_env_ok(const char *tool, bool *tp_btf)
{
	struct btf *vmlinux = NULL, *btf = NULL;
	char why[160];
	bool ok = false;

	if (!have_cap(CAP_SYS_ADMIN) && !(have_cap(CAP_BPF) && have_cap(CAP_PERFMON))) {
		fprintf(stderr, "%s: needs CAP_BPF and CAP_PERFMON, or CAP_SYS_ADMIN (it loads BPF programs): run as root\n",
			tool);
		return false;
	}
	vmlinux = btf__load_vmlinux_btf();
	if (!vmlinux) {
		fprintf(stderr, "%s: no kernel BTF (/sys/kernel/btf/vmlinux): needs CONFIG_DEBUG_INFO_BTF\n",
			tool);
		return false;
	}
	if (!raw_tps_exist()) {
		fprintf(stderr, "%s: no chmu tracepoints: load the driver (modprobe cxl_hmu)\n",
			tool);
		goto out;
	}
	/*
	 * The programs read the driver's types by name: in the module's BTF,
	 * or in the kernel's when the driver is built in.
	 */
	btf = btf__load_module_btf("cxl_hmu", vmlinux);
	if (!btf && btf__find_by_name_kind(vmlinux, "chmu_batch", BTF_KIND_STRUCT) <= 0) {
		fprintf(stderr, "%s: no BTF for the cxl_hmu driver's types: neither /sys/kernel/btf/cxl_hmu (CONFIG_DEBUG_INFO_BTF_MODULES) nor the kernel's (a built-in driver)\n",
			tool);
		goto out;
	}
	if (!chmu_btf_types_ok(btf ?: vmlinux, why, sizeof(why))) {
		fprintf(stderr, "%s: %s: the tools and the driver do not match\n", tool, why);
		goto out;
	}
	*tp_btf = !getenv("CHMU_RAW_TP") && tp_btf_possible(btf ?: vmlinux);
	ok = true;
out:
	btf__free(btf);
	btf__free(vmlinux);
	return ok;
}

void chmu_pick_prog(struct bpf_program *btf, struct bpf_program *raw,
		    bool tp_btf)
{
	bpf_program__set_autoload(tp_btf ? raw : btf, false);
}
