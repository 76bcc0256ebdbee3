/* elf_loader: PVH ELF kernels, built by hand in the test (no toolchain
 * output), loaded into a fake guest RAM. Every rejection must leave guest
 * RAM untouched (validate, then copy) and say what is wrong. */
#include <elf.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../vmm/elf_loader.h"
#include "../../vmm/guest_mem.h"
#include "../../vmm/layout.h"
#include "suites.h"

#define RAM_SIZE (1 * MiB)
#define RAM_FILL 0xaa

/* XEN_ELFNOTE_PHYS32_ENTRY, xen/include/public/elfnote.h. */
#define XEN_NOTE_PHYS32_ENTRY 18

/* File layout of the hand-made image. */
#define PHDR_OFF 0x40  /* right after the 64-byte Elf64_Ehdr */
#define NOTE_OFF 0x100
#define SEG1_OFF 0x200
#define SEG1_FILESZ 0x100
#define SEG2_OFF 0x300
#define SEG2_FILESZ 0x80
#define IMAGE_SIZE 0x380 /* SEG2_OFF + SEG2_FILESZ */

/* Guest layout: segment 1 is text, segment 2 has 0x1000 - 0x80 bytes of bss. */
#define SEG1_PADDR 0x10000
#define SEG2_PADDR 0x20000
#define SEG2_MEMSZ 0x1000
#define ENTRY 0x10010 /* inside segment 1 */

enum { PH_NOTE, PH_SEG1, PH_SEG2, PH_MAX = 4 };

struct kimg {
	Elf64_Ehdr eh;
	Elf64_Phdr ph[PH_MAX];
	unsigned nph;
	uint32_t note_type;
	char note_name[4];
	uint32_t note_descsz; /* 4 or 8 */
	uint64_t note_entry;
	uint8_t bytes[4096];
	size_t size; /* of the serialised image */
};

static struct kimg k;
static uint8_t *ram;
static struct guest_mem mem;
static struct kernel_entry out;
static char err[256];

static void default_image(void)
{
	memset(&k, 0, sizeof(k));
	memcpy(k.eh.e_ident, ELFMAG, SELFMAG);
	k.eh.e_ident[EI_CLASS] = ELFCLASS64;
	k.eh.e_ident[EI_DATA] = ELFDATA2LSB;
	k.eh.e_ident[EI_VERSION] = EV_CURRENT;
	k.eh.e_ident[EI_OSABI] = ELFOSABI_SYSV;
	k.eh.e_type = ET_EXEC;
	k.eh.e_machine = EM_X86_64;
	k.eh.e_version = EV_CURRENT;
	/* The 64-bit entry is not the PVH entry: the loader must use the note. */
	k.eh.e_entry = 0xffffffff81000000ULL;
	k.eh.e_phoff = PHDR_OFF;
	k.eh.e_ehsize = sizeof(Elf64_Ehdr);
	k.eh.e_phentsize = sizeof(Elf64_Phdr);

	k.ph[PH_NOTE] = (Elf64_Phdr){ .p_type = PT_NOTE, .p_flags = PF_R, .p_offset = NOTE_OFF,
				      .p_filesz = 20, .p_memsz = 20, .p_align = 4 };
	/* vaddr differs from paddr: the loader must place bytes at p_paddr. */
	k.ph[PH_SEG1] = (Elf64_Phdr){ .p_type = PT_LOAD, .p_flags = PF_R | PF_X,
				      .p_offset = SEG1_OFF, .p_vaddr = 0xffffffff80000000ULL + SEG1_PADDR,
				      .p_paddr = SEG1_PADDR, .p_filesz = SEG1_FILESZ,
				      .p_memsz = SEG1_FILESZ, .p_align = 0x100 };
	k.ph[PH_SEG2] = (Elf64_Phdr){ .p_type = PT_LOAD, .p_flags = PF_R | PF_W,
				      .p_offset = SEG2_OFF, .p_vaddr = 0xffffffff80000000ULL + SEG2_PADDR,
				      .p_paddr = SEG2_PADDR, .p_filesz = SEG2_FILESZ,
				      .p_memsz = SEG2_MEMSZ, .p_align = 0x100 };
	k.nph = 3;
	memcpy(k.note_name, "Xen", 4);
	k.note_type = XEN_NOTE_PHYS32_ENTRY;
	k.note_descsz = 4;
	k.note_entry = ENTRY;
}

