/* boot_pvh: the PVH boot protocol (Xen's docs/misc/pvh.rst and
 * xen/include/public/arch-x86/hvm/start_info.h). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../vmm/boot_pvh.h"
#include "../../vmm/guest_mem.h"
#include "../../vmm/layout.h"
#include "suites.h"

#define RAM_SIZE (64 * MiB)

static uint8_t *ram;
static struct guest_mem mem;
static char err[256];

static void setup(void)
{
	ram = malloc(RAM_SIZE);
	ck_assert_ptr_nonnull(ram);
	memset(ram, 0xaa, RAM_SIZE);
	ck_assert(guest_mem_layout(&mem, ram, RAM_SIZE));
	memset(err, 0, sizeof(err));
}

static void teardown(void)
{
	free(ram);
}

/* Little-endian field readers over guest RAM, independent of the structs. */
static uint32_t rd32(uint64_t gpa)
{
	return (uint32_t)ram[gpa] | (uint32_t)ram[gpa + 1] << 8 | (uint32_t)ram[gpa + 2] << 16 |
	       (uint32_t)ram[gpa + 3] << 24;
}

static uint64_t rd64(uint64_t gpa)
{
	return rd32(gpa) | (uint64_t)rd32(gpa + 4) << 32;
}

START_TEST(test_start_info)
{
	ck_assert_msg(pvh_write_boot_info(&mem, "console=ttyS0", err, sizeof(err)) == 0, "%s", err);
	/* struct hvm_start_info (start_info.h), at 0x1000:
	 *  +0 magic u32, +4 version u32, +8 flags u32, +12 nr_modules u32,
	 *  +16 modlist_paddr u64, +24 cmdline_paddr u64, +32 rsdp_paddr u64,
	 *  +40 memmap_paddr u64, +48 memmap_entries u32, +52 reserved u32. */
	ck_assert_uint_eq(rd32(0x1000 + 0), 0x336ec578);
	ck_assert_uint_eq(rd32(0x1000 + 4), 1);
	ck_assert_uint_eq(rd32(0x1000 + 8), 0);
	ck_assert_uint_eq(rd32(0x1000 + 12), 0); /* no modules */
	ck_assert_uint_eq(rd64(0x1000 + 16), 0);
	ck_assert_uint_eq(rd64(0x1000 + 24), 0x2000);
	ck_assert_uint_eq(rd64(0x1000 + 32), 0); /* no ACPI: the guest must not look */
	ck_assert_uint_eq(rd64(0x1000 + 40), 0x1040);
	ck_assert_uint_eq(rd32(0x1000 + 48), 3);
	ck_assert_uint_eq(rd32(0x1000 + 52), 0);
	/* The command line, NUL-terminated. */
	ck_assert_str_eq((const char *)ram + 0x2000, "console=ttyS0");
}
END_TEST

START_TEST(test_memmap_64m)
{
	ck_assert_msg(pvh_write_boot_info(&mem, NULL, err, sizeof(err)) == 0, "%s", err);
	/* hvm_memmap_table_entry: +0 addr u64, +8 size u64, +16 type u32,
	 * +20 reserved u32; 24 bytes each from 0x1040.
	 * A PC's map: RAM below 640 KiB (0xa0000), the VGA/BIOS hole
	 * [0xa0000, 0x100000) = 0x60000 bytes reserved, then RAM from 1 MiB to
	 * the end: 64 MiB - 1 MiB = 0x3f00000. Type 1 = RAM, 2 = reserved (E820). */
	static const uint64_t want[3][3] = {
		{ 0x0, 0xa0000, 1 },
		{ 0xa0000, 0x60000, 2 },
		{ 0x100000, 0x3f00000, 1 },
	};
	for (unsigned i = 0; i < 3; i++) {
		uint64_t e = 0x1040 + 24 * i;
		ck_assert_uint_eq(rd64(e), want[i][0]);
		ck_assert_uint_eq(rd64(e + 8), want[i][1]);
		ck_assert_uint_eq(rd32(e + 16), want[i][2]);
		ck_assert_uint_eq(rd32(e + 20), 0);
	}
	ck_assert_uint_eq(rd32(0x1000 + 48), 3);
	/* Without a command line, cmdline_paddr is 0 and 0x2000 is untouched. */
	ck_assert_uint_eq(rd64(0x1000 + 24), 0);
	ck_assert_uint_eq(ram[0x2000], 0xaa);
	/* Nothing written past the third entry (0x1040 + 72 = 0x1088). */
	ck_assert_uint_eq(ram[0x1088], 0xaa);
}
END_TEST

