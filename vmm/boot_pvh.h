/* The PVH boot protocol: start_info, memory map and command line in guest
 * memory, and the BSP's 32-bit protected-mode entry state. */
#ifndef VMM_BOOT_PVH_H
#define VMM_BOOT_PVH_H

#include <linux/kvm.h>
#include <stdint.h>

#include "guest_mem.h"

/* xen/include/public/arch-x86/hvm/start_info.h, version 1. */
#define HVM_START_MAGIC 0x336ec578
struct hvm_start_info {
	uint32_t magic;
	uint32_t version;
	uint32_t flags;
	uint32_t nr_modules;
	uint64_t modlist_paddr;
	uint64_t cmdline_paddr;
	uint64_t rsdp_paddr;
	uint64_t memmap_paddr;
	uint32_t memmap_entries;
	uint32_t reserved;
};

#define HVM_MEMMAP_TYPE_RAM 1
#define HVM_MEMMAP_TYPE_RESERVED 2
struct hvm_memmap_table_entry {
	uint64_t addr;
	uint64_t size;
	uint32_t type;
	uint32_t reserved;
};

/* Write start_info, the memory map and the command line (may be NULL).
 * 0, or -1 with a reason in err (command line too long). */
int pvh_write_boot_info(const struct guest_mem *mem, const char *cmdline, char *err, size_t errlen);

/* Build the memory map for `mem` into `map`; returns the entry count. Pure. */
unsigned pvh_memmap(const struct guest_mem *mem, struct hvm_memmap_table_entry *map, unsigned max);

/* The PVH entry state (flat 32-bit segments, CR0.PE, paging off, EBX =
 * start_info), applied on top of the vCPU's current sregs. Pure. */
void pvh_entry_regs(uint64_t entry, struct kvm_regs *regs, struct kvm_sregs *sregs);

#endif
