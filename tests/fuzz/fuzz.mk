# libFuzzer targets for vmm's parsers and guest-facing handlers
# (tests/fuzz/fuzz_<name>.c; seeds in tests/fuzz/corpus/<name>/).
# Included by the top-level Makefile; also works alone, from the project root:
#   make -f tests/fuzz/fuzz.mk fuzz-replay   # every corpus file once, ASan/UBSan, no libFuzzer
#   make -f tests/fuzz/fuzz.mk fuzz          # each fuzzer for FUZZ_SECONDS (default 60), one at a time
#   make -f tests/fuzz/fuzz.mk fuzz FUZZ_TARGETS=devices FUZZ_SECONDS=10
# The VMM's sources (every .c of vmm/ cpu/ clock/ devices/ but vmm/main.c, as
# the top-level VMM_SRCS) are compiled once per flavour under build/fuzz/:
#   obj-fuzz/    clang, -fsanitize=fuzzer-no-link,address,undefined -> build/fuzz/fuzz_<name>
#   obj-replay/  FUZZ_REPLAY_CC (default cc), -fsanitize=address,undefined, with
#                tests/fuzz/replay_main.c -> build/fuzz/replay_<name>
# `fuzz` needs clang and libFuzzer (Debian: clang, libclang-rt-14-dev);
# `fuzz-replay` only the compiler the project already uses.
# New inputs a fuzzer finds stay under build/fuzz/corpus/<name>/ and crashes
# under build/fuzz/crashes/<name>/; tests/fuzz/corpus/ is only read.

# Keep whatever default goal the including Makefile has (or has yet to set).
fuzz_saved_goal := $(.DEFAULT_GOAL)

FUZZ_CC ?= clang
FUZZ_REPLAY_CC ?= $(CC)
FUZZ_SECONDS ?= 60
FUZZ_DIR := build/fuzz
FUZZ_ALL := $(patsubst tests/fuzz/fuzz_%.c,%,$(wildcard tests/fuzz/fuzz_*.c))
FUZZ_TARGETS ?= $(FUZZ_ALL)

