/* Booting a Linux bzImage by the x86 64-bit boot protocol
 * (Documentation/arch/x86/boot.rst): the kernel, zero page, command line and
 * initrd in guest memory, and the BSP's 64-bit entry state. */
#include "boot_linux.h"

#include <asm/e820.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "layout.h"
#include "memory_map.h"

#define PAGE_SIZE 0x1000ULL
#define PT_ENTRIES 512
#define PTE_PRESENT (1ULL << 0)
#define PTE_WRITE (1ULL << 1)
#define PTE_HUGE (1ULL << 7) /* PS: a 2 MiB page in a page directory */
#define LINUX_PD_PAGES 4     /* one page directory per GiB of the 4 GiB identity map */
#define HUGE_PAGE_SIZE (2 * MiB)

#define X86_CR0_PE (1ULL << 0)
#define X86_CR0_ET (1ULL << 4)
#define X86_CR0_PG (1ULL << 31)
#define X86_CR4_PAE (1ULL << 5)
#define X86_EFER_LME (1ULL << 8)
#define X86_EFER_LMA (1ULL << 10)

/* The boot area's pieces, in address order, none overlapping, all in low
 * RAM below the legacy hole, and below the kernel. */
_Static_assert(sizeof(struct boot_params) == 0x1000, "the zero page is one page");
_Static_assert(LINUX_GDT_ADDR + LINUX_GDT_ENTRIES * 8 <= LINUX_BOOT_PARAMS_ADDR, "GDT overlaps");
_Static_assert(LINUX_BOOT_PARAMS_ADDR + 0x1000 <= LINUX_PML4_ADDR, "zero page overlaps");
_Static_assert(LINUX_PML4_ADDR + PAGE_SIZE <= LINUX_PDPT_ADDR, "PML4 overlaps");
_Static_assert(LINUX_PDPT_ADDR + PAGE_SIZE <= LINUX_PD_ADDR, "PDPT overlaps");
_Static_assert(LINUX_PD_ADDR + LINUX_PD_PAGES * PAGE_SIZE <= LINUX_CMDLINE_ADDR, "PDs overlap");
_Static_assert(LINUX_CMDLINE_ADDR + LINUX_CMDLINE_MAX <= FDT_ADDR, "command line overlaps the FDT");
_Static_assert(FDT_ADDR + FDT_MAX_SIZE <= LOW_RAM_END, "FDT leaves low RAM");
_Static_assert(ACPI_TABLES_ADDR + ACPI_TABLES_MAX <= LINUX_KERNEL_ADDR, "ACPI overlaps the kernel");
_Static_assert(MEMORY_MAP_MAX <= E820_MAX_ENTRIES_ZEROPAGE, "memory map outgrows the zero page");

#define FAIL(fault, ...)                            \
	do {                                        \
		snprintf(err, errlen, __VA_ARGS__); \
		return (fault);                     \
	} while (0)

static double mib(uint64_t bytes)
{
	return (double)bytes / (double)MiB;
}

/* The kernel runs (decompresses) in one stretch of RAM above where it is
 * loaded; the identity map and every boot structure lie below that. */
static enum linux_fault check_kernel_fits(const struct guest_mem *mem, const struct bzimage *k,
					  char *err, size_t errlen)
{
	uint64_t start, end;
	if (!bzimage_runtime_range(k, LINUX_KERNEL_ADDR, &start, &end) || end > MMIO_HOLE_START)
		FAIL(LINUX_FAULT_MEM,
		     "the kernel's run-time area (init_size 0x%x from 0x%llx) does not fit below "
		     "the 3 GiB hole",
		     k->hdr.init_size, (unsigned long long)k->hdr.pref_address);
	if (!guest_mem_ptr(mem, LINUX_KERNEL_ADDR, end - LINUX_KERNEL_ADDR))
		FAIL(LINUX_FAULT_MEM,
		     "the kernel needs RAM up to 0x%llx (init_size 0x%x from 0x%llx), more than "
		     "%.1f MiB: use --mem %lluM or more",
		     (unsigned long long)end, k->hdr.init_size, (unsigned long long)start,
		     mib(mem->ram_size), (unsigned long long)((end + MiB - 1) / MiB));
	return LINUX_FAULT_NONE;
}

