/* boot_linux: the x86 64-bit boot protocol (Documentation/arch/x86/boot.rst,
 * zero-page.rst) on a synthetic bzImage in a fake guest RAM. Expected values
 * come from the documents and the Intel SDM, read back byte by byte from
 * guest memory, not through the kernel's structs. */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "../../vmm/boot_linux.h"
#include "../../vmm/guest_mem.h"
#include "../../vmm/layout.h"
#include "bzimage_fixture.h"
#include "suites.h"

#define RAM_SIZE (64 * MiB)
#define FILL 0xaa

static uint8_t image[FIX_IMAGE_SIZE];
static uint8_t *ram;
static struct guest_mem mem;
static struct bzimage k;
static char err[256];

static void parse(void)
{
	ck_assert_msg(bzimage_parse(image, sizeof(image), &k, err, sizeof(err)) == 0, "%s", err);
}

static void setup(void)
{
	bz_fixture(image);
	parse();
	ram = malloc(RAM_SIZE);
	ck_assert_ptr_nonnull(ram);
	memset(ram, FILL, RAM_SIZE);
	ck_assert(guest_mem_layout(&mem, ram, RAM_SIZE));
	memset(err, 0, sizeof(err));
}

static void teardown(void)
{
	free(ram);
}

static uint64_t rd(uint64_t gpa, unsigned bytes)
{
	return bz_get(ram, gpa, bytes);
}

/* The zero page's fields (zero-page.rst), from 0x7000. */
#define ZP(off) (0x7000 + (off))

/* Nothing in the boot area or where the kernel goes was written. */
static void assert_untouched(void)
{
	ck_assert_uint_eq(ram[0x500], FILL);       /* GDT */
	ck_assert_uint_eq(ram[0x7000 + 0x210], FILL); /* type_of_loader */
	ck_assert_uint_eq(ram[0x9000], FILL);      /* PML4 */
	ck_assert_uint_eq(ram[0x20000], FILL);     /* command line */
	ck_assert_uint_eq(ram[0x100000], FILL);    /* kernel */
}

static enum linux_fault load(const char *cmdline, const void *initrd, uint64_t initrd_size)
{
	struct linux_boot b = {
		.kernel = &k,
		.cmdline = cmdline,
		.initrd = initrd,
		.initrd_size = initrd_size,
		.acpi_rsdp_addr = 0xe0000,
	};
	return linux_load(&mem, &b, err, sizeof(err));
}

