/* hello: one vCPU boots by PVH, reaches 64-bit C, and says so; checks that
 * the boot left it where the runtime claims (long mode, a 64-bit CS, paging
 * with PAE, a real start_info) and reports hello=1 to the VMM. */
#include "libguest.h"

#define GDT_DESC_L (1ULL << 53) /* code descriptor: 64-bit */

extern char __kernel_start[], __kernel_end[];

static bool cs_is_64bit(void)
{
	struct descriptor_table_ptr gdtr;
	sgdt(&gdtr);
	uint16_t cs = read_cs();
	if ((cs | 7) > gdtr.limit)
		return false;
	const uint64_t *gdt = (const uint64_t *)(uintptr_t)gdtr.base;
	return gdt[cs >> 3] & GDT_DESC_L;
}

/* Is [start, end) inside one RAM entry of the PVH memory map? */
static bool memmap_covers(const struct hvm_memmap_table_entry *mm, unsigned n, uint64_t start,
			  uint64_t end)
{
	for (unsigned i = 0; i < n; i++)
		if (mm[i].type == HVM_MEMMAP_TYPE_RAM && mm[i].addr <= start &&
		    end - mm[i].addr <= mm[i].size)
			return true;
	return false;
}

static void check_memmap(void)
{
	unsigned n;
	const struct hvm_memmap_table_entry *mm = boot_memmap(&n);
	uint64_t ram = 0;
	for (unsigned i = 0; i < n; i++) {
		printf("hello: memmap[%u] 0x%09lx-0x%09lx type %u\n", i, mm[i].addr,
		       mm[i].addr + mm[i].size, mm[i].type);
		if (mm[i].type == HVM_MEMMAP_TYPE_RAM)
			ram += mm[i].size;
	}
	if (!n) {
		report_skip("start_info has no memory map (version 0 or no entries)");
		return;
	}
	printf("hello: %lu MiB of RAM in the memory map\n", ram >> 20);
	report(memmap_covers(mm, n, (uintptr_t)__kernel_start, (uintptr_t)__kernel_end),
	       "memory map has the kernel image 0x%lx-0x%lx in RAM", (uintptr_t)__kernel_start,
	       (uintptr_t)__kernel_end);
}

int main(void)
{
	printf("Hello from a vmm guest test kernel on x2APIC ID %u\n", apic_id());

	report(rdmsr(MSR_EFER) & EFER_LMA, "long mode active (EFER.LMA)");
	report(cs_is_64bit(), "CS is a 64-bit code segment (CS.L)");
	report((read_cr0() & X86_CR0_PG) && (read_cr4() & X86_CR4_PAE), "paging with PAE");
	report(boot_start_info_magic() == HVM_START_MAGIC,
	       "PVH start_info at 0x%x has magic 0x%x", boot_start_info_paddr(),
	       boot_start_info_magic());
	report(rdmsr(MSR_IA32_APIC_BASE) & APIC_BASE_EXTD, "local APIC in x2APIC mode");

	const struct hvm_start_info *si = boot_start_info();
	if (si)
		printf("hello: start_info version %u, flags 0x%x, %u modules, rsdp 0x%lx\n",
		       si->version, si->flags, si->nr_modules, si->rsdp_paddr);
	if (*boot_cmdline())
		printf("hello: command line \"%s\"\n", boot_cmdline());
	else
		printf("hello: no command line\n");
	if (si)
		check_memmap();

	uint32_t status = testdev_result("hello", 1);
	if (status == TESTDEV_NO_VMM)
		report_skip("no VMM answered the test device (QEMU?)");
	else
		report(status == TESTDEV_OK, "VMM took the result hello=1");
	return report_summary();
}