static void build(void)
{
	memset(k.bytes, 0, sizeof(k.bytes));
	k.eh.e_phnum = (Elf64_Half)k.nph;
	memcpy(k.bytes, &k.eh, sizeof(k.eh));
	memcpy(k.bytes + PHDR_OFF, k.ph, k.nph * sizeof(Elf64_Phdr));
	Elf64_Nhdr nh = { .n_namesz = 4, .n_descsz = k.note_descsz, .n_type = k.note_type };
	memcpy(k.bytes + NOTE_OFF, &nh, sizeof(nh));
	memcpy(k.bytes + NOTE_OFF + 12, k.note_name, 4);
	memcpy(k.bytes + NOTE_OFF + 16, &k.note_entry, k.note_descsz); /* little-endian host */
	/* Recognisable, position-dependent segment contents. */
	for (unsigned i = 0; i < SEG1_FILESZ; i++)
		k.bytes[SEG1_OFF + i] = (uint8_t)(i * 7 + 1);
	for (unsigned i = 0; i < SEG2_FILESZ; i++)
		k.bytes[SEG2_OFF + i] = (uint8_t)(0x50 + i);
	k.size = IMAGE_SIZE;
}

static void setup(void)
{
	ram = malloc(RAM_SIZE);
	ck_assert_ptr_nonnull(ram);
	memset(ram, RAM_FILL, RAM_SIZE);
	ck_assert(guest_mem_layout(&mem, ram, RAM_SIZE));
	memset(&out, 0, sizeof(out));
	memset(err, 0, sizeof(err));
	default_image();
}

static void teardown(void)
{
	free(ram);
}

/* Bytes of guest RAM in [from, to) that are not `v`. */
static size_t count_not(uint64_t from, uint64_t to, uint8_t v)
{
	size_t n = 0;
	for (uint64_t a = from; a < to; a++)
		n += ram[a] != v;
	return n;
}

/* elf_load on a copy of `image`, checking the image is left as it was. */
static int load_image(const uint8_t *image, size_t size)
{
	uint8_t *copy = malloc(size ? size : 1);
	ck_assert_ptr_nonnull(copy);
	memcpy(copy, image, size);
	int rc = elf_load(copy, size, &mem, &out, err, sizeof(err));
	ck_assert_msg(memcmp(copy, image, size) == 0, "elf_load modified the image");
	free(copy);
	return rc;
}

static int load(void)
{
	return load_image(k.bytes, k.size);
}

static void expect_reject(const char *keyword)
{
	int rc = load();
	ck_assert_msg(rc == -1, "image accepted (rc %d), expected an error about '%s'", rc, keyword);
	ck_assert_msg(strstr(err, keyword) != NULL, "error '%s' does not mention '%s'", err, keyword);
	ck_assert_msg(count_not(0, RAM_SIZE, RAM_FILL) == 0, "guest RAM modified on error '%s'", err);
}

START_TEST(test_valid_image)
{
	build();
	ck_assert_msg(load() == 0, "%s", err);
	ck_assert_uint_eq(out.entry, ENTRY);
	/* Highest segment end: 0x20000 + 0x1000. */
	ck_assert_uint_eq(out.load_end, 0x21000);
	/* Segment 1's file bytes at p_paddr. */
	ck_assert_mem_eq(ram + SEG1_PADDR, k.bytes + SEG1_OFF, SEG1_FILESZ);
	ck_assert_mem_eq(ram + SEG2_PADDR, k.bytes + SEG2_OFF, SEG2_FILESZ);
	/* bss: memsz - filesz = 0x1000 - 0x80 bytes of zeros over the 0xaa fill. */
	ck_assert_uint_eq(count_not(SEG2_PADDR + SEG2_FILESZ, SEG2_PADDR + SEG2_MEMSZ, 0),
			  0);
	/* Nothing else written: before, between and after the segments. */
	ck_assert_uint_eq(count_not(0, SEG1_PADDR, RAM_FILL), 0);
	ck_assert_uint_eq(count_not(SEG1_PADDR + SEG1_FILESZ, SEG2_PADDR, RAM_FILL), 0);
	ck_assert_uint_eq(count_not(SEG2_PADDR + SEG2_MEMSZ, RAM_SIZE, RAM_FILL), 0);
}
END_TEST

