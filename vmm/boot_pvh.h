/* The PVH boot protocol: start_info, memory map and command line in guest
 * memory, and the BSP's 32-bit protected-mode entry state. */
#ifndef VMM_BOOT_PVH_H
#define VMM_BOOT_PVH_H

#include <linux/kvm.h>
#include <stdint.h>

#include "guest_mem.h"
#include "pvh_abi.h"

/* Write start_info, the memory map and the command line (may be NULL).
 * 0, or -1 with a reason in err (command line too long). */
int pvh_write_boot_info(const struct guest_mem *mem, const char *cmdline, char *err, size_t errlen);

/* memory_map.c's map for `mem` in PVH's entry format; returns the entry
 * count (at most max). Pure. */
unsigned pvh_memmap(const struct guest_mem *mem, struct hvm_memmap_table_entry *map, unsigned max);

/* The PVH entry state (flat 32-bit segments, CR0.PE, paging off, EBX =
 * start_info), applied on top of the vCPU's current sregs. Pure. */
void pvh_entry_regs(uint64_t entry, struct kvm_regs *regs, struct kvm_sregs *sregs);

#endif
