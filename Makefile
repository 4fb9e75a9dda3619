# CHMU observability lab. Run as root on Debian 12; see README.md.
#
#   make              install missing packages, build kernel, QEMU and tools
#   make test         host unit tests, device tests and guest tests
#   make check        host-only tests and QEMU qtests (seconds, no guest)
#   make guest CMD=…  boot the guest and run CMD in it
#   make shell        interactive guest shell
#   make demo         the lab end to end
#   make bench        benchmarks, results in build/bench/
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

TOOLS      := chmu-workload chmu-regs chmu-perf
TOOL_LIB   := tools/lib/memspec.c tools/lib/chmu.c tools/lib/perfev.c
HOST_TESTS := $(patsubst tests/host/%.c,$(BUILD)/tests/%,$(wildcard tests/host/test_*.c))

.PHONY: all deps kernel perf qemu tools check test guest shell demo bench clean

all: deps kernel perf qemu tools

deps:
	$(Q)lab/deps.sh

kernel: deps
	$(Q)lab/build-kernel.sh

perf: kernel
	$(Q)lab/build-perf.sh

qemu: deps
	$(Q)lab/build-qemu.sh

tools: $(addprefix $(BUILD)/bin/,$(TOOLS))

$(BUILD)/bin/%: tools/%.c $(TOOL_LIB) tools/lib/*.h
	@mkdir -p $(@D)
	@echo "  CC      $@"
	$(Q)$(CC) $(CFLAGS) -o $@ $< $(TOOL_LIB)

$(BUILD)/tests/%: tests/host/%.c $(TOOL_LIB) tools/lib/*.h tests/host/check.h
	@mkdir -p $(@D)
	@echo "  CC      $@"
	$(Q)$(CC) $(CFLAGS) -o $@ $< $(TOOL_LIB)

check: qemu $(HOST_TESTS) tools
	$(Q)tests/run check

test: all $(HOST_TESTS)
	$(Q)tests/run all

# CMD reaches the guest as typed: make must not expand $(...) in it.
override CMD := $(value CMD)
export CMD
guest: all
	@[ -n "$$CMD" ] || { echo "usage: make guest CMD='command'" >&2; exit 1; }
	$(Q)qemu/run-guest.sh "$$CMD"

shell: all
	$(Q)qemu/run-guest.sh --shell

demo: all
	$(Q)qemu/run-guest.sh chmu-demo

bench: all
	$(Q)bench/run.sh

clean:
	rm -rf $(BUILD)