START_TEST(test_zero_page)
{
	static uint8_t initrd[0x2345];
	for (size_t i = 0; i < sizeof(initrd); i++)
		initrd[i] = (uint8_t)(i ^ 0x5a);
	ck_assert_msg(load("console=ttyS0", initrd, sizeof(initrd)) == LINUX_FAULT_NONE, "%s", err);

	/* The file's setup header, 0x1f1 up to its end 0x26c, copied as is... */
	ck_assert_uint_eq(rd(ZP(0x1f1), 1), 4);       /* setup_sects */
	ck_assert_uint_eq(rd(ZP(0x1f4), 4), 0x100);   /* syssize */
	ck_assert_uint_eq(rd(ZP(0x1fe), 2), 0xaa55);  /* boot_flag */
	ck_assert_uint_eq(rd(ZP(0x202), 4), 0x53726448); /* "HdrS" */
	ck_assert_uint_eq(rd(ZP(0x206), 2), 0x020f);
	ck_assert_uint_eq(rd(ZP(0x230), 4), 0x200000); /* kernel_alignment */
	ck_assert_uint_eq(rd(ZP(0x234), 1), 1);        /* relocatable_kernel */
	ck_assert_uint_eq(rd(ZP(0x236), 2), 1);        /* xloadflags */
	ck_assert_uint_eq(rd(ZP(0x238), 4), 2047);     /* cmdline_size */
	ck_assert_uint_eq(rd(ZP(0x258), 8), 0x1000000); /* pref_address */
	ck_assert_uint_eq(rd(ZP(0x260), 4), 0x400000); /* init_size */
	/* ...with the loader's fields: type_of_loader 0xff ("undefined"),
	 * LOADED_HIGH kept, code32_start = where the kernel was loaded,
	 * cmd_line_ptr, the initrd. */
	ck_assert_uint_eq(rd(ZP(0x210), 1), 0xff);
	ck_assert_uint_eq(rd(ZP(0x211), 1) & 0x01, 0x01);
	ck_assert_uint_eq(rd(ZP(0x214), 4), 0x100000);
	ck_assert_uint_eq(rd(ZP(0x228), 4), 0x20000);
	/* 64 MiB - 0x2345 = 0x3ffdcbb, down to a page: 0x3ffd000. */
	ck_assert_uint_eq(rd(ZP(0x218), 4), 0x3ffd000);
	ck_assert_uint_eq(rd(ZP(0x21c), 4), 0x2345);
	ck_assert_uint_eq(rd(ZP(0x0c0), 4), 0); /* ext_ramdisk_image: bits 63:32 */
	ck_assert_uint_eq(rd(ZP(0x0c4), 4), 0); /* ext_ramdisk_size */
	ck_assert_uint_eq(rd(ZP(0x0c8), 4), 0); /* ext_cmd_line_ptr */
	ck_assert_uint_eq(rd(ZP(0x070), 8), 0xe0000); /* acpi_rsdp_addr */
	ck_assert_uint_eq(rd(ZP(0x250), 8), 0);       /* setup_data: none */
	/* Everything else is zero: the start, the sentinel at 0x1ef, the gap
	 * after the header (0x26c-0x28f), the end of the page. */
	ck_assert_uint_eq(rd(ZP(0x000), 8), 0);
	ck_assert_uint_eq(rd(ZP(0x1ef), 1), 0);
	for (unsigned off = 0x26c; off < 0x290; off++)
		ck_assert_uint_eq(rd(ZP(off), 1), 0);
	ck_assert_uint_eq(rd(ZP(0xff8), 8), 0);
	ck_assert_uint_eq(ram[0x8000], FILL); /* and not a byte past it */

	/* The command line, NUL-terminated; the kernel at 1 MiB; the initrd. */
	ck_assert_str_eq((const char *)ram + 0x20000, "console=ttyS0");
	for (size_t i = 0; i < FIX_KERNEL_SIZE; i++)
		ck_assert_uint_eq(ram[0x100000 + i], fix_kernel_byte(i));
	ck_assert_uint_eq(ram[0x100000 + FIX_KERNEL_SIZE], FILL);
	ck_assert_int_eq(memcmp(ram + 0x3ffd000, initrd, sizeof(initrd)), 0);
}
END_TEST

START_TEST(test_header_fields_overwritten)
{
	/* Loader-owned fields hold what vmm says whatever the file holds. */
	bz_put(image, BZ_TYPE_OF_LOADER, 0x71, 1);
	bz_put(image, BZ_RAMDISK_IMAGE, 0x1234000, 4);
	bz_put(image, BZ_RAMDISK_SIZE, 0x5000, 4);
	bz_put(image, BZ_SETUP_DATA, 0xdead000, 8);
	bz_put(image, BZ_HARDWARE_SUBARCH, 2, 4);
	parse();
	ck_assert_msg(load(NULL, NULL, 0) == LINUX_FAULT_NONE, "%s", err);
	ck_assert_uint_eq(rd(ZP(0x210), 1), 0xff);
	ck_assert_uint_eq(rd(ZP(0x218), 4), 0); /* no initrd */
	ck_assert_uint_eq(rd(ZP(0x21c), 4), 0);
	ck_assert_uint_eq(rd(ZP(0x250), 8), 0);
	ck_assert_uint_eq(rd(ZP(0x23c), 4), 0); /* X86_SUBARCH_PC */
	/* No command line: an empty string, still pointed to (boot.rst: a zero
	 * cmd_line_ptr reads as a pre-2.02 loader). */
	ck_assert_uint_eq(rd(ZP(0x228), 4), 0x20000);
	ck_assert_uint_eq(ram[0x20000], 0);
}
END_TEST

/* One e820 entry (boot_e820_entry: addr u64, size u64, type u32; 20 bytes,
 * packed) of the table at 0x2d0. */
static void assert_e820(const uint8_t *zp, unsigned i, uint64_t addr, uint64_t size, uint32_t type)
{
	size_t e = 0x2d0 + 20 * i;
	ck_assert_uint_eq(bz_get(zp, e, 8), addr);
	ck_assert_uint_eq(bz_get(zp, e + 8, 8), size);
	ck_assert_uint_eq(bz_get(zp, e + 16, 4), type);
}