static uint32_t cmdline_max(const struct bzimage *k)
{
	/* cmdline_size counts characters, the NUL not included (boot.rst);
	 * vmm's area holds LINUX_CMDLINE_MAX bytes with it. */
	uint32_t room = (uint32_t)(LINUX_CMDLINE_MAX - 1);
	return k->hdr.cmdline_size < room ? k->hdr.cmdline_size : room;
}

int linux_initrd_addr(const struct guest_mem *mem, const struct bzimage *k, uint64_t size,
		      uint64_t *addr, char *err, size_t errlen)
{
	uint64_t start, lowest;
	if (size == 0)
		FAIL(-1, "initrd is empty");
	if (!bzimage_runtime_range(k, LINUX_KERNEL_ADDR, &start, &lowest) ||
	    __builtin_add_overflow(lowest, LINUX_INITRD_ALIGN - 1, &lowest))
		FAIL(-1, "no room for an initrd above the kernel's run-time area");
	lowest &= ~(LINUX_INITRD_ALIGN - 1);
	/* Region 0 is the RAM below the 3 GiB hole; initrd_addr_max is the
	 * highest byte the kernel can reach. */
	uint64_t ram_end = mem->region[0].gpa + mem->region[0].size;
	uint64_t max_end = (uint64_t)k->hdr.initrd_addr_max + 1;
	bool by_max = max_end < ram_end;
	uint64_t limit = by_max ? max_end : ram_end;
	if (size <= limit && ((limit - size) & ~(LINUX_INITRD_ALIGN - 1)) >= lowest) {
		*addr = (limit - size) & ~(LINUX_INITRD_ALIGN - 1);
		return 0;
	}
	uint64_t room = limit > lowest ? limit - lowest : 0;
	if (by_max)
		FAIL(-1,
		     "initrd is %llu bytes (%.1f MiB), but only %llu fit between the kernel's "
		     "run-time area (to 0x%llx) and its initrd_addr_max 0x%x",
		     (unsigned long long)size, mib(size), (unsigned long long)room,
		     (unsigned long long)lowest, k->hdr.initrd_addr_max);
	FAIL(-1,
	     "initrd is %llu bytes (%.1f MiB), but only %llu fit between the kernel's run-time "
	     "area (to 0x%llx) and the end of RAM (0x%llx): use a larger --mem",
	     (unsigned long long)size, mib(size), (unsigned long long)room,
	     (unsigned long long)lowest, (unsigned long long)limit);
}

static uint32_t e820_type(enum memory_map_type type)
{
	return type == MEMORY_MAP_RAM ? E820_RAM : E820_RESERVED;
}

/* boot.rst: a zeroed boot_params, the file's setup header copied in, then
 * the loader's own fields (zero-page.rst). */
static void fill_zero_page(const struct guest_mem *mem, const struct linux_boot *b,
			   uint64_t initrd_addr, struct boot_params *bp)
{
	const struct bzimage *k = b->kernel;
	memset(bp, 0, sizeof(*bp));
	memcpy((uint8_t *)bp + BZIMAGE_HDR_OFFSET, k->hdr_bytes, k->hdr_len);
	bp->hdr.type_of_loader = LINUX_TYPE_OF_LOADER;
	bp->hdr.code32_start = (uint32_t)LINUX_KERNEL_ADDR; /* a relocated kernel's load address */
	bp->hdr.cmd_line_ptr = (uint32_t)LINUX_CMDLINE_ADDR;
	bp->ext_cmd_line_ptr = (uint32_t)(LINUX_CMDLINE_ADDR >> 32);
	/* The loader's fields are set whatever the file holds there. */
	uint64_t initrd_size = b->initrd ? b->initrd_size : 0;
	bp->hdr.ramdisk_image = (uint32_t)initrd_addr;
	bp->ext_ramdisk_image = (uint32_t)(initrd_addr >> 32);
	bp->hdr.ramdisk_size = (uint32_t)initrd_size;
	bp->ext_ramdisk_size = (uint32_t)(initrd_size >> 32);
	bp->hdr.setup_data = 0; /* no setup_data list */
	bp->hdr.hardware_subarch = X86_SUBARCH_PC;
	struct memory_map_entry map[MEMORY_MAP_MAX];
	unsigned n = memory_map_build(mem, map, MEMORY_MAP_MAX);
	for (unsigned i = 0; i < n; i++)
		bp->e820_table[i] = (struct boot_e820_entry){ map[i].addr, map[i].size,
							      e820_type(map[i].type) };
	bp->e820_entries = (uint8_t)n;
	bp->acpi_rsdp_addr = b->acpi_rsdp_addr;
}

