/* bzimage: the setup header of Linux bzImages (Documentation/arch/x86/
 * boot.rst), on synthetic images crafted in the test and, when the machine
 * has one, the distribution's own /boot/vmlinuz-*. Every rejection says what
 * is wrong in one line; no field is read from outside the file. */
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../vmm/bzimage.h"
#include "../../vmm/file.h"
#include "bzimage_fixture.h"
#include "suites.h"

static uint8_t image[FIX_IMAGE_SIZE];
static struct bzimage k;
static char err[256];

static void setup(void)
{
	bz_fixture(image);
	memset(&k, 0, sizeof(k));
	memset(err, 0, sizeof(err));
}

/* Parse a malloc'd copy of exactly `size` bytes; expect a rejection whose
 * message contains each of the (up to two) strings. */
static void expect_reject(size_t size, const char *want, const char *also)
{
	uint8_t *copy = bz_truncated(image, size);
	int rc = bzimage_parse(copy, size, &k, err, sizeof(err));
	free(copy);
	ck_assert_msg(rc == -1, "accepted; expected '%s'", want);
	ck_assert_msg(strstr(err, want), "'%s' lacks '%s'", err, want);
	if (also)
		ck_assert_msg(strstr(err, also), "'%s' lacks '%s'", err, also);
	ck_assert_msg(!strchr(err, '\n'), "'%s' is not one line", err);
}

START_TEST(test_accepts_fixture)
{
	ck_assert_msg(bzimage_parse(image, sizeof(image), &k, err, sizeof(err)) == 0, "%s", err);
	/* The protected-mode kernel follows (setup_sects + 1) sectors of 512:
	 * (4 + 1) * 512 = 2560; its size is syssize paragraphs of 16 bytes. */
	ck_assert_ptr_eq(k.kernel, image + 2560);
	ck_assert_uint_eq(k.kernel_size, 0x100 * 16);
	ck_assert_uint_eq(k.hdr.version, 0x020f);
	ck_assert_uint_eq(k.hdr.init_size, 0x400000);
	ck_assert_uint_eq(k.hdr.pref_address, 0x1000000);
	ck_assert_uint_eq(k.hdr.cmdline_size, 2047);
	ck_assert_uint_eq(k.hdr.initrd_addr_max, 0x7fffffff);
	/* The header runs from 0x1f1 to 0x202 + 0x6a = 0x26c. */
	ck_assert_ptr_eq(k.hdr_bytes, image + 0x1f1);
	ck_assert_uint_eq(k.hdr_len, 0x26c - 0x1f1);
}
END_TEST

START_TEST(test_detect)
{
	ck_assert(bzimage_detect(image, sizeof(image)));
	/* "HdrS" ends at 0x206: a file one byte shorter cannot have it. */
	ck_assert(bzimage_detect(image, 0x206));
	ck_assert(!bzimage_detect(image, 0x205));
	ck_assert(!bzimage_detect(image, 0));
	image[0x202] = 'h';
	ck_assert(!bzimage_detect(image, sizeof(image)));
}
END_TEST

START_TEST(test_rejects_not_bzimage)
{
	/* Random bytes: no HdrS at 0x202. */
	srand(42);
	for (size_t i = 0; i < sizeof(image); i++)
		image[i] = (uint8_t)rand();
	memcpy(image + 0x202, "XXXX", 4);
	expect_reject(sizeof(image), "not a bzImage", "HdrS");
	expect_reject(100, "not a bzImage", NULL); /* shorter than the header */
	expect_reject(0, "not a bzImage", NULL);
}
END_TEST

START_TEST(test_rejects_bad_boot_flag)
{
	bz_put(image, BZ_BOOT_FLAG, 0x55aa, 2);
	expect_reject(sizeof(image), "boot_flag 0x55aa", "0xaa55");
}
END_TEST

START_TEST(test_rejects_header_past_file)
{
	/* The header ends at 0x26c; a file of 0x240 bytes has HdrS but not the
	 * rest of the header. */
	expect_reject(0x240, "truncated", "0x26c");
	expect_reject(0x26b, "truncated", NULL);
}
END_TEST

