# Benchmark tools, built under build/bench/ with the VMM's strict flags.
# Included by the top-level Makefile; also works alone, from the project root:
#   make -f bench/bench.mk build/bench/floor
# build/bench/floor pulls in build/bench/timeit and build/bench/stats_cost
# (order-only), so a `bench` target depending on build/bench/floor gets them
# all; BENCH_TOOLS names them all. stats_cost links build/libvmm.a: included,
# the top-level Makefile keeps it up to date; alone, it is built (by the
# top-level Makefile) only if missing.

# Keep whatever default goal the including Makefile has (or has yet to set).
bench_saved_goal := $(.DEFAULT_GOAL)

BENCH_CC ?= $(CC)
BENCH_DIR := build/bench
# The VMM's flags (top-level Makefile: WARN, HARDEN, CFLAGS' default), spelled
# out so the result does not depend on who includes this file.
BENCH_CFLAGS = -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes \
	-Wmissing-prototypes -D_FORTIFY_SOURCE=2 -fstack-protector-strong -O2 -g \
	$(shell pkg-config --cflags libelf 2>/dev/null)
BENCH_LIBELF_STATIC = $(shell pkg-config --libs --static libelf 2>/dev/null || echo -lelf -lz)
# The VMM as a library, and what it links against (the top-level VMM_LIBS).
BENCH_VMM_LIB := build/libvmm.a
BENCH_VMM_LIBS = $(shell pkg-config --libs libelf inih json-c 2>/dev/null) -lfdt -lpthread
BENCH_TOOLS := $(BENCH_DIR)/floor $(BENCH_DIR)/timeit $(BENCH_DIR)/stats_cost

.PHONY: bench-tools
bench-tools: $(BENCH_TOOLS)

# Linked as vmm is (one static PIE, libc included), so that the two
# processes' memory compares like with like.
$(BENCH_DIR)/floor: bench/floor.c bench/bench.mk | $(BENCH_DIR)/timeit $(BENCH_DIR)/stats_cost
	@mkdir -p $(dir $@)
	$(BENCH_CC) $(BENCH_CFLAGS) -static-pie -o $@ $< $(BENCH_LIBELF_STATIC)

$(BENCH_DIR)/timeit: bench/timeit.c bench/bench.mk
	@mkdir -p $(dir $@)
	$(BENCH_CC) $(BENCH_CFLAGS) -o $@ $<

$(BENCH_DIR)/stats_cost: bench/stats_cost.c vmm/stats.h vmm/stats_schema.h bench/bench.mk \
		$(BENCH_VMM_LIB)
	@mkdir -p $(dir $@)
	$(BENCH_CC) $(BENCH_CFLAGS) -o $@ $< $(BENCH_VMM_LIB) $(BENCH_VMM_LIBS)

# Alone (make -f bench/bench.mk), the default is to build the tools.
ifeq ($(bench_saved_goal)$(filter-out bench/bench.mk,$(strip $(MAKEFILE_LIST))),)
.DEFAULT_GOAL := bench-tools
else
.DEFAULT_GOAL := $(bench_saved_goal)
endif
# Alone, nothing here knows how to build the library: ask the Makefile that does.
ifeq ($(filter-out bench/bench.mk,$(strip $(MAKEFILE_LIST))),)
$(BENCH_VMM_LIB):
	$(MAKE) -f Makefile $@
endif
