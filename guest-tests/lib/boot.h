/* What the loader handed over (the PVH start_info, the command line, the
 * memory map), and the BSP's way from entry.S to the test's main(). */
#ifndef GUEST_BOOT_H
#define GUEST_BOOT_H

#include <stdbool.h>
#include <stdint.h>

/* The start_info layout is vmm's own (vmm/pvh_abi.h): one definition for both sides. */
#include "pvh_abi.h"

#define BOOT_MEMMAP_MAX 32
#define BOOT_CMDLINE_MAX 1024

/* EBX at entry. */
uint32_t boot_start_info_paddr(void);
/* The magic found there (0 if EBX was 0). */
uint32_t boot_start_info_magic(void);
/* A copy of start_info; NULL if the magic was wrong. */
const struct hvm_start_info *boot_start_info(void);
/* A copy of the memory map (at most BOOT_MEMMAP_MAX entries). */
const struct hvm_memmap_table_entry *boot_memmap(unsigned *count);
/* A copy of the command line; "" if none. */
const char *boot_cmdline(void);
/* The value of the first "name=value" word of the command line. */
bool boot_cmdline_value(const char *name, uint64_t *value);

#endif
