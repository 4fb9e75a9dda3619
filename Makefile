# CHMU observability lab. Run as root on Debian 12; see README.md.
#
#   make              install missing packages, build kernel, QEMU and tools
#   make test         host unit tests, device tests and guest tests
#   make test-stress  the stress suite on the debug kernel (KASAN, lockdep,
#                     kmemleak), building it first (~12 min the first time)
#   make check        host-only tests and QEMU qtests (seconds, no guest)
#   make test T=REGEX only the tests whose names match (also check, test-stress)
#   make guest CMD=…  boot the guest and run CMD in it
#   make shell        interactive guest shell
#   make demo         the lab end to end
#   make bench        benchmarks, results in build/bench/; BENCH_SECTIONS=
#                     memory,cost,... reruns only those sections
#   make bench-goals  only what the goals table needs (about 11 min)
#   make bench-tiering  paired tiering blocks (docs/tiering.md); BENCH_TIER_RATIO,
#                     BENCH_TIER_ARMS, BENCH_TIER_WORKLOAD choose
#   make install      the BPF tools and their man pages under
#                     $(DESTDIR)$(PREFIX) (PREFIX=/usr/local: sbin/, share/man/man8/)
#
# V=1 shows full build logs. Builds and logs live in $(CHMU_CACHE).

export CHMU_CACHE ?= $(HOME)/.cache/chmu
export V ?= 0

CC      ?= cc
CFLAGS  ?= -O2 -g
CFLAGS  += -std=gnu11 -Wall -Wextra -Werror -Itools
BUILD   := build

ifeq ($(V),1)
Q :=
else
Q := @
endif

TOOLS      := chmu-workload chmu-regs chmu-perf chmu-score chmu-tierstat
BPF_TOOLS  := chmuheat chmutop chmualert chmu-exporter
TOOL_LIB   := tools/lib/memspec.c tools/lib/chmu.c tools/lib/perfev.c \
	      tools/lib/chmutool.c tools/lib/heat.c tools/lib/top.c tools/lib/alert.c \
	      tools/lib/zipf.c tools/lib/score.c tools/lib/metrics.c tools/lib/owner.c tools/lib/procmap.c \
	      tools/lib/tierstat.c
CLANG      ?= clang
BPF_CFLAGS := -g -O2 -target bpf -D__TARGET_ARCH_x86 -Wall -Werror \
	      -I$(BUILD)/vmlinux -Ibpf -Itools
VMLINUX_H  := $(BUILD)/vmlinux/vmlinux.h
HOST_TESTS := $(patsubst tests/host/%.c,$(BUILD)/tests/%,$(wildcard tests/host/test_*.c))

.PHONY: all deps kernel kernel-debug perf qemu plugins tools install check test test-stress guest shell demo bench bench-goals bench-tiering clean FORCE

# When make started: 'all' says how long getting the lab ready took.
MAKE_START := $(shell date +%s)

all: deps kernel perf qemu tools
	$(Q)t=$$(( $$(date +%s) - $(MAKE_START) )); \
	printf '  %-7s %s\n' LAB "kernel, perf, QEMU and tools ready ($$((t / 60))m$$(printf %02d $$((t % 60)))s)"

deps:
	$(Q)lab/deps.sh

kernel: deps
	$(Q)lab/build-kernel.sh

kernel-debug: kernel
	$(Q)KVARIANT=debug lab/build-kernel.sh

perf: kernel
	$(Q)lab/build-perf.sh

qemu: deps
	$(Q)lab/build-qemu.sh
	$(Q)$(MAKE) --no-print-directory plugins

