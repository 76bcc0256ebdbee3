/* The PVH boot protocol: start_info, memory map and command line in guest
 * memory, and the BSP's 32-bit protected-mode entry state. */
#include "boot_pvh.h"

#include <stdio.h>
#include <string.h>

#include "layout.h"
#include "memory_map.h"

_Static_assert(PVH_START_INFO_ADDR + sizeof(struct hvm_start_info) <= PVH_MEMMAP_ADDR,
	       "start_info overlaps the memory map");
_Static_assert(PVH_MEMMAP_ADDR + PVH_MEMMAP_MAX * sizeof(struct hvm_memmap_table_entry) <=
		       CMDLINE_ADDR,
	       "memory map overlaps the command line");
_Static_assert(MEMORY_MAP_MAX <= PVH_MEMMAP_MAX, "the memory map outgrows PVH's table");
_Static_assert(CMDLINE_ADDR + CMDLINE_MAX <= BOOT_AREA_END, "command line leaves the boot area");

static uint32_t pvh_type(enum memory_map_type type)
{
	return type == MEMORY_MAP_RAM ? HVM_MEMMAP_TYPE_RAM : HVM_MEMMAP_TYPE_RESERVED;
}

unsigned pvh_memmap(const struct guest_mem *mem, struct hvm_memmap_table_entry *map, unsigned max)
{
	struct memory_map_entry entries[MEMORY_MAP_MAX];
	unsigned n = memory_map_build(mem, entries, max < MEMORY_MAP_MAX ? max : MEMORY_MAP_MAX);
	for (unsigned i = 0; i < n; i++)
		map[i] = (struct hvm_memmap_table_entry){ entries[i].addr, entries[i].size,
							  pvh_type(entries[i].type), 0 };
	return n;
}

int pvh_write_boot_info(const struct guest_mem *mem, const char *cmdline, char *err, size_t errlen)
{
	struct hvm_memmap_table_entry map[PVH_MEMMAP_MAX];
	struct hvm_start_info info = {
		.magic = HVM_START_MAGIC,
		.version = 1,
		.memmap_paddr = PVH_MEMMAP_ADDR,
		.memmap_entries = pvh_memmap(mem, map, PVH_MEMMAP_MAX),
	};
	if (cmdline) {
		size_t len = strlen(cmdline) + 1;
		if (len > CMDLINE_MAX) {
			snprintf(err, errlen, "command line is %zu bytes, at most %llu", len - 1,
				 CMDLINE_MAX - 1);
			return -1;
		}
		if (!guest_mem_write(mem, CMDLINE_ADDR, cmdline, len))
			goto no_room;
		info.cmdline_paddr = CMDLINE_ADDR;
	}
	if (!guest_mem_write(mem, PVH_MEMMAP_ADDR, map, info.memmap_entries * sizeof(map[0])) ||
	    !guest_mem_write(mem, PVH_START_INFO_ADDR, &info, sizeof(info)))
		goto no_room;
	return 0;
no_room:
	snprintf(err, errlen, "guest RAM too small for the boot information");
	return -1;
}

static struct kvm_segment flat_segment(uint16_t selector, uint8_t type)
{
	return (struct kvm_segment){
		.base = 0,
		.limit = 0xffffffff,
		.selector = selector,
		.type = type,
		.present = 1,
		.dpl = 0,
		.db = 1, /* 32-bit */
		.s = 1,  /* code/data, not system */
		.l = 0,
		.g = 1, /* 4 KiB granularity: 4 GiB limit */
	};
}

/* Segment types (Intel SDM vol. 3, 3.4.5.1): 0xb execute/read accessed,
 * 0x3 read/write accessed; 0xb as a system type is a busy 32-bit TSS. */
#define SEG_TYPE_CODE_XRA 0xb
#define SEG_TYPE_DATA_RWA 0x3
#define SEG_TYPE_TSS_BUSY 0xb
#define X86_CR0_PE 0x1ULL
#define X86_CR0_ET 0x10ULL

void pvh_entry_regs(uint64_t entry, struct kvm_regs *regs, struct kvm_sregs *sregs)
{
	/* Xen's docs/misc/pvh.rst: flat 4 GiB CS/DS/ES/SS, a 32-bit TSS, CR0.PE
	 * with paging off, CR4 = 0, EFLAGS.IF clear, EBX = start_info. */
	sregs->cs = flat_segment(0x10, SEG_TYPE_CODE_XRA);
	sregs->ds = sregs->es = sregs->fs = sregs->gs = sregs->ss =
		flat_segment(0x18, SEG_TYPE_DATA_RWA);
	sregs->tr = (struct kvm_segment){
		.base = 0, .limit = 0x67, .selector = 0x20, .type = SEG_TYPE_TSS_BUSY, .present = 1,
	};
	sregs->cr0 = X86_CR0_PE | X86_CR0_ET;
	sregs->cr3 = 0;
	sregs->cr4 = 0;
	sregs->efer = 0;
	memset(regs, 0, sizeof(*regs));
	regs->rflags = 0x2; /* bit 1 is reserved and always set */
	regs->rip = entry;
	regs->rbx = PVH_START_INFO_ADDR;
}