START_TEST(test_valid_8_byte_note)
{
	/* Linux's PVH note is an _ASM_PTR: 8 bytes on x86-64. */
	k.note_descsz = 8;
	k.note_entry = 0x10020;
	k.ph[PH_NOTE].p_filesz = k.ph[PH_NOTE].p_memsz = 24; /* 12 + 4 + 8 */
	build();
	ck_assert_msg(load() == 0, "%s", err);
	ck_assert_uint_eq(out.entry, 0x10020);
}
END_TEST

START_TEST(test_segment_at_boot_area_end)
{
	/* [0x8000, ...) is the guest's: a segment may start exactly there. */
	k.ph[PH_SEG1].p_paddr = BOOT_AREA_END;
	k.note_entry = BOOT_AREA_END;
	build();
	ck_assert_msg(load() == 0, "%s", err);
	ck_assert_mem_eq(ram + BOOT_AREA_END, k.bytes + SEG1_OFF, SEG1_FILESZ);
	ck_assert_uint_eq(count_not(0, BOOT_AREA_END, RAM_FILL), 0);
}
END_TEST

START_TEST(test_segment_at_ram_end)
{
	/* Segment 2 ends exactly at the end of RAM: [1 MiB - 0x1000, 1 MiB). */
	k.ph[PH_SEG2].p_paddr = RAM_SIZE - SEG2_MEMSZ;
	build();
	ck_assert_msg(load() == 0, "%s", err);
	ck_assert_uint_eq(out.load_end, RAM_SIZE);
	ck_assert_uint_eq(ram[RAM_SIZE - 1], 0);
}
END_TEST

START_TEST(test_reject_outside_ram)
{
	/* Segment 1 is fine; segment 2 at 2 MiB is beyond 1 MiB of RAM. */
	k.ph[PH_SEG2].p_paddr = 2 * MiB;
	build();
	expect_reject("outside guest RAM");
}
END_TEST

START_TEST(test_reject_straddling_ram_end)
{
	/* [1 MiB - 0x800, 1 MiB + 0x800): half in, half out. */
	k.ph[PH_SEG2].p_paddr = RAM_SIZE - 0x800;
	build();
	expect_reject("outside guest RAM");
}
END_TEST

START_TEST(test_reject_wrapping_segment)
{
	/* paddr + memsz wraps past 2^64 back into RAM. */
	k.ph[PH_SEG2].p_paddr = UINT64_MAX - 0x7ff;
	build();
	expect_reject("outside guest RAM");
}
END_TEST

START_TEST(test_reject_boot_area)
{
	/* [0x7800, 0x8800) covers the last 0x800 bytes of the boot area. */
	k.ph[PH_SEG2].p_paddr = 0x7800;
	build();
	expect_reject("boot");
}
END_TEST

START_TEST(test_reject_boot_area_start)
{
	/* At 0x0: would overwrite the real-mode IVT area and start_info at 0x1000. */
	k.ph[PH_SEG1].p_paddr = 0;
	k.ph[PH_SEG1].p_memsz = 0x10;
	k.ph[PH_SEG1].p_filesz = 0x10;
	build();
	expect_reject("boot");
}
END_TEST

START_TEST(test_reject_fdt_area)
{
	/* The FDT lives in [FDT_ADDR, FDT_ADDR + FDT_MAX_SIZE) (layout.h);
	 * [FDT_ADDR - 0x800, FDT_ADDR + 0x800) reaches into it from below. */
	k.ph[PH_SEG2].p_paddr = FDT_ADDR - 0x800;
	build();
	expect_reject("boot");
	/* ... and from inside its last byte. */
	default_image();
	k.ph[PH_SEG2].p_paddr = FDT_ADDR + FDT_MAX_SIZE - 1;
	build();
	expect_reject("boot");
	/* Right after it is the guest's. */
	default_image();
	k.ph[PH_SEG2].p_paddr = FDT_ADDR + FDT_MAX_SIZE;
	build();
	ck_assert_msg(load() == 0, "%s", err);
}
END_TEST