# TCG plugins (qemu/plugins/*.c), built against the QEMU tree make qemu
# unpacked: tiermem, the tiering instrument (docs/bench.md)
QEMU_PLUGIN_H := $(CHMU_CACHE)/qemu/qemu-10.0.2/include/qemu/qemu-plugin.h
PLUGINS       := $(patsubst qemu/plugins/%.c,$(BUILD)/plugins/lib%.so,$(wildcard qemu/plugins/*.c))
plugins: $(PLUGINS)
$(BUILD)/plugins/lib%.so: qemu/plugins/%.c $(QEMU_PLUGIN_H)
	@mkdir -p $(dir $@)
	@echo "  CC      $@"
	$(Q)$(CC) -O2 -g -Wall -Wextra -Werror -Wno-unused-parameter -shared -fPIC \
		-I$(dir $(QEMU_PLUGIN_H)) $$(pkg-config --cflags glib-2.0) -o $@ $<

tools: $(addprefix $(BUILD)/bin/,$(TOOLS) $(BPF_TOOLS))

# The BPF tools (they need root: sbin, as bpftool) and their troff man
# pages (docs/man/), as a distribution would package them.
PREFIX  ?= /usr/local
SBINDIR := $(PREFIX)/sbin
MAN8DIR := $(PREFIX)/share/man/man8

install: tools
	@echo "  INSTALL $(BPF_TOOLS) in $(DESTDIR)$(SBINDIR), their man pages in $(DESTDIR)$(MAN8DIR)"
	$(Q)install -d $(DESTDIR)$(SBINDIR) $(DESTDIR)$(MAN8DIR)
	$(Q)install -m 0755 $(addprefix $(BUILD)/bin/,$(BPF_TOOLS)) $(DESTDIR)$(SBINDIR)/
	$(Q)install -m 0644 $(BPF_TOOLS:%=docs/man/%.8) $(DESTDIR)$(MAN8DIR)/

# vmlinux.h from the guest kernel's BTF, regenerated when the kernel changes
# (gen.sh is a no-op while the kernel build key is the same).
$(VMLINUX_H): FORCE kernel
	$(Q)vmlinux-gen/gen.sh $(BUILD)/vmlinux

$(BUILD)/bpf/%.bpf.o: bpf/%.bpf.c bpf/*.h tools/%.h tools/lib/chmuabi.h $(VMLINUX_H)
	@mkdir -p $(@D)
	@echo "  BPF     $@"
	$(Q)$(CLANG) $(BPF_CFLAGS) -c $< -o $@

$(BUILD)/bpf/%.skel.h: $(BUILD)/bpf/%.bpf.o
	@echo "  SKEL    $@"
	$(Q)bpftool gen skeleton $< >$@.tmp && mv $@.tmp $@

# The shared code is compiled once, into two archives: LIB_OBJ for every
# binary, BPF_LIB_OBJ (the libbpf runtime) for the BPF tools.
OBJ         := $(BUILD)/obj
LIB_OBJ     := $(patsubst tools/lib/%.c,$(OBJ)/%.o,$(TOOL_LIB))
BPF_LIB_OBJ := $(OBJ)/chmubpf.o $(OBJ)/chmubtf.o $(OBJ)/chmurun.o
LIBCHMU     := $(OBJ)/libchmu.a
LIBCHMUBPF  := $(OBJ)/libchmubpf.a

$(OBJ)/%.o: tools/lib/%.c
	@mkdir -p $(@D)
	@echo "  CC      $@"
	$(Q)$(CC) $(CFLAGS) -MMD -MP -c -o $@ $<

$(LIBCHMU): $(LIB_OBJ)
	$(Q)rm -f $@ && $(AR) rcs $@ $^

$(LIBCHMUBPF): $(BPF_LIB_OBJ)
	$(Q)rm -f $@ && $(AR) rcs $@ $^

-include $(LIB_OBJ:.o=.d) $(BPF_LIB_OBJ:.o=.d)

$(addprefix $(BUILD)/bin/,$(BPF_TOOLS)): $(BUILD)/bin/%: tools/%.c tools/%.h $(BUILD)/bpf/%.skel.h $(LIBCHMUBPF) $(LIBCHMU) tools/lib/*.h
	@mkdir -p $(@D)
	@echo "  CC      $@"
	$(Q)$(CC) $(CFLAGS) -I$(BUILD)/bpf -o $@ $< $(LIBCHMUBPF) $(LIBCHMU) -lbpf -lelf -lz -lm $(LIBS_$*)

# The exporter's HTTP server: libmicrohttpd, as Debian ships it.
LIBS_chmu-exporter := -lmicrohttpd -lpthread

$(BUILD)/bin/%: tools/%.c $(LIBCHMU) tools/lib/*.h
	@mkdir -p $(@D)
	@echo "  CC      $@"
	$(Q)$(CC) $(CFLAGS) -o $@ $< $(LIBCHMU) -lm

$(BUILD)/tests/%: tests/host/%.c $(LIBCHMU) tools/lib/*.h tests/host/check.h
	@mkdir -p $(@D)
	@echo "  CC      $@"
	$(Q)$(CC) $(CFLAGS) -o $@ $< $(LIBS_$*) $(LIBCHMU) -lm

# The tracepoint type check works on libbpf's struct btf.
LIBS_test_btf := $(OBJ)/chmubtf.o -lbpf -lelf -lz
$(BUILD)/tests/test_btf: $(OBJ)/chmubtf.o
# The BPF tools' runtime, without a skeleton.
LIBS_test_runtime := $(LIBCHMUBPF) -lbpf -lelf -lz
$(BUILD)/tests/test_runtime: $(LIBCHMUBPF)

# sleep(1) that tallies a guest test's fixed waits (tests/guest-suite.sh)
TEST_BINS := $(BUILD)/tests/bin/sleep
$(BUILD)/tests/bin/%: tests/bin/%.c
	@mkdir -p $(@D)
	@echo "  CC      $@"
	$(Q)$(CC) $(CFLAGS) -o $@ $<

FORCE:

# Keep the BPF objects next to their skeletons.
.SECONDARY: $(BPF_TOOLS:%=$(BUILD)/bpf/%.bpf.o)

# T=REGEX on make's command line runs only the tests whose names match
# (tests/run, docs/testing.md); a T in the environment is not a filter.
TEST_MATCH := $(if $(filter command line,$(origin T)),$(value T))

check: qemu $(HOST_TESTS) $(TEST_BINS) tools
	$(Q)TEST_MATCH='$(TEST_MATCH)' tests/run check

test: all $(HOST_TESTS) $(TEST_BINS)
	$(Q)TEST_MATCH='$(TEST_MATCH)' tests/run all

test-stress: all kernel-debug $(TEST_BINS)
	$(Q)TEST_MATCH='$(TEST_MATCH)' tests/run stress

# CMD reaches the guest as typed: make must not expand $(...) in it.
override CMD := $(value CMD)
export CMD
guest: all
	@[ -n "$$CMD" ] || { echo "usage: make guest CMD='command'" >&2; exit 1; }
	$(Q)qemu/run-guest.sh "$$CMD"

shell: all
	$(Q)qemu/run-guest.sh --shell

demo: all
	@rm -rf $(BUILD)/demo && mkdir -p $(BUILD)/demo
	@echo "  DEMO    booting the guest (TCG); the tools watch a moving hot set (9 s and its drain), then the promoter moves a hot set to DRAM (12 s)"
	$(Q)start=$$(date +%s); CHMU_RESULTS=$(abspath $(BUILD))/demo qemu/run-guest.sh chmu-demo; rc=$$?; \
	echo "  DEMO    guest done in $$(( $$(date +%s) - start )) s; results in $(abspath $(BUILD))/demo"; \
	[ -f $(BUILD)/demo/heatmap.svg ] && echo "  DEMO    heatmap image: $(abspath $(BUILD))/demo/heatmap.svg"; \
	exit $$rc

# BENCH_SECTIONS names some of bench/sections.sh's sections: checked
# here, before anything builds, so a wrong name costs one line.
ifneq ($(filter bench bench-goals,$(MAKECMDGOALS)),)
BENCH_CHECK := $(shell BENCH_SECTIONS='$(BENCH_SECTIONS)' bench/run.sh --check $(if $(filter bench-goals,$(MAKECMDGOALS)),--goals) 2>&1)
$(if $(BENCH_CHECK),$(error $(BENCH_CHECK)))
endif

bench: all
	$(Q)bench/run.sh

bench-goals: all
	$(Q)bench/run.sh --goals

# the paired tiering blocks of docs/tiering.md alone (about 30 minutes)
bench-tiering: all
	$(Q)BENCH_SECTIONS=tierblocks bench/run.sh

clean:
	rm -rf $(BUILD)