static void put64(uint8_t *p, uint64_t v)
{
	memcpy(p, &v, sizeof(v));
}

/* 4 GiB identity-mapped in 2 MiB pages: the boot protocol asks for the
 * kernel's run-time area, the zero page and the command line; the kernel
 * builds its own tables as soon as it runs. */
static bool write_page_tables(const struct guest_mem *mem)
{
	uint8_t *pml4 = guest_mem_ptr(mem, LINUX_PML4_ADDR, PAGE_SIZE);
	uint8_t *pdpt = guest_mem_ptr(mem, LINUX_PDPT_ADDR, PAGE_SIZE);
	uint8_t *pd = guest_mem_ptr(mem, LINUX_PD_ADDR, LINUX_PD_PAGES * PAGE_SIZE);
	if (!pml4 || !pdpt || !pd)
		return false;
	memset(pml4, 0, PAGE_SIZE);
	memset(pdpt, 0, PAGE_SIZE);
	put64(pml4, LINUX_PDPT_ADDR | PTE_PRESENT | PTE_WRITE);
	for (unsigned i = 0; i < LINUX_PD_PAGES; i++)
		put64(pdpt + 8 * i, (LINUX_PD_ADDR + i * PAGE_SIZE) | PTE_PRESENT | PTE_WRITE);
	for (unsigned j = 0; j < LINUX_PD_PAGES * PT_ENTRIES; j++)
		put64(pd + 8 * j, j * HUGE_PAGE_SIZE | PTE_HUGE | PTE_PRESENT | PTE_WRITE);
	return true;
}

/* Everything that can refuse the boot, before anything is written. */
static enum linux_fault plan(const struct guest_mem *mem, const struct linux_boot *b,
			     size_t *cmdline_len, uint64_t *initrd_addr, char *err, size_t errlen)
{
	enum linux_fault fault = check_kernel_fits(mem, b->kernel, err, errlen);
	if (fault != LINUX_FAULT_NONE)
		return fault;
	*cmdline_len = b->cmdline ? strlen(b->cmdline) : 0;
	if (*cmdline_len > cmdline_max(b->kernel))
		FAIL(LINUX_FAULT_CMDLINE,
		     "command line is %zu characters, the kernel takes at most %u (cmdline_size)",
		     *cmdline_len, cmdline_max(b->kernel));
	*initrd_addr = 0;
	if (b->initrd &&
	    linux_initrd_addr(mem, b->kernel, b->initrd_size, initrd_addr, err, errlen) < 0)
		return LINUX_FAULT_INITRD;
	return LINUX_FAULT_NONE;
}

enum linux_fault linux_load(const struct guest_mem *mem, const struct linux_boot *b, char *err,
			    size_t errlen)
{
	size_t cmdline_len;
	uint64_t initrd_addr;
	enum linux_fault fault = plan(mem, b, &cmdline_len, &initrd_addr, err, errlen);
	if (fault != LINUX_FAULT_NONE)
		return fault;
	struct boot_params bp;
	fill_zero_page(mem, b, initrd_addr, &bp);
	uint64_t gdt[LINUX_GDT_ENTRIES];
	linux_gdt(gdt);
	/* The plan put every range inside RAM; a failure here is a bug, still
	 * reported rather than ignored. */
	const struct bzimage *k = b->kernel;
	bool ok = guest_mem_write(mem, LINUX_KERNEL_ADDR, k->kernel, k->kernel_size) &&
		  guest_mem_write(mem, LINUX_CMDLINE_ADDR, b->cmdline ? b->cmdline : "",
				  cmdline_len + 1) &&
		  (!b->initrd || guest_mem_write(mem, initrd_addr, b->initrd, b->initrd_size)) &&
		  guest_mem_write(mem, LINUX_BOOT_PARAMS_ADDR, &bp, sizeof(bp)) &&
		  guest_mem_write(mem, LINUX_GDT_ADDR, gdt, sizeof(gdt)) && write_page_tables(mem);
	if (!ok)
		FAIL(LINUX_FAULT_MEM, "guest RAM too small for the Linux boot structures");
	return LINUX_FAULT_NONE;
}

/* A segment descriptor (Intel SDM vol. 3, 3.4.5): limit 15:0 and base 23:0
 * in the low 32 bits; access byte (type, S, DPL, P) at 40; limit 19:16 at
 * 48; flags (AVL, L, D/B, G) at 52; base 31:24 at 56. */