START_TEST(test_reject_overlapping_segments)
{
	/* Segment 1 is [0x10000, 0x10100); segment 2 moved to [0x100f0, 0x110f0). */
	k.ph[PH_SEG2].p_paddr = 0x100f0;
	build();
	expect_reject("overlap");
	ck_assert_ptr_null(strstr(err, "boot"));
}
END_TEST

START_TEST(test_reject_filesz_gt_memsz)
{
	k.ph[PH_SEG2].p_memsz = 0x40; /* filesz is 0x80 */
	build();
	expect_reject("file size");
}
END_TEST

START_TEST(test_reject_truncated)
{
	build();
	/* Segment 2's data is [0x300, 0x380); cut the file at 0x340. */
	k.size = 0x340;
	expect_reject("end of the file");
}
END_TEST

START_TEST(test_reject_offset_past_file)
{
	/* offset + filesz wraps: 0xffffffffffffff80 + 0x80 = 2^64. */
	k.ph[PH_SEG2].p_offset = UINT64_MAX - 0x7f;
	build();
	expect_reject("end of the file");
}
END_TEST

START_TEST(test_reject_elfclass32)
{
	/* A well-formed 32-bit x86 executable with one segment. */
	Elf32_Ehdr eh = { .e_type = ET_EXEC, .e_machine = EM_386, .e_version = EV_CURRENT,
			  .e_entry = 0x10000, .e_phoff = sizeof(Elf32_Ehdr),
			  .e_ehsize = sizeof(Elf32_Ehdr), .e_phentsize = sizeof(Elf32_Phdr),
			  .e_phnum = 1 };
	memcpy(eh.e_ident, ELFMAG, SELFMAG);
	eh.e_ident[EI_CLASS] = ELFCLASS32;
	eh.e_ident[EI_DATA] = ELFDATA2LSB;
	eh.e_ident[EI_VERSION] = EV_CURRENT;
	Elf32_Phdr ph = { .p_type = PT_LOAD, .p_offset = 0x100, .p_vaddr = 0x10000,
			  .p_paddr = 0x10000, .p_filesz = 0x10, .p_memsz = 0x10, .p_align = 4 };
	memset(k.bytes, 0x90, sizeof(k.bytes));
	memcpy(k.bytes, &eh, sizeof(eh));
	memcpy(k.bytes + sizeof(eh), &ph, sizeof(ph));
	k.size = 0x110;
	expect_reject("64-bit");
}
END_TEST

START_TEST(test_reject_em_386)
{
	k.eh.e_machine = EM_386;
	build();
	expect_reject("x86-64");
	ck_assert_ptr_nonnull(strstr(err, "machine"));
}
END_TEST

START_TEST(test_reject_aarch64)
{
	k.eh.e_machine = EM_AARCH64;
	build();
	expect_reject("machine");
}
END_TEST

START_TEST(test_reject_et_dyn)
{
	k.eh.e_type = ET_DYN;
	build();
	expect_reject("executable");
}
END_TEST

START_TEST(test_reject_big_endian)
{
	build();
	k.bytes[EI_DATA] = ELFDATA2MSB;
	expect_reject("little-endian");
}
END_TEST

START_TEST(test_reject_bad_phentsize)
{
	k.eh.e_phentsize = sizeof(Elf64_Phdr) - 8;
	build();
	int rc = load();
	ck_assert_int_eq(rc, -1);
	ck_assert_uint_eq(count_not(0, RAM_SIZE, RAM_FILL), 0);
}
END_TEST

START_TEST(test_reject_no_load_segments)
{
	k.nph = 1; /* the note only */
	build();
	expect_reject("no loadable segments");
}
END_TEST

START_TEST(test_reject_only_empty_load)
{
	/* A PT_LOAD with memsz 0 loads nothing. */
	k.ph[PH_SEG1].p_filesz = k.ph[PH_SEG1].p_memsz = 0;
	k.nph = 2;
	build();
	expect_reject("no loadable segments");
}
END_TEST

START_TEST(test_reject_no_note)
{
	/* Drop the PT_NOTE header: put segment 2 in its slot. */
	k.ph[PH_NOTE] = k.ph[PH_SEG2];
	k.nph = 2;
	build();
	expect_reject("PVH");
}
END_TEST

