# guest-tests/guest.mk: builds the freestanding x86-64 test kernels,
# build/guest-tests/<name>.elf, one per guest-tests/<name>.c, all sharing
# the runtime in guest-tests/lib/. Included by the top-level Makefile, or
# on its own from the project root: make -f guest-tests/guest.mk guest-tests
# Paths are relative to the project root. Everything here is GUEST_-prefixed.

GUEST_TESTS := hello smp lifecycle cpuid-topo kvmclock kvmclock-hostile \
	ipi-pingpong idle sched-pipe sched-messaging

# Included, this fragment must not become the includer's default goal.
GUEST_STANDALONE := $(if $(filter 1,$(words $(MAKEFILE_LIST))),yes)
GUEST_SAVED_GOAL := $(.DEFAULT_GOAL)

GUEST_CC ?= $(CC)
GUEST_DIR := guest-tests
GUEST_BUILD := build/guest-tests

GUEST_LIB_SRCS := \
	$(GUEST_DIR)/lib/entry.S \
	$(GUEST_DIR)/lib/trampoline.S \
	$(GUEST_DIR)/lib/isr.S \
	$(GUEST_DIR)/lib/sched_switch.S \
	$(GUEST_DIR)/lib/apic.c \
	$(GUEST_DIR)/lib/boot.c \
	$(GUEST_DIR)/lib/chan.c \
	$(GUEST_DIR)/lib/check.c \
	$(GUEST_DIR)/lib/clock.c \
	$(GUEST_DIR)/lib/counters.c \
	$(GUEST_DIR)/lib/cpuid.c \
	$(GUEST_DIR)/lib/delay.c \
	$(GUEST_DIR)/lib/fdt.c \
	$(GUEST_DIR)/lib/idt.c \
	$(GUEST_DIR)/lib/llc.c \
	$(GUEST_DIR)/lib/printf.c \
	$(GUEST_DIR)/lib/pvclock.c \
	$(GUEST_DIR)/lib/report.c \
	$(GUEST_DIR)/lib/sched.c \
	$(GUEST_DIR)/lib/serial.c \
	$(GUEST_DIR)/lib/smp.c \
	$(GUEST_DIR)/lib/string.c \
	$(GUEST_DIR)/lib/testdev.c \
	$(GUEST_DIR)/lib/topo.c
GUEST_LDS := $(GUEST_DIR)/lib/kernel.ld

GUEST_LIB_OBJS := $(patsubst $(GUEST_DIR)/%,$(GUEST_BUILD)/%.o,$(basename $(GUEST_LIB_SRCS)))
GUEST_TEST_OBJS := $(GUEST_TESTS:%=$(GUEST_BUILD)/%.o)
GUEST_ELFS := $(GUEST_TESTS:%=$(GUEST_BUILD)/%.elf)

# Freestanding, no SSE (no FPU state to manage), no red zone (interrupts
# push onto the kernel stack), absolute addresses below 2 GiB (-mcmodel=small
# with the image at 1 MiB), no PIE: the kernel runs where it is linked.
GUEST_CFLAGS := -std=c11 -m64 -O2 -ffreestanding -fno-builtin -fno-pic -fno-pie \
	-fno-stack-protector -fno-asynchronous-unwind-tables -fno-omit-frame-pointer \
	-fno-delete-null-pointer-checks -fcf-protection=none \
	-mno-red-zone -mno-mmx -mno-sse -mno-sse2 -mcmodel=small \
	-Wall -Wextra -Werror \
	-I$(GUEST_DIR)/lib -Idevices -Ivmm -MMD -MP
GUEST_ASFLAGS := -m64 -fno-pic -fno-pie -Werror -I$(GUEST_DIR)/lib -MMD -MP
GUEST_LDFLAGS := -m64 -nostdlib -static -Wl,-T,$(GUEST_LDS) -Wl,--build-id=none \
	-Wl,-z,noexecstack -Wl,-z,max-page-size=0x1000

.PHONY: guest-tests guest-tests-clean
guest-tests: $(GUEST_ELFS)

# Static pattern rules: objects named as targets are not intermediate (make
# keeps them), and they win over any generic %.o rule of the includer.
GUEST_LIB_C_OBJS := $(filter $(GUEST_LIB_SRCS:$(GUEST_DIR)/%.c=$(GUEST_BUILD)/%.o),$(GUEST_LIB_OBJS))
GUEST_LIB_S_OBJS := $(filter $(GUEST_LIB_SRCS:$(GUEST_DIR)/%.S=$(GUEST_BUILD)/%.o),$(GUEST_LIB_OBJS))

$(GUEST_ELFS): $(GUEST_BUILD)/%.elf: $(GUEST_BUILD)/%.o $(GUEST_LIB_OBJS) $(GUEST_LDS)
	$(GUEST_CC) $(GUEST_LDFLAGS) -o $@ $< $(GUEST_LIB_OBJS)

$(GUEST_TEST_OBJS) $(GUEST_LIB_C_OBJS): $(GUEST_BUILD)/%.o: $(GUEST_DIR)/%.c
	@mkdir -p $(@D)
	$(GUEST_CC) $(GUEST_CFLAGS) -c -o $@ $<

$(GUEST_LIB_S_OBJS): $(GUEST_BUILD)/%.o: $(GUEST_DIR)/%.S
	@mkdir -p $(@D)
	$(GUEST_CC) $(GUEST_ASFLAGS) -c -o $@ $<

guest-tests-clean:
	rm -rf $(GUEST_BUILD)

-include $(GUEST_TEST_OBJS:.o=.d) $(GUEST_LIB_OBJS:.o=.d)

ifneq ($(GUEST_STANDALONE),yes)
.DEFAULT_GOAL := $(GUEST_SAVED_GOAL)
endif