START_TEST(test_memmap_struct_pure)
{
	struct hvm_memmap_table_entry map[PVH_MEMMAP_MAX];
	ck_assert_uint_eq(pvh_memmap(&mem, map, PVH_MEMMAP_MAX), 3);
	ck_assert_uint_eq(map[2].addr, 1 * MiB);
	ck_assert_uint_eq(map[2].size, 63 * MiB);
	/* A short table gets the first entries only. */
	struct hvm_memmap_table_entry two[2];
	ck_assert_uint_eq(pvh_memmap(&mem, two, 2), 2);
	ck_assert_uint_eq(two[1].addr, 0xa0000);
}
END_TEST

START_TEST(test_memmap_high)
{
	/* 5 GiB with a fake host pointer: only pvh_memmap, nothing written. */
	struct guest_mem big;
	ck_assert(guest_mem_layout(&big, (uint8_t *)(uintptr_t)0x100000000000ULL, 5 * GiB));
	struct hvm_memmap_table_entry map[PVH_MEMMAP_MAX];
	unsigned n = pvh_memmap(&big, map, PVH_MEMMAP_MAX);
	/* Low RAM stops at the 3 GiB MMIO hole: [1 MiB, 3 GiB) = 3 GiB - 1 MiB;
	 * the remaining 5 - 3 = 2 GiB start at 4 GiB. */
	ck_assert_uint_eq(n, 4);
	ck_assert_uint_eq(map[0].addr, 0);
	ck_assert_uint_eq(map[0].size, 0xa0000);
	ck_assert_uint_eq(map[1].type, HVM_MEMMAP_TYPE_RESERVED);
	ck_assert_uint_eq(map[2].addr, 0x100000);
	ck_assert_uint_eq(map[2].size, 0xc0000000ULL - 0x100000);
	ck_assert_uint_eq(map[2].type, HVM_MEMMAP_TYPE_RAM);
	ck_assert_uint_eq(map[3].addr, 0x100000000ULL);
	ck_assert_uint_eq(map[3].size, 0x80000000ULL);
	ck_assert_uint_eq(map[3].type, HVM_MEMMAP_TYPE_RAM);
	/* No entry touches the hole [3 GiB, 4 GiB). */
	for (unsigned i = 0; i < n; i++)
		ck_assert(map[i].addr + map[i].size <= 3 * GiB || map[i].addr >= 4 * GiB);
}
END_TEST

START_TEST(test_memmap_tiny)
{
	/* 512 KiB: all RAM is below 640 KiB, one entry. */
	struct guest_mem tiny;
	ck_assert(guest_mem_layout(&tiny, ram, 512 * KiB));
	struct hvm_memmap_table_entry map[PVH_MEMMAP_MAX];
	ck_assert_uint_eq(pvh_memmap(&tiny, map, PVH_MEMMAP_MAX), 1);
	ck_assert_uint_eq(map[0].addr, 0);
	ck_assert_uint_eq(map[0].size, 512 * KiB);
	ck_assert_uint_eq(map[0].type, HVM_MEMMAP_TYPE_RAM);
}
END_TEST

START_TEST(test_cmdline_limits)
{
	/* CMDLINE_MAX = 4096 bytes at 0x2000, the NUL included. */
	char *line = malloc(4097);
	ck_assert_ptr_nonnull(line);
	memset(line, 'x', 4096);
	line[4096] = '\0';
	ck_assert_int_eq(pvh_write_boot_info(&mem, line, err, sizeof(err)), -1);
	ck_assert_ptr_nonnull(strstr(err, "command line"));
	/* Rejected before writing: 0x2000 still holds the fill. */
	ck_assert_uint_eq(ram[0x2000], 0xaa);

	line[4095] = '\0'; /* 4095 characters + NUL = 4096 bytes: fits */
	ck_assert_msg(pvh_write_boot_info(&mem, line, err, sizeof(err)) == 0, "%s", err);
	ck_assert_uint_eq(ram[0x2000], 'x');
	ck_assert_uint_eq(ram[0x2000 + 4094], 'x');
	ck_assert_uint_eq(ram[0x2000 + 4095], 0);
	/* 0x3000 is past the command line area. */
	ck_assert_uint_eq(ram[0x3000], 0xaa);
	free(line);
}
END_TEST

START_TEST(test_ram_too_small)
{
	/* 0x1800 bytes: start_info and the map fit, the command line at 0x2000 does not. */
	struct guest_mem small;
	ck_assert(guest_mem_layout(&small, ram, 0x1800));
	ck_assert_int_eq(pvh_write_boot_info(&small, "x", err, sizeof(err)), -1);
	ck_assert_ptr_nonnull(strstr(err, "too small"));
}
END_TEST