START_TEST(test_e820_64m)
{
	ck_assert_msg(load(NULL, NULL, 0) == LINUX_FAULT_NONE, "%s", err);
	const uint8_t *zp = ram + 0x7000;
	/* A PC's map (E820_RAM 1, E820_RESERVED 2): RAM below 640 KiB, the
	 * VGA/BIOS hole [0xa0000, 1 MiB) reserved (the ACPI tables at 0xe0000
	 * with it), RAM from 1 MiB to 64 MiB. */
	ck_assert_uint_eq(zp[0x1e8], 3); /* e820_entries */
	assert_e820(zp, 0, 0, 0xa0000, 1);
	assert_e820(zp, 1, 0xa0000, 0x60000, 2);
	assert_e820(zp, 2, 0x100000, 0x3f00000, 1);
	assert_e820(zp, 3, 0, 0, 0);
}
END_TEST

START_TEST(test_e820_above_4g)
{
	/* 5 GiB, reserved but never touched beyond what the boot writes. */
	uint64_t size = 5 * GiB;
	uint8_t *big = mmap(NULL, size, PROT_READ | PROT_WRITE,
			    MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	ck_assert_ptr_ne(big, MAP_FAILED);
	struct guest_mem m;
	ck_assert(guest_mem_layout(&m, big, size));
	struct linux_boot b = { .kernel = &k, .cmdline = "x" };
	ck_assert_msg(linux_load(&m, &b, err, sizeof(err)) == LINUX_FAULT_NONE, "%s", err);
	const uint8_t *zp = big + 0x7000;
	/* RAM stops at the 3 GiB MMIO hole and the other 2 GiB start at 4 GiB. */
	ck_assert_uint_eq(zp[0x1e8], 4);
	assert_e820(zp, 0, 0, 0xa0000, 1);
	assert_e820(zp, 1, 0xa0000, 0x60000, 2);
	assert_e820(zp, 2, 0x100000, 0xc0000000ULL - 0x100000, 1);
	assert_e820(zp, 3, 0x100000000ULL, 0x80000000ULL, 1);
	/* The initrd there goes below initrd_addr_max + 1 = 2 GiB, not 3 GiB:
	 * 0x80000000 - 0x1800 = 0x7fffe800, down to a page 0x7fffe000. */
	uint64_t addr;
	ck_assert_int_eq(linux_initrd_addr(&m, &k, 0x1800, &addr, err, sizeof(err)), 0);
	ck_assert_uint_eq(addr, 0x7fffe000);
	munmap(big, size);
}
END_TEST

START_TEST(test_initrd_placement)
{
	uint64_t addr;
	/* 64 MiB: as high as RAM allows, page-aligned. 0x4000000 - 0x100123 =
	 * 0x3effedd, down to 0x3eff000. */
	ck_assert_int_eq(linux_initrd_addr(&mem, &k, 0x100123, &addr, err, sizeof(err)), 0);
	ck_assert_uint_eq(addr, 0x3eff000);
	/* A page-sized one ends exactly at the end of RAM. */
	ck_assert_int_eq(linux_initrd_addr(&mem, &k, 0x1000, &addr, err, sizeof(err)), 0);
	ck_assert_uint_eq(addr, 0x3fff000);
	/* The kernel runs in [16 MiB, 20 MiB): 44 MiB fit above it, exactly. */
	ck_assert_int_eq(linux_initrd_addr(&mem, &k, 44 * MiB, &addr, err, sizeof(err)), 0);
	ck_assert_uint_eq(addr, 0x1400000);
	/* 128 MiB of RAM moves it up by 64 MiB. */
	struct guest_mem m128;
	ck_assert(guest_mem_layout(&m128, ram, 128 * MiB)); /* layout only, nothing written */
	ck_assert_int_eq(linux_initrd_addr(&m128, &k, 0x100123, &addr, err, sizeof(err)), 0);
	ck_assert_uint_eq(addr, 0x7eff000);
	/* initrd_addr_max 0xffffffff: its + 1 must not wrap to 0. */
	k.hdr.initrd_addr_max = 0xffffffff;
	ck_assert_int_eq(linux_initrd_addr(&mem, &k, 0x1000, &addr, err, sizeof(err)), 0);
	ck_assert_uint_eq(addr, 0x3fff000);
}
END_TEST

START_TEST(test_initrd_too_large_for_ram)
{
	uint64_t addr = 0;
	ck_assert_int_eq(linux_initrd_addr(&mem, &k, 44 * MiB + 1, &addr, err, sizeof(err)), -1);
	/* 44 MiB + 1 = 46137345 bytes; room 44 MiB = 46137344 bytes above 0x1400000. */
	ck_assert_msg(strstr(err, "initrd is 46137345 bytes"), "%s", err);
	ck_assert_msg(strstr(err, "only 46137344 fit"), "%s", err);
	ck_assert_msg(strstr(err, "--mem"), "%s", err);
	/* Through linux_load: the initrd's fault, guest RAM untouched. */
	uint8_t *initrd = calloc(1, 44 * MiB + 1);
	ck_assert_ptr_nonnull(initrd);
	ck_assert_int_eq(load(NULL, initrd, 44 * MiB + 1), LINUX_FAULT_INITRD);
	free(initrd);
	assert_untouched();
	/* Larger than RAM itself. */
	ck_assert_int_eq(linux_initrd_addr(&mem, &k, 65 * MiB, &addr, err, sizeof(err)), -1);
	ck_assert_msg(strstr(err, "initrd is"), "%s", err);
}
END_TEST

START_TEST(test_initrd_too_large_for_addr_max)
{
	uint64_t addr = 0;
	/* The kernel reaches up to 32 MiB - 1: 12 MiB fit above 20 MiB. */
	bz_put(image, BZ_INITRD_ADDR_MAX, 0x1ffffff, 4);
	parse();
	ck_assert_int_eq(linux_initrd_addr(&mem, &k, 12 * MiB, &addr, err, sizeof(err)), 0);
	ck_assert_uint_eq(addr, 0x1400000);
	ck_assert_int_eq(linux_initrd_addr(&mem, &k, 12 * MiB + 0x1000, &addr, err, sizeof(err)),
			 -1);
	ck_assert_msg(strstr(err, "initrd_addr_max 0x1ffffff"), "%s", err);
	ck_assert_msg(strstr(err, "only 12582912 fit"), "%s", err);
	ck_assert_int_eq(linux_initrd_addr(&mem, &k, 0, &addr, err, sizeof(err)), -1);
	ck_assert_msg(strstr(err, "empty"), "%s", err);
}
END_TEST

START_TEST(test_cmdline_too_long)
{
	/* cmdline_size counts characters without the NUL (boot.rst). */
	bz_put(image, BZ_CMDLINE_SIZE, 16, 4);
	parse();
	ck_assert_int_eq(load("12345678901234567", NULL, 0), LINUX_FAULT_CMDLINE);
	ck_assert_msg(strstr(err, "17 characters"), "%s", err);
	ck_assert_msg(strstr(err, "at most 16"), "%s", err);
	assert_untouched();
	ck_assert_msg(load("1234567890123456", NULL, 0) == LINUX_FAULT_NONE, "%s", err);
	ck_assert_str_eq((const char *)ram + 0x20000, "1234567890123456");
	/* A kernel claiming more than vmm's area gets the area: 0xffff
	 * characters and the NUL. */
	bz_put(image, BZ_CMDLINE_SIZE, 0x100000, 4);
	parse();
	char *line = malloc(0x10001);
	ck_assert_ptr_nonnull(line);
	memset(line, 'x', 0x10000);
	line[0x10000] = '\0';
	ck_assert_int_eq(load(line, NULL, 0), LINUX_FAULT_CMDLINE);
	ck_assert_msg(strstr(err, "at most 65535"), "%s", err);
	free(line);
}
END_TEST

START_TEST(test_kernel_too_big_for_ram)
{
	/* Runs in [16 MiB, 20 MiB): 16 MiB of RAM is too little, 20 enough. */
	struct guest_mem m16;
	ck_assert(guest_mem_layout(&m16, ram, 16 * MiB));
	struct linux_boot b = { .kernel = &k, .cmdline = "x" };
	ck_assert_int_eq(linux_load(&m16, &b, err, sizeof(err)), LINUX_FAULT_MEM);
	ck_assert_msg(strstr(err, "0x1400000"), "%s", err);
	ck_assert_msg(strstr(err, "--mem 20M or more"), "%s", err);
	assert_untouched();
	struct guest_mem m20;
	ck_assert(guest_mem_layout(&m20, ram, 20 * MiB));
	ck_assert_msg(linux_load(&m20, &b, err, sizeof(err)) == LINUX_FAULT_NONE, "%s", err);
	/* A run-time area past the 3 GiB hole cannot be helped by --mem. */
	k.hdr.pref_address = 0xbff00000;
	ck_assert_int_eq(linux_load(&mem, &b, err, sizeof(err)), LINUX_FAULT_MEM);
	ck_assert_msg(strstr(err, "3 GiB"), "%s", err);
	k.hdr.pref_address = UINT64_MAX - 0x1000; /* and one that wraps */
	ck_assert_int_eq(linux_load(&mem, &b, err, sizeof(err)), LINUX_FAULT_MEM);
}
END_TEST

START_TEST(test_page_tables)
{
	ck_assert_msg(load(NULL, NULL, 0) == LINUX_FAULT_NONE, "%s", err);
	/* 4-level paging (SDM vol. 3, 4.5): PML4[0] -> the PDPT, PDPT[0-3] ->
	 * four page directories, each PDE a 2 MiB page: P (bit 0), R/W (bit 1),
	 * PS (bit 7), address bits 51:21. 0x3 = P | R/W, 0x83 = P | R/W | PS. */
	ck_assert_uint_eq(rd(0x9000, 8), 0xa000 | 0x3);
	for (unsigned i = 1; i < 512; i++)
		ck_assert_uint_eq(rd(0x9000 + 8 * i, 8), 0);
	for (unsigned i = 0; i < 4; i++)
		ck_assert_uint_eq(rd(0xa000 + 8 * i, 8), (0xb000 + 0x1000 * i) | 0x3);
	for (unsigned i = 4; i < 512; i++)
		ck_assert_uint_eq(rd(0xa000 + 8 * i, 8), 0);
	ck_assert_uint_eq(rd(0xb000, 8), 0x83);
	ck_assert_uint_eq(rd(0xb008, 8), 0x200000 | 0x83);
	/* The 512th entry of the second directory maps 1 GiB + 511 * 2 MiB. */
	ck_assert_uint_eq(rd(0xc000 + 8 * 511, 8), 0x7fe00000 | 0x83);
	/* The last of 2048 maps [4 GiB - 2 MiB, 4 GiB). */
	ck_assert_uint_eq(rd(0xb000 + 8 * 2047, 8), 0xffe00000ULL | 0x83);
	for (unsigned i = 0; i < 2048; i++)
		ck_assert_uint_eq(rd(0xb000 + 8 * i, 8), (uint64_t)i * 0x200000 | 0x83);
	ck_assert_uint_eq(ram[0xf000], FILL); /* the fourth directory ends at 0xefff */
}
END_TEST

START_TEST(test_gdt)
{
	ck_assert_msg(load(NULL, NULL, 0) == LINUX_FAULT_NONE, "%s", err);
	/* Descriptors (SDM vol. 3, 3.4.5), limit 0xfffff in 4 KiB units:
	 *  0x10 code: access 0x9b (P, S, execute/read, accessed), flags 0xa
	 *       (G, L: 64-bit) -> 0x00af9b000000ffff;
	 *  0x18 data: access 0x93 (P, S, read/write, accessed), flags 0xc
	 *       (G, D/B) -> 0x00cf93000000ffff;
	 *  0x20 TSS: access 0x8b (P, system type 0xb: busy 64-bit TSS), limit
	 *       0x67, 16 bytes -> 0x00008b0000000067, 0. */
	static const uint64_t want[6] = {
		0, 0, 0x00af9b000000ffffULL, 0x00cf93000000ffffULL, 0x00008b0000000067ULL, 0,
	};
	for (unsigned i = 0; i < 6; i++)
		ck_assert_uint_eq(rd(0x500 + 8 * i, 8), want[i]);
	ck_assert_uint_eq(ram[0x500 + 48], FILL);
	uint64_t gdt[LINUX_GDT_ENTRIES];
	linux_gdt(gdt);
	ck_assert_int_eq(memcmp(gdt, want, sizeof(want)), 0);
}
END_TEST

START_TEST(test_entry_regs)
{
	struct kvm_regs regs;
	struct kvm_sregs sregs;
	memset(&regs, 0xff, sizeof(regs));
	memset(&sregs, 0xff, sizeof(sregs));
	linux_entry_regs(&regs, &sregs);
	/* boot.rst, 64-bit boot protocol: the entry is the loaded kernel +
	 * 0x200, %rsi the zero page, interrupts off (IF, bit 9). */
	ck_assert_uint_eq(regs.rip, 0x100200);
	ck_assert_uint_eq(regs.rsi, 0x7000);
	ck_assert_uint_eq(regs.rflags, 0x2);
	ck_assert_uint_eq(regs.rax | regs.rbx | regs.rcx | regs.rdx | regs.rdi | regs.rbp, 0);
	/* Long mode with paging: CR0.PE (0) and PG (31), ET (4) hard-wired;
	 * CR4.PAE (5); EFER.LME (8) and LMA (10); CR3 = the PML4. */
	ck_assert_uint_eq(sregs.cr0, (1ULL << 31) | (1ULL << 4) | 1);
	ck_assert_uint_eq(sregs.cr4, 1ULL << 5);
	ck_assert_uint_eq(sregs.efer, (1ULL << 8) | (1ULL << 10));
	ck_assert_uint_eq(sregs.cr3, 0x9000);
	ck_assert_uint_eq(sregs.gdt.base, 0x500);
	ck_assert_uint_eq(sregs.gdt.limit, 6 * 8 - 1);
	/* CS = __BOOT_CS (0x10): flat, execute/read, 64-bit (L = 1, D = 0). */
	ck_assert_uint_eq(sregs.cs.selector, 0x10);
	ck_assert_uint_eq(sregs.cs.base, 0);
	ck_assert_uint_eq(sregs.cs.limit, 0xffffffff);
	ck_assert_uint_eq(sregs.cs.type, 0xb);
	ck_assert_uint_eq(sregs.cs.l, 1);
	ck_assert_uint_eq(sregs.cs.db, 0);
	ck_assert_uint_eq(sregs.cs.g, 1);
	ck_assert_uint_eq(sregs.cs.s, 1);
	ck_assert_uint_eq(sregs.cs.present, 1);
	ck_assert_uint_eq(sregs.cs.dpl, 0);
	/* DS, ES, SS (and FS, GS) = __BOOT_DS (0x18): flat read/write data. */
	const struct kvm_segment *data[] = {
		&sregs.ds, &sregs.es, &sregs.ss, &sregs.fs, &sregs.gs,
	};
	for (unsigned i = 0; i < 5; i++) {
		ck_assert_uint_eq(data[i]->selector, 0x18);
		ck_assert_uint_eq(data[i]->base, 0);
		ck_assert_uint_eq(data[i]->limit, 0xffffffff);
		ck_assert_uint_eq(data[i]->type, 0x3);
		ck_assert_uint_eq(data[i]->db, 1);
		ck_assert_uint_eq(data[i]->l, 0);
		ck_assert_uint_eq(data[i]->s, 1);
		ck_assert_uint_eq(data[i]->present, 1);
	}
	/* TR: the busy 64-bit TSS at 0x20 (type 0xb, a system segment). */
	ck_assert_uint_eq(sregs.tr.selector, 0x20);
	ck_assert_uint_eq(sregs.tr.base, 0);
	ck_assert_uint_eq(sregs.tr.limit, 0x67);
	ck_assert_uint_eq(sregs.tr.type, 0xb);
	ck_assert_uint_eq(sregs.tr.s, 0);
	ck_assert_uint_eq(sregs.tr.present, 1);
	ck_assert_uint_eq(sregs.tr.g, 0);
}
END_TEST

START_TEST(test_tiny_ram)
{
	/* 512 KiB: not even the kernel's load address is RAM. */
	struct guest_mem tiny;
	ck_assert(guest_mem_layout(&tiny, ram, 512 * KiB));
	struct linux_boot b = { .kernel = &k };
	ck_assert_int_eq(linux_load(&tiny, &b, err, sizeof(err)), LINUX_FAULT_MEM);
	ck_assert_msg(strstr(err, "--mem 20M"), "%s", err);
	assert_untouched();
}
END_TEST

Suite *boot_linux_suite(void)
{
	Suite *s = suite_create("boot_linux");
	TCase *tc = tcase_create("core");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_zero_page);
	tcase_add_test(tc, test_header_fields_overwritten);
	tcase_add_test(tc, test_e820_64m);
	tcase_add_test(tc, test_e820_above_4g);
	tcase_add_test(tc, test_initrd_placement);
	tcase_add_test(tc, test_initrd_too_large_for_ram);
	tcase_add_test(tc, test_initrd_too_large_for_addr_max);
	tcase_add_test(tc, test_cmdline_too_long);
	tcase_add_test(tc, test_kernel_too_big_for_ram);
	tcase_add_test(tc, test_page_tables);
	tcase_add_test(tc, test_gdt);
	tcase_add_test(tc, test_entry_regs);
	tcase_add_test(tc, test_tiny_ram);
	suite_add_tcase(s, tc);
	return s;
}