FUZZ_PKGS := libelf inih json-c
FUZZ_LIB_SRCS := $(filter-out vmm/main.c,$(wildcard vmm/*.c cpu/*.c clock/*.c devices/*.c))
# Shared libraries here: the fuzzers' memory use is no budget to keep.
FUZZ_LIBS = $(shell pkg-config --libs $(FUZZ_PKGS) 2>/dev/null) -lfdt -lpthread
# The VMM's own sources: its flags, but warnings do not stop the build (another
# compiler may warn where the VMM's does not); the targets get -Werror.
FUZZ_BASE_CFLAGS = -std=c11 -D_GNU_SOURCE -O1 -g -fno-omit-frame-pointer \
	-Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
	-DVMM_VERSION='"fuzz"' $(shell pkg-config --cflags $(FUZZ_PKGS) 2>/dev/null)
FUZZ_SAN := -fsanitize=address,undefined -fno-sanitize-recover=all
FUZZ_FUZZ_CFLAGS = $(FUZZ_BASE_CFLAGS) $(FUZZ_SAN) -fsanitize=fuzzer-no-link
FUZZ_REPLAY_CFLAGS = $(FUZZ_BASE_CFLAGS) $(FUZZ_SAN)

FUZZ_FUZZ_OBJ := $(FUZZ_DIR)/obj-fuzz
FUZZ_REPLAY_OBJ := $(FUZZ_DIR)/obj-replay
FUZZ_FUZZ_LIB := $(FUZZ_DIR)/libvmm-fuzz.a
FUZZ_REPLAY_LIB := $(FUZZ_DIR)/libvmm-replay.a
FUZZ_FUZZ_OBJS := $(FUZZ_LIB_SRCS:%.c=$(FUZZ_FUZZ_OBJ)/%.o)
FUZZ_REPLAY_OBJS := $(FUZZ_LIB_SRCS:%.c=$(FUZZ_REPLAY_OBJ)/%.o)
FUZZ_BINS := $(FUZZ_TARGETS:%=$(FUZZ_DIR)/fuzz_%)
FUZZ_REPLAY_BINS := $(FUZZ_TARGETS:%=$(FUZZ_DIR)/replay_%)

FUZZ_ENV := ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 UBSAN_OPTIONS=print_stacktrace=1

.PHONY: fuzz fuzz-build fuzz-replay fuzz-replay-build fuzz-corpus

$(FUZZ_FUZZ_OBJ)/%.o: %.c tests/fuzz/fuzz.mk
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_FUZZ_CFLAGS) -MMD -MP -c $< -o $@

$(FUZZ_REPLAY_OBJ)/%.o: %.c tests/fuzz/fuzz.mk
	@mkdir -p $(dir $@)
	$(FUZZ_REPLAY_CC) $(FUZZ_REPLAY_CFLAGS) -MMD -MP -c $< -o $@

$(FUZZ_FUZZ_LIB): $(FUZZ_FUZZ_OBJS)
	@rm -f $@
	ar rcs $@ $^

$(FUZZ_REPLAY_LIB): $(FUZZ_REPLAY_OBJS)
	@rm -f $@
	ar rcs $@ $^

# One binary per target; the library archive gives each only what it uses.
$(FUZZ_DIR)/fuzz_%: $(FUZZ_FUZZ_OBJ)/tests/fuzz/fuzz_%.o $(FUZZ_FUZZ_LIB)
	$(FUZZ_CC) $(FUZZ_FUZZ_CFLAGS) -fsanitize=fuzzer -o $@ $^ $(FUZZ_LIBS)

$(FUZZ_DIR)/replay_%: $(FUZZ_REPLAY_OBJ)/tests/fuzz/fuzz_%.o \
		$(FUZZ_REPLAY_OBJ)/tests/fuzz/replay_main.o $(FUZZ_REPLAY_LIB)
	$(FUZZ_REPLAY_CC) $(FUZZ_REPLAY_CFLAGS) -o $@ $^ $(FUZZ_LIBS)

# Built by pattern rules only: keep them (make would delete them as intermediates).
.SECONDARY: $(FUZZ_ALL:%=$(FUZZ_FUZZ_OBJ)/tests/fuzz/fuzz_%.o) \
	$(FUZZ_ALL:%=$(FUZZ_REPLAY_OBJ)/tests/fuzz/fuzz_%.o) $(FUZZ_REPLAY_OBJ)/tests/fuzz/replay_main.o

# The targets themselves compile with -Werror.
$(FUZZ_FUZZ_OBJ)/tests/fuzz/%.o: FUZZ_FUZZ_CFLAGS += -Werror
$(FUZZ_REPLAY_OBJ)/tests/fuzz/%.o: FUZZ_REPLAY_CFLAGS += -Werror

fuzz-build: $(FUZZ_BINS)
fuzz-replay-build: $(FUZZ_REPLAY_BINS)

# Every corpus file (seeds and kept crash reproducers) through every target,
# sanitized: quick enough for `make check`.
fuzz-replay: $(FUZZ_REPLAY_BINS)
	@set -e; for t in $(FUZZ_TARGETS); do \
		$(FUZZ_ENV) $(FUZZ_DIR)/replay_$$t tests/fuzz/corpus/$$t; \
	done

# Each fuzzer in turn (never two at once: the machine is shared), one
# process, at lowest priority, for FUZZ_SECONDS; then executions per target.
# Every target runs even if one fails; the status says whether any did.
fuzz: $(FUZZ_BINS)
	@failed=""; summary=""; \
	for t in $(FUZZ_TARGETS); do \
		mkdir -p $(FUZZ_DIR)/corpus/$$t $(FUZZ_DIR)/crashes/$$t; \
		echo "fuzz: $$t for $(FUZZ_SECONDS)s"; \
		$(FUZZ_ENV) nice -n 19 $(FUZZ_DIR)/fuzz_$$t -max_total_time=$(FUZZ_SECONDS) \
			-timeout=10 -print_final_stats=1 \
			-artifact_prefix=$(FUZZ_DIR)/crashes/$$t/ \
			$(FUZZ_DIR)/corpus/$$t tests/fuzz/corpus/$$t \
			> $(FUZZ_DIR)/$$t.log 2>&1; \
		status=$$?; \
		execs=$$(sed -n 's/^stat::number_of_executed_units: *//p' $(FUZZ_DIR)/$$t.log); \
		secs=$$(sed -n 's/^stat::average_exec_per_sec: *//p' $(FUZZ_DIR)/$$t.log); \
		if [ $$status -ne 0 ]; then \
			failed="$$failed $$t"; \
			grep -m1 -E 'ERROR|runtime error|deadly signal' $(FUZZ_DIR)/$$t.log || true; \
			echo "fuzz: $$t FAILED (log $(FUZZ_DIR)/$$t.log, inputs in $(FUZZ_DIR)/crashes/$$t/)"; \
		fi; \
		summary="$$summary$$(printf '%-18s %12s executions %8s/s%s' $$t "$${execs:-?}" "$${secs:-?}" \
			"$$( [ $$status -eq 0 ] || echo '  FAILED')")\n"; \
	done; \
	printf "fuzz: executions per target (%ss each):\n$$summary" $(FUZZ_SECONDS); \
	if [ -n "$$failed" ]; then echo "fuzz: failed:$$failed"; exit 1; fi

# Regenerate the binary seeds (tests/fuzz/gen_corpus.c writes them).
$(FUZZ_DIR)/gen_corpus: tests/fuzz/gen_corpus.c tests/fuzz/fuzz.mk
	@mkdir -p $(dir $@)
	$(FUZZ_REPLAY_CC) -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -O1 -o $@ $<
fuzz-corpus: $(FUZZ_DIR)/gen_corpus
	$(FUZZ_DIR)/gen_corpus tests/fuzz/corpus

-include $(FUZZ_FUZZ_OBJS:.o=.d) $(FUZZ_REPLAY_OBJS:.o=.d) \
	$(wildcard $(FUZZ_FUZZ_OBJ)/tests/fuzz/*.d $(FUZZ_REPLAY_OBJ)/tests/fuzz/*.d)

# Alone (make -f tests/fuzz/fuzz.mk), the default is the quick replay.
ifeq ($(fuzz_saved_goal)$(filter-out tests/fuzz/fuzz.mk,$(strip $(MAKEFILE_LIST))),)
.DEFAULT_GOAL := fuzz-replay
else
.DEFAULT_GOAL := $(fuzz_saved_goal)
endif
