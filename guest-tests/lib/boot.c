/* The BSP's C entry: copies what the PVH loader handed over (start_info,
 * command line, memory map) before anything can overwrite it, sets up the
 * CPU, runs the test's main() and exits with what it returns. */
#include "boot.h"

#include <stddef.h>

#include "apic.h"
#include "delay.h"
#include "idt.h"
#include "layout.h"
#include "printf.h"
#include "serial.h"
#include "smp.h"
#include "string.h"
#include "testdev.h"

#define FOUR_GIB (1ULL << 32)

int main(void);

static uint32_t start_info_paddr, start_info_magic;
static struct hvm_start_info start_info;
static bool start_info_valid;
static struct hvm_memmap_table_entry memmap[BOOT_MEMMAP_MAX];
static unsigned memmap_count;
static char cmdline[BOOT_CMDLINE_MAX];

uint32_t boot_start_info_paddr(void)
{
	return start_info_paddr;
}

uint32_t boot_start_info_magic(void)
{
	return start_info_magic;
}

const struct hvm_start_info *boot_start_info(void)
{
	return start_info_valid ? &start_info : NULL;
}

const struct hvm_memmap_table_entry *boot_memmap(unsigned *count)
{
	*count = memmap_count;
	return memmap;
}

const char *boot_cmdline(void)
{
	return cmdline;
}

bool boot_cmdline_value(const char *name, uint64_t *value)
{
	size_t nlen = strlen(name);
	for (const char *p = cmdline; *p;) {
		while (*p == ' ')
			p++;
		const char *w = p;
		while (*p && *p != ' ')
			p++;
		size_t wlen = (size_t)(p - w);
		if (wlen > nlen && w[nlen] == '=' && !strncmp(w, name, nlen)) {
			if (parse_u64(w + nlen + 1, wlen - nlen - 1, value))
				return true;
			printf("boot: command line: %s= is not followed by a number\n", name);
			return false;
		}
	}
	return false;
}

/* Physical memory below 4 GiB is identity-mapped: a paddr is a pointer. */
static const void *phys(uint64_t paddr)
{
	return (const void *)(uintptr_t)paddr;
}

static void copy_start_info(uint32_t paddr)
{
	start_info_paddr = paddr;
	if (!paddr)
		return;
	const struct hvm_start_info *si = phys(paddr);
	start_info_magic = si->magic;
	if (si->magic != HVM_START_MAGIC)
		return;
	memcpy(&start_info, si,
	       si->version >= 1 ? sizeof(start_info) : offsetof(struct hvm_start_info, memmap_paddr));
	start_info_valid = true;
	uint64_t cl = start_info.cmdline_paddr;
	if (cl && cl < FOUR_GIB - BOOT_CMDLINE_MAX) {
		const char *s = phys(cl);
		size_t n = strnlen(s, BOOT_CMDLINE_MAX - 1);
		memcpy(cmdline, s, n);
		cmdline[n] = '\0';
	}
	uint64_t mm = start_info.memmap_paddr;
	if (start_info.version >= 1 && mm && mm < FOUR_GIB - sizeof(memmap)) {
		memmap_count = start_info.memmap_entries < BOOT_MEMMAP_MAX
				       ? start_info.memmap_entries
				       : BOOT_MEMMAP_MAX;
		memcpy(memmap, phys(mm), memmap_count * sizeof(memmap[0]));
	}
}

/* entry.S calls this on the BSP, in long mode, on CPU 0's stack. */
void __attribute__((noreturn)) boot_bsp(uint32_t start_info_paddr);
void boot_bsp(uint32_t paddr)
{
	smp_percpu_setup(0); /* printf needs this_cpu() */
	serial_init();
	idt_init();
	smp_vectors_init();
	copy_start_info(paddr);
	if (!apic_init()) {
		printf("FATAL: no x2APIC (CPUID.01H:ECX[21] is 0)\n");
		exit(EXIT_ABORT);
	}
	this_cpu()->apic_id = apic_id();
	delay_init();
	printf("boot: start_info at 0x%x%s, command line \"%s\", TSC %lu kHz (%s)\n", paddr,
	       start_info_valid ? "" : " (bad magic)", cmdline, delay_tsc_khz(),
	       delay_tsc_source());
	exit(main());
}
