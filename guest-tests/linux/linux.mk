# guest-tests/linux/linux.mk: the Linux test image, build/linux/initramfs.cpio.gz:
# Debian's static busybox, guest-tests/linux/init as PID 1, and the test
# programs (pipe-pingpong, messaging, clockwatch), static C11 binaries that
# also run on the host as they are. Booted with the distribution's own
# kernel: vmm run --kernel /boot/vmlinuz-<ver> --initrd build/linux/initramfs.cpio.gz.
# Included by the top-level Makefile, or on its own from the project root:
# make -f guest-tests/linux/linux.mk linux-image. No root needed (see
# mkinitramfs). Everything here is LINUX_-prefixed.

# Included, this fragment must not become the includer's default goal.
LINUX_STANDALONE := $(if $(filter 1,$(words $(MAKEFILE_LIST))),yes)
LINUX_SAVED_GOAL := $(.DEFAULT_GOAL)

LINUX_DIR := guest-tests/linux
LINUX_BUILD := build/linux
LINUX_IMAGE := $(LINUX_BUILD)/initramfs.cpio.gz
LINUX_BUSYBOX ?= /bin/busybox
LINUX_CC ?= $(CC)
LINUX_PROGS := pipe-pingpong messaging clockwatch
LINUX_BINS := $(LINUX_PROGS:%=$(LINUX_BUILD)/bin/%)
LINUX_CFLAGS := -std=c11 -O2 -Wall -Wextra -Werror -static -s

.PHONY: linux-image linux-progs linux-image-clean
linux-image: $(LINUX_IMAGE)
linux-progs: $(LINUX_BINS)

$(LINUX_BINS): $(LINUX_BUILD)/bin/%: $(LINUX_DIR)/%.c $(LINUX_DIR)/vmmtest.c $(LINUX_DIR)/vmmtest.h
	@mkdir -p $(@D)
	$(LINUX_CC) $(LINUX_CFLAGS) -o $@ $< $(LINUX_DIR)/vmmtest.c

# busybox is a prerequisite when it exists (a package update rebuilds the
# image); when it does not, mkinitramfs says what to install.
$(LINUX_IMAGE): $(LINUX_DIR)/init $(LINUX_DIR)/mkinitramfs $(LINUX_DIR)/linux.mk $(LINUX_BINS) \
		$(wildcard $(LINUX_BUSYBOX))
	$(LINUX_DIR)/mkinitramfs $@ $(LINUX_BUSYBOX) $(LINUX_DIR)/init $(LINUX_BINS)

linux-image-clean:
	rm -rf $(LINUX_BUILD)

ifneq ($(LINUX_STANDALONE),yes)
.DEFAULT_GOAL := $(LINUX_SAVED_GOAL)
endif