#define GDT_ENTRY(flags, access, base, limit)                                                  \
	((((uint64_t)(base) & 0xff000000ULL) << 32) | (((uint64_t)(flags) & 0xfULL) << 52) |   \
	 (((uint64_t)(limit) & 0xf0000ULL) << 32) | (((uint64_t)(access) & 0xffULL) << 40) |   \
	 (((uint64_t)(base) & 0xffffffULL) << 16) | ((uint64_t)(limit) & 0xffffULL))
#define GDT_FLAG_G 0x8 /* limit in 4 KiB units */
#define GDT_FLAG_DB 0x4
#define GDT_FLAG_L 0x2
/* Access bytes: P | S | type; types 0xb execute/read accessed, 0x3
 * read/write accessed (accessed already set: the CPU never writes the GDT);
 * 0x8b is P with system type 0xb, a busy 64-bit TSS. */
#define GDT_ACCESS_CODE 0x9b
#define GDT_ACCESS_DATA 0x93
#define GDT_ACCESS_TSS 0x8b
#define TSS_LIMIT 0x67 /* 104 bytes */

void linux_gdt(uint64_t gdt[LINUX_GDT_ENTRIES])
{
	memset(gdt, 0, LINUX_GDT_ENTRIES * sizeof(gdt[0]));
	gdt[LINUX_BOOT_CS / 8] = GDT_ENTRY(GDT_FLAG_G | GDT_FLAG_L, GDT_ACCESS_CODE, 0, 0xfffff);
	gdt[LINUX_BOOT_DS / 8] = GDT_ENTRY(GDT_FLAG_G | GDT_FLAG_DB, GDT_ACCESS_DATA, 0, 0xfffff);
	/* In long mode a TSS descriptor takes two slots; the second holds
	 * base 63:32, here 0. */
	gdt[LINUX_BOOT_TSS / 8] = GDT_ENTRY(0, GDT_ACCESS_TSS, 0, TSS_LIMIT);
}

/* What the CPU would load into a segment register from that descriptor. */
static struct kvm_segment segment_from_gdt(const uint64_t *gdt, uint16_t selector)
{
	uint64_t d = gdt[selector / 8];
	uint32_t limit = (uint32_t)((d & 0xffff) | ((d >> 32) & 0xf0000));
	uint8_t g = (d >> 55) & 1;
	uint8_t s = (d >> 44) & 1;
	uint64_t base = ((d >> 16) & 0xffffff) | ((d >> 32) & 0xff000000);
	if (!s) /* a 64-bit system descriptor: base 63:32 in the next slot */
		base |= gdt[selector / 8 + 1] << 32;
	return (struct kvm_segment){
		.base = base,
		.limit = g ? (limit << 12) | 0xfff : limit,
		.selector = selector,
		.type = (d >> 40) & 0xf,
		.present = (d >> 47) & 1,
		.dpl = (d >> 45) & 3,
		.db = (d >> 54) & 1,
		.s = s,
		.l = (d >> 53) & 1,
		.g = g,
		.avl = (d >> 52) & 1,
	};
}

void linux_entry_regs(struct kvm_regs *regs, struct kvm_sregs *sregs)
{
	uint64_t gdt[LINUX_GDT_ENTRIES];
	linux_gdt(gdt);
	sregs->cs = segment_from_gdt(gdt, LINUX_BOOT_CS);
	sregs->ds = sregs->es = sregs->fs = sregs->gs = sregs->ss =
		segment_from_gdt(gdt, LINUX_BOOT_DS);
	sregs->tr = segment_from_gdt(gdt, LINUX_BOOT_TSS);
	sregs->gdt = (struct kvm_dtable){ .base = LINUX_GDT_ADDR, .limit = sizeof(gdt) - 1 };
	sregs->cr0 = X86_CR0_PE | X86_CR0_ET | X86_CR0_PG;
	sregs->cr3 = LINUX_PML4_ADDR;
	sregs->cr4 = X86_CR4_PAE;
	sregs->efer = X86_EFER_LME | X86_EFER_LMA;
	memset(regs, 0, sizeof(*regs));
	regs->rflags = 0x2; /* bit 1 is reserved and always set; IF clear */
	regs->rip = LINUX_KERNEL_ADDR + BZIMAGE_ENTRY64_OFFSET;
	regs->rsi = LINUX_BOOT_PARAMS_ADDR;
}