START_TEST(test_rejects_setup_past_file)
{
	/* setup_sects 20: 21 * 512 = 10752 bytes of setup in a 6656-byte file. */
	bz_put(image, BZ_SETUP_SECTS, 20, 1);
	expect_reject(sizeof(image), "setup code (10752 bytes", "truncated");
	/* And the fixture cut inside its setup code (2560 bytes). */
	bz_fixture(image);
	expect_reject(2000, "setup code (2560 bytes", NULL);
}
END_TEST

START_TEST(test_rejects_syssize_past_file)
{
	/* One paragraph more than the file has. */
	bz_put(image, BZ_SYSSIZE, FIX_KERNEL_SIZE / 16 + 1, 4);
	expect_reject(sizeof(image), "protected-mode kernel (4112 bytes at offset 2560)",
		      "truncated");
	/* The fixture cut one byte short of its kernel. */
	bz_fixture(image);
	expect_reject(sizeof(image) - 1, "protected-mode kernel", NULL);
	/* A syssize whose byte count overflows 32 bits is still just too big. */
	bz_put(image, BZ_SYSSIZE, 0xffffffff, 4);
	expect_reject(sizeof(image), "protected-mode kernel (68719476720 bytes", NULL);
	bz_put(image, BZ_SYSSIZE, 0, 4);
	expect_reject(sizeof(image), "syssize 0", NULL);
}
END_TEST

START_TEST(test_setup_sects_zero_means_four)
{
	bz_put(image, BZ_SETUP_SECTS, 0, 1);
	ck_assert_msg(bzimage_parse(image, sizeof(image), &k, err, sizeof(err)) == 0, "%s", err);
	ck_assert_ptr_eq(k.kernel, image + 5 * 512);
}
END_TEST

START_TEST(test_rejects_old_protocol)
{
	/* 2.11 (0x020b) lacks nothing vmm needs but xloadflags' meaning. */
	bz_put(image, BZ_VERSION, 0x020b, 2);
	expect_reject(sizeof(image), "boot protocol 2.11 is too old", "2.12 or later");
	bz_put(image, BZ_VERSION, 0x020c, 2);
	ck_assert_msg(bzimage_parse(image, sizeof(image), &k, err, sizeof(err)) == 0, "%s", err);
}
END_TEST

START_TEST(test_rejects_short_header)
{
	/* A 2.12 header must reach init_size (0x260-0x263); this one ends at
	 * 0x202 + 0x50 = 0x252. */
	image[BZ_JUMP + 1] = 0x50;
	expect_reject(sizeof(image), "before init_size", NULL);
}
END_TEST

START_TEST(test_rejects_no_64bit_entry)
{
	bz_put(image, BZ_XLOADFLAGS, 0x2, 2); /* above-4G, but no XLF_KERNEL_64 */
	expect_reject(sizeof(image), "no 64-bit entry", "XLF_KERNEL_64");
}
END_TEST

START_TEST(test_rejects_not_loaded_high)
{
	bz_put(image, BZ_LOADFLAGS, 0x80, 1);
	expect_reject(sizeof(image), "LOADED_HIGH", NULL);
}
END_TEST

START_TEST(test_rejects_not_relocatable)
{
	bz_put(image, BZ_RELOCATABLE, 0, 1);
	expect_reject(sizeof(image), "not relocatable", NULL);
}
END_TEST

START_TEST(test_rejects_bad_alignment)
{
	bz_put(image, BZ_KERNEL_ALIGNMENT, 0x300000, 4);
	expect_reject(sizeof(image), "kernel_alignment 0x300000 is not a power of two", NULL);
	bz_put(image, BZ_KERNEL_ALIGNMENT, 0, 4);
	expect_reject(sizeof(image), "kernel_alignment 0x0", NULL);
}
END_TEST

START_TEST(test_rejects_init_size_below_kernel)
{
	bz_put(image, BZ_INIT_SIZE, FIX_KERNEL_SIZE - 1, 4);
	expect_reject(sizeof(image), "init_size 0xfff is smaller", NULL);
}
END_TEST