START_TEST(test_reject_wrong_note_type)
{
	k.note_type = 17; /* XEN_ELFNOTE_SUPPORTED_FEATURES, not the entry */
	build();
	expect_reject("PVH");
}
END_TEST

START_TEST(test_reject_wrong_note_name)
{
	memcpy(k.note_name, "Xem", 4);
	build();
	expect_reject("PVH");
}
END_TEST

START_TEST(test_reject_entry_outside_segments)
{
	/* 0x30000 is RAM, but no segment covers it. */
	k.note_entry = 0x30000;
	build();
	expect_reject("not inside a loaded segment");
}
END_TEST

START_TEST(test_reject_entry_just_past_segment)
{
	/* Segment 1 is [0x10000, 0x10100): 0x10100 is one past its end. */
	k.note_entry = SEG1_PADDR + SEG1_FILESZ;
	build();
	expect_reject("not inside a loaded segment");
}
END_TEST

START_TEST(test_reject_not_elf)
{
	static const uint8_t text[] = "#!/bin/sh\necho this is not a kernel\n";
	int rc = load_image(text, sizeof(text) - 1);
	ck_assert_int_eq(rc, -1);
	ck_assert_msg(strstr(err, "not an ELF") != NULL, "error: %s", err);
	ck_assert_uint_eq(count_not(0, RAM_SIZE, RAM_FILL), 0);
}
END_TEST

START_TEST(test_reject_empty)
{
	/* file_read_all gives a 0-byte file as a valid pointer and size 0. */
	static const uint8_t nothing[1] = { 0 };
	int rc = load_image(nothing, 0);
	ck_assert_int_eq(rc, -1);
	ck_assert_msg(strstr(err, "not an ELF") != NULL, "error: %s", err);
	ck_assert_uint_eq(count_not(0, RAM_SIZE, RAM_FILL), 0);
}
END_TEST

START_TEST(test_reject_truncated_header)
{
	build();
	k.size = 40; /* less than an Elf64_Ehdr */
	int rc = load();
	ck_assert_int_eq(rc, -1);
	ck_assert_uint_eq(count_not(0, RAM_SIZE, RAM_FILL), 0);
}
END_TEST

Suite *elf_loader_suite(void)
{
	Suite *s = suite_create("elf_loader");
	TCase *tc = tcase_create("valid");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_valid_image);
	tcase_add_test(tc, test_valid_8_byte_note);
	tcase_add_test(tc, test_segment_at_boot_area_end);
	tcase_add_test(tc, test_segment_at_ram_end);
	suite_add_tcase(s, tc);

	tc = tcase_create("reject");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_reject_outside_ram);
	tcase_add_test(tc, test_reject_straddling_ram_end);
	tcase_add_test(tc, test_reject_wrapping_segment);
	tcase_add_test(tc, test_reject_boot_area);
	tcase_add_test(tc, test_reject_boot_area_start);
	tcase_add_test(tc, test_reject_fdt_area);
	tcase_add_test(tc, test_reject_overlapping_segments);
	tcase_add_test(tc, test_reject_filesz_gt_memsz);
	tcase_add_test(tc, test_reject_truncated);
	tcase_add_test(tc, test_reject_offset_past_file);
	tcase_add_test(tc, test_reject_elfclass32);
	tcase_add_test(tc, test_reject_em_386);
	tcase_add_test(tc, test_reject_aarch64);
	tcase_add_test(tc, test_reject_et_dyn);
	tcase_add_test(tc, test_reject_big_endian);
	tcase_add_test(tc, test_reject_bad_phentsize);
	tcase_add_test(tc, test_reject_no_load_segments);
	tcase_add_test(tc, test_reject_only_empty_load);
	tcase_add_test(tc, test_reject_no_note);
	tcase_add_test(tc, test_reject_wrong_note_type);
	tcase_add_test(tc, test_reject_wrong_note_name);
	tcase_add_test(tc, test_reject_entry_outside_segments);
	tcase_add_test(tc, test_reject_entry_just_past_segment);
	tcase_add_test(tc, test_reject_not_elf);
	tcase_add_test(tc, test_reject_empty);
	tcase_add_test(tc, test_reject_truncated_header);
	suite_add_tcase(s, tc);
	return s;
}
