/* The PVH boot ABI (xen/include/public/arch-x86/hvm/start_info.h, version 1):
 * what vmm writes and a PVH kernel reads. Shared by vmm and its guest test
 * kernels, so it uses only fixed-width types. */
#ifndef VMM_PVH_ABI_H
#define VMM_PVH_ABI_H

#include <stdint.h>

#define HVM_START_MAGIC 0x336ec578

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

#define HVM_MEMMAP_TYPE_RAM 1
#define HVM_MEMMAP_TYPE_RESERVED 2
struct hvm_memmap_table_entry {
	uint64_t addr;
	uint64_t size;
	uint32_t type; /* 1 RAM, 2 reserved, 3 ACPI, 4 NVS, 5 unusable */
	uint32_t reserved;
};

#endif