START_TEST(test_runtime_range)
{
	uint64_t start, end;
	ck_assert_msg(bzimage_parse(image, sizeof(image), &k, err, sizeof(err)) == 0, "%s", err);
	/* Loaded at 1 MiB: aligned up to 2 MiB is 2 MiB, below pref_address,
	 * so the kernel runs from 16 MiB for init_size 4 MiB. */
	ck_assert(bzimage_runtime_range(&k, 0x100000, &start, &end));
	ck_assert_uint_eq(start, 0x1000000);
	ck_assert_uint_eq(end, 0x1400000);
	/* Without a pref_address, boot.rst's align_up(load, kernel_alignment). */
	k.hdr.pref_address = 0;
	ck_assert(bzimage_runtime_range(&k, 0x100000, &start, &end));
	ck_assert_uint_eq(start, 0x200000);
	ck_assert_uint_eq(end, 0x600000);
	/* A load address already aligned stays put. */
	ck_assert(bzimage_runtime_range(&k, 0x3400000, &start, &end));
	ck_assert_uint_eq(start, 0x3400000);
	/* Sums that wrap are refused, never wrapped. */
	k.hdr.pref_address = UINT64_MAX - 0x1000;
	ck_assert(!bzimage_runtime_range(&k, 0x100000, &start, &end));
	k.hdr.pref_address = 0;
	ck_assert(!bzimage_runtime_range(&k, UINT64_MAX - 0x10, &start, &end));
}
END_TEST

/* The distribution's kernel, if this machine has one: vmm must take it. */
START_TEST(test_real_kernel)
{
	glob_t g;
	if (glob("/boot/vmlinuz-*", 0, NULL, &g) != 0) {
		fprintf(stderr, "# skipped: no /boot/vmlinuz-*\n");
		return;
	}
	for (size_t i = 0; i < g.gl_pathc; i++) {
		void *data;
		size_t size;
		if (file_read_all(g.gl_pathv[i], 256u << 20, &data, &size, err, sizeof(err)) < 0) {
			fprintf(stderr, "# skipped %s: %s\n", g.gl_pathv[i], err);
			continue;
		}
		ck_assert(bzimage_detect(data, size));
		ck_assert_msg(bzimage_parse(data, size, &k, err, sizeof(err)) == 0, "%s: %s",
			      g.gl_pathv[i], err);
		/* What any x86-64 distribution kernel has. */
		ck_assert_uint_ge(k.hdr.version, 0x020c);
		ck_assert_uint_eq(k.hdr.xloadflags & 1, 1);
		ck_assert_uint_ge(k.hdr.init_size, k.kernel_size);
		unsigned sects = k.hdr.setup_sects ? k.hdr.setup_sects : 4;
		ck_assert_ptr_eq(k.kernel, (uint8_t *)data + (sects + 1) * 512);
		ck_assert_uint_le((sects + 1) * 512 + k.kernel_size, size);
		free(data);
	}
	globfree(&g);
}
END_TEST

Suite *bzimage_suite(void)
{
	Suite *s = suite_create("bzimage");
	TCase *tc = tcase_create("core");
	tcase_add_checked_fixture(tc, setup, NULL);
	tcase_add_test(tc, test_accepts_fixture);
	tcase_add_test(tc, test_detect);
	tcase_add_test(tc, test_rejects_not_bzimage);
	tcase_add_test(tc, test_rejects_bad_boot_flag);
	tcase_add_test(tc, test_rejects_header_past_file);
	tcase_add_test(tc, test_rejects_setup_past_file);
	tcase_add_test(tc, test_rejects_syssize_past_file);
	tcase_add_test(tc, test_setup_sects_zero_means_four);
	tcase_add_test(tc, test_rejects_old_protocol);
	tcase_add_test(tc, test_rejects_short_header);
	tcase_add_test(tc, test_rejects_no_64bit_entry);
	tcase_add_test(tc, test_rejects_not_loaded_high);
	tcase_add_test(tc, test_rejects_not_relocatable);
	tcase_add_test(tc, test_rejects_bad_alignment);
	tcase_add_test(tc, test_rejects_init_size_below_kernel);
	tcase_add_test(tc, test_runtime_range);
	tcase_add_test(tc, test_real_kernel);
	suite_add_tcase(s, tc);
	return s;
}
