/* Booting a Linux bzImage by the x86 64-bit boot protocol
 * (Documentation/arch/x86/boot.rst): the kernel, zero page, command line and
 * initrd in guest memory, and the BSP's 64-bit entry state. */
#ifndef VMM_BOOT_LINUX_H
#define VMM_BOOT_LINUX_H

#include <linux/kvm.h>
#include <stddef.h>
#include <stdint.h>

#include "bzimage.h"
#include "guest_mem.h"

/* Flat 4 GiB segments the protocol names, and the TSS vmm adds for TR. */
#define LINUX_BOOT_CS 0x10
#define LINUX_BOOT_DS 0x18
#define LINUX_BOOT_TSS 0x20
#define LINUX_GDT_ENTRIES 6 /* null, unused, code, data, a 16-byte TSS */

#define LINUX_TYPE_OF_LOADER 0xff /* boot.rst: "undefined" loader */
#define LINUX_INITRD_ALIGN 0x1000ULL

struct linux_boot {
	const struct bzimage *kernel;
	const char *cmdline;     /* NULL: an empty command line */
	const void *initrd;      /* NULL: none */
	uint64_t initrd_size;
	uint64_t acpi_rsdp_addr; /* 0: none given (Linux then scans the BIOS area) */
};

/* Which input a refused boot is the fault of, to name it in the error. */
enum linux_fault {
	LINUX_FAULT_NONE,
	LINUX_FAULT_MEM,     /* the kernel needs more RAM than --mem */
	LINUX_FAULT_CMDLINE, /* longer than the kernel's cmdline_size */
	LINUX_FAULT_INITRD,  /* empty, or no room for it */
};

/* Check everything, then copy the protected-mode kernel to
 * LINUX_KERNEL_ADDR and write the zero page, command line, initrd, GDT and
 * identity-mapping page tables. On a fault err says why in one line and
 * guest memory is untouched. */
enum linux_fault linux_load(const struct guest_mem *mem, const struct linux_boot *boot, char *err,
			    size_t errlen);

/* Where the initrd goes: page-aligned, as high as possible, ending at or
 * below both initrd_addr_max + 1 and the end of RAM below the 3 GiB hole,
 * and starting above the kernel's run-time footprint. 0 with *addr, or -1
 * with the sizes in err. Pure. */
int linux_initrd_addr(const struct guest_mem *mem, const struct bzimage *k, uint64_t size,
		      uint64_t *addr, char *err, size_t errlen);

/* The GDT vmm loads (selectors LINUX_BOOT_*). Pure. */
void linux_gdt(uint64_t gdt[LINUX_GDT_ENTRIES]);

/* The 64-bit entry state: long mode with the identity map at
 * LINUX_PML4_ADDR, segments from linux_gdt(), RIP at the 64-bit entry,
 * RSI = the zero page, interrupts off; applied on top of the vCPU's current
 * sregs. Pure. */
void linux_entry_regs(struct kvm_regs *regs, struct kvm_sregs *sregs);

#endif
