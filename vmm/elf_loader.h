/* Loading ELF64 x86-64 kernels with libelf: validate every segment against
 * guest RAM first, then copy; the entry point comes from the PVH note. */
#ifndef VMM_ELF_LOADER_H
#define VMM_ELF_LOADER_H

#include <stddef.h>
#include <stdint.h>

#include "guest_mem.h"

#define ELF_MAX_SEGMENTS 64

struct kernel_entry {
	uint64_t entry;    /* 32-bit PVH entry (XEN_ELFNOTE_PHYS32_ENTRY) */
	uint64_t load_end; /* first byte above every loaded segment */
};

/* 0, or -1 with a one-line reason in err; guest memory is untouched on error. */
int elf_load(const void *image, size_t size, const struct guest_mem *mem, struct kernel_entry *out,
	     char *err, size_t errlen);

#endif
