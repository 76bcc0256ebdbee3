/* What the loader handed over (the PVH start_info, the command line, the
 * memory map), and the BSP's way from entry.S to the test's main(). */
#ifndef GUEST_BOOT_H
#define GUEST_BOOT_H

#include <stdbool.h>
#include <stdint.h>

#define HVM_START_MAGIC 0x336ec578

/* xen/include/public/arch-x86/hvm/start_info.h */
struct hvm_start_info {
	uint32_t magic;
	uint32_t version;
	uint32_t flags;
	uint32_t nr_modules;
	uint64_t modlist_paddr;
	uint64_t cmdline_paddr;
	uint64_t rsdp_paddr;
	/* version >= 1 */
	uint64_t memmap_paddr;
	uint32_t memmap_entries;
	uint32_t reserved;
};

struct hvm_memmap_table_entry {
	uint64_t addr;
	uint64_t size;
	uint32_t type; /* 1 RAM, 2 reserved, 3 ACPI, 4 NVS, 5 unusable */
	uint32_t reserved;
};

#define HVM_MEMMAP_TYPE_RAM 1
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