START_TEST(test_entry_regs)
{
	struct kvm_regs regs;
	struct kvm_sregs sregs;
	/* Start from garbage: the function must set everything PVH specifies. */
	memset(&regs, 0xff, sizeof(regs));
	memset(&sregs, 0xff, sizeof(sregs));
	pvh_entry_regs(0x100123, &regs, &sregs);

	ck_assert_uint_eq(regs.rip, 0x100123);
	ck_assert_uint_eq(regs.rbx, 0x1000); /* ebx: start_info's physical address */
	/* eflags: bit 1 is reserved-as-1 (SDM vol. 1, 3.4.3); IF (bit 9),
	 * TF (bit 8) and VM (bit 17) must be clear. */
	ck_assert_uint_eq(regs.rflags & (1u << 1), 1u << 1);
	ck_assert_uint_eq(regs.rflags & (1u << 9), 0);
	ck_assert_uint_eq(regs.rflags & (1u << 8), 0);
	ck_assert_uint_eq(regs.rflags & (1u << 17), 0);

	/* cr0: PE (bit 0) set, PG (bit 31) clear, and no other writable bit:
	 * only ET (bit 4), hard-wired to 1 since the i486, may also be set. */
	ck_assert_uint_eq(sregs.cr0 & 1, 1);
	ck_assert_uint_eq(sregs.cr0 & (1ULL << 31), 0);
	ck_assert_uint_eq(sregs.cr0 & ~((1ULL << 0) | (1ULL << 4)), 0);
	ck_assert_uint_eq(sregs.cr4, 0); /* "cr4: all bits are cleared" */
	ck_assert_uint_eq(sregs.efer & (1u << 8), 0); /* EFER.LME: not long mode */
	ck_assert_uint_eq(sregs.efer & (1u << 10), 0); /* EFER.LMA */

	/* cs: 32-bit read/execute code, base 0, limit 0xffffffff (4 KiB
	 * granularity: g = 1), db = 1 (32-bit default), l = 0 (not 64-bit). */
	ck_assert_uint_eq(sregs.cs.base, 0);
	ck_assert_uint_eq(sregs.cs.limit, 0xffffffff);
	ck_assert_uint_eq(sregs.cs.g, 1);
	ck_assert_uint_eq(sregs.cs.db, 1);
	ck_assert_uint_eq(sregs.cs.l, 0);
	ck_assert_uint_eq(sregs.cs.s, 1);
	ck_assert_uint_eq(sregs.cs.present, 1);
	ck_assert_uint_eq(sregs.cs.dpl, 0);
	ck_assert_uint_eq(sregs.cs.type & 0x8, 0x8); /* code (SDM vol. 3, 3.4.5.1) */
	ck_assert_uint_eq(sregs.cs.type & 0x2, 0x2); /* readable */

	/* ds, es, ss: 32-bit read/write data, base 0, limit 0xffffffff. */
	const struct kvm_segment *data[] = { &sregs.ds, &sregs.es, &sregs.ss };
	for (unsigned i = 0; i < 3; i++) {
		ck_assert_uint_eq(data[i]->base, 0);
		ck_assert_uint_eq(data[i]->limit, 0xffffffff);
		ck_assert_uint_eq(data[i]->g, 1);
		ck_assert_uint_eq(data[i]->db, 1);
		ck_assert_uint_eq(data[i]->s, 1);
		ck_assert_uint_eq(data[i]->present, 1);
		ck_assert_uint_eq(data[i]->type & 0x8, 0); /* data */
		ck_assert_uint_eq(data[i]->type & 0x2, 0x2); /* writable */
	}

	/* tr: a 32-bit TSS, base 0, limit 0x67 (104-byte TSS - 1); system
	 * type 0xb is "32-bit TSS (busy)" (SDM vol. 3, table 3-2). */
	ck_assert_uint_eq(sregs.tr.base, 0);
	ck_assert_uint_eq(sregs.tr.limit, 0x67);
	ck_assert_uint_eq(sregs.tr.type, 0xb);
	ck_assert_uint_eq(sregs.tr.s, 0);
	ck_assert_uint_eq(sregs.tr.present, 1);
}
END_TEST

Suite *boot_pvh_suite(void)
{
	Suite *s = suite_create("boot_pvh");
	TCase *tc = tcase_create("core");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_start_info);
	tcase_add_test(tc, test_memmap_64m);
	tcase_add_test(tc, test_memmap_struct_pure);
	tcase_add_test(tc, test_memmap_high);
	tcase_add_test(tc, test_memmap_tiny);
	tcase_add_test(tc, test_cmdline_limits);
	tcase_add_test(tc, test_ram_too_small);
	tcase_add_test(tc, test_entry_regs);
	suite_add_tcase(s, tc);
	return s;
}
