/* guest_mem: the one bounds-checked guest-physical -> host translation. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../vmm/guest_mem.h"
#include "../../vmm/layout.h"
#include "suites.h"

#define SMALL_RAM (64 * KiB)

static uint8_t *ram;
static struct guest_mem mem;

static void small_setup(void)
{
	ram = malloc(SMALL_RAM);
	ck_assert_ptr_nonnull(ram);
	ck_assert(guest_mem_layout(&mem, ram, SMALL_RAM));
}

static void small_teardown(void)
{
	free(ram);
	ram = NULL;
}

START_TEST(test_layout_small_is_one_region)
{
	ck_assert_uint_eq(mem.nregions, 1);
	ck_assert_uint_eq(mem.region[0].gpa, 0);
	ck_assert_uint_eq(mem.region[0].size, SMALL_RAM);
	ck_assert_ptr_eq(mem.region[0].host, ram);
	ck_assert_uint_eq(mem.ram_size, SMALL_RAM);
}
END_TEST

START_TEST(test_layout_zero_rejected)
{
	struct guest_mem m;
	ck_assert(!guest_mem_layout(&m, ram, 0));
}
END_TEST

START_TEST(test_range_inside)
{
	/* gpa 0x1000 is 4096 bytes into the one region that starts at gpa 0. */
	ck_assert_ptr_eq(guest_mem_ptr(&mem, 0x1000, 16), ram + 0x1000);
	ck_assert_ptr_eq(guest_mem_ptr(&mem, 0, 1), ram);
	/* The whole of RAM is one valid range. */
	ck_assert_ptr_eq(guest_mem_ptr(&mem, 0, SMALL_RAM), ram);
}
END_TEST

START_TEST(test_last_byte)
{
	ck_assert_ptr_eq(guest_mem_ptr(&mem, SMALL_RAM - 1, 1), ram + SMALL_RAM - 1);
	/* The last 8 bytes: [SMALL_RAM - 8, SMALL_RAM). */
	ck_assert_ptr_eq(guest_mem_ptr(&mem, SMALL_RAM - 8, 8), ram + SMALL_RAM - 8);
}
END_TEST

START_TEST(test_straddles_end)
{
	/* [SMALL_RAM - 1, SMALL_RAM + 1) has one byte past the end. */
	ck_assert_ptr_null(guest_mem_ptr(&mem, SMALL_RAM - 1, 2));
	ck_assert_ptr_null(guest_mem_ptr(&mem, SMALL_RAM - 8, 9));
	ck_assert_ptr_null(guest_mem_ptr(&mem, 0, SMALL_RAM + 1));
}
END_TEST

START_TEST(test_gpa_at_end)
{
	ck_assert_ptr_null(guest_mem_ptr(&mem, SMALL_RAM, 1));
	ck_assert_ptr_null(guest_mem_ptr(&mem, SMALL_RAM + 0x1000, 1));
}
END_TEST

START_TEST(test_len_zero)
{
	/* Documented: len 0 is rejected, even at an address that is RAM. */
	ck_assert_ptr_null(guest_mem_ptr(&mem, 0, 0));
	ck_assert_ptr_null(guest_mem_ptr(&mem, 0x1000, 0));
}
END_TEST

START_TEST(test_wrapping)
{
	/* UINT64_MAX - 1 + 4 wraps to 2: a naive "gpa + len <= end" check
	 * would accept it. */
	ck_assert_ptr_null(guest_mem_ptr(&mem, UINT64_MAX - 1, 4));
	/* 1 + UINT64_MAX wraps to 0. */
	ck_assert_ptr_null(guest_mem_ptr(&mem, 1, UINT64_MAX));
	ck_assert_ptr_null(guest_mem_ptr(&mem, 0, UINT64_MAX));
	ck_assert_ptr_null(guest_mem_ptr(&mem, UINT64_MAX, 1));
	/* len just large enough that gpa + len wraps to exactly the start. */
	ck_assert_ptr_null(guest_mem_ptr(&mem, 0x1000, UINT64_MAX - 0xfff + 1));
}
END_TEST

START_TEST(test_read_write)
{
	memset(ram, 0, SMALL_RAM);
	const uint8_t pattern[4] = { 1, 2, 3, 4 };
	ck_assert(guest_mem_write(&mem, 0x100, pattern, sizeof(pattern)));
	ck_assert_mem_eq(ram + 0x100, pattern, sizeof(pattern));
	uint8_t back[4] = { 0 };
	ck_assert(guest_mem_read(&mem, 0x100, back, sizeof(back)));
	ck_assert_mem_eq(back, pattern, sizeof(pattern));

	/* A write straddling the end writes nothing at all. */
	ck_assert(!guest_mem_write(&mem, SMALL_RAM - 2, pattern, sizeof(pattern)));
	ck_assert_uint_eq(ram[SMALL_RAM - 2], 0);
	ck_assert_uint_eq(ram[SMALL_RAM - 1], 0);
	/* A read straddling the end leaves the destination untouched. */
	uint8_t untouched[4] = { 9, 9, 9, 9 };
	ck_assert(!guest_mem_read(&mem, SMALL_RAM - 2, untouched, sizeof(untouched)));
	ck_assert_uint_eq(untouched[0], 9);
}
END_TEST

START_TEST(test_region_end_small)
{
	ck_assert_uint_eq(guest_mem_region_end(&mem, 0), SMALL_RAM);
	ck_assert_uint_eq(guest_mem_region_end(&mem, SMALL_RAM - 1), SMALL_RAM);
	ck_assert_uint_eq(guest_mem_region_end(&mem, SMALL_RAM), 0);
	ck_assert_uint_eq(guest_mem_region_end(&mem, UINT64_MAX), 0);
}
END_TEST

/* RAM larger than the 3 GiB below the MMIO hole: a fake host pointer, used
 * only for pointer arithmetic and comparison, never dereferenced. */
#define BIG_RAM (5 * GiB)
static uint8_t *const fake_host = (uint8_t *)(uintptr_t)0x100000000000ULL;

static void big_layout(struct guest_mem *m)
{
	ck_assert(guest_mem_layout(m, fake_host, BIG_RAM));
}

START_TEST(test_split_layout)
{
	struct guest_mem m;
	big_layout(&m);
	/* 5 GiB = 3 GiB below the hole + 2 GiB from 4 GiB up. */
	ck_assert_uint_eq(m.nregions, 2);
	ck_assert_uint_eq(m.region[0].gpa, 0);
	ck_assert_uint_eq(m.region[0].size, 3 * GiB);
	ck_assert_uint_eq(m.region[1].gpa, 4 * GiB);
	ck_assert_uint_eq(m.region[1].size, 2 * GiB);
	ck_assert_uint_eq(m.ram_size, BIG_RAM);
}
END_TEST

START_TEST(test_split_hole_is_not_ram)
{
	struct guest_mem m;
	big_layout(&m);
	ck_assert_ptr_null(guest_mem_ptr(&m, 3 * GiB, 1));
	ck_assert_ptr_null(guest_mem_ptr(&m, 0xfee00000ULL, 4)); /* LAPIC */
	ck_assert_ptr_null(guest_mem_ptr(&m, 4 * GiB - 1, 1));
}
END_TEST

START_TEST(test_split_high_mapping)
{
	struct guest_mem m;
	big_layout(&m);
	/* The host mapping is contiguous: the byte after the last low byte
	 * (host + 3 GiB - 1) backs guest 4 GiB. */
	ck_assert_ptr_eq(guest_mem_ptr(&m, 4 * GiB, 1), fake_host + 3 * GiB);
	ck_assert_ptr_eq(guest_mem_ptr(&m, 4 * GiB + 0x1234, 8), fake_host + 3 * GiB + 0x1234);
	/* Last byte of RAM: guest 6 GiB - 1 = host + 5 GiB - 1. */
	ck_assert_ptr_eq(guest_mem_ptr(&m, 6 * GiB - 1, 1), fake_host + 5 * GiB - 1);
	ck_assert_ptr_null(guest_mem_ptr(&m, 6 * GiB, 1));
	ck_assert_ptr_null(guest_mem_ptr(&m, 6 * GiB - 1, 2));
	/* Low RAM still maps 1:1. */
	ck_assert_ptr_eq(guest_mem_ptr(&m, 3 * GiB - 1, 1), fake_host + 3 * GiB - 1);
}
END_TEST

START_TEST(test_split_crossing_into_hole)
{
	struct guest_mem m;
	big_layout(&m);
	/* [3 GiB - 2, 3 GiB + 2): two bytes of RAM, two of hole. */
	ck_assert_ptr_null(guest_mem_ptr(&m, 3 * GiB - 2, 4));
	/* [4 GiB - 2, 4 GiB + 2): two bytes of hole, two of RAM. */
	ck_assert_ptr_null(guest_mem_ptr(&m, 4 * GiB - 2, 4));
	/* All of low RAM through the start of high RAM: not one region. */
	ck_assert_ptr_null(guest_mem_ptr(&m, 0, 4 * GiB + 1));
}
END_TEST

START_TEST(test_split_region_end)
{
	struct guest_mem m;
	big_layout(&m);
	ck_assert_uint_eq(guest_mem_region_end(&m, 0), 3 * GiB);
	ck_assert_uint_eq(guest_mem_region_end(&m, 3 * GiB - 1), 3 * GiB);
	ck_assert_uint_eq(guest_mem_region_end(&m, 3 * GiB), 0);
	ck_assert_uint_eq(guest_mem_region_end(&m, 4 * GiB - 1), 0);
	ck_assert_uint_eq(guest_mem_region_end(&m, 4 * GiB), 6 * GiB);
	ck_assert_uint_eq(guest_mem_region_end(&m, 6 * GiB - 1), 6 * GiB);
	ck_assert_uint_eq(guest_mem_region_end(&m, 6 * GiB), 0);
}
END_TEST

START_TEST(test_exactly_3g_is_one_region)
{
	struct guest_mem m;
	ck_assert(guest_mem_layout(&m, fake_host, 3 * GiB));
	ck_assert_uint_eq(m.nregions, 1);
	ck_assert_uint_eq(m.region[0].size, 3 * GiB);
	ck_assert_ptr_null(guest_mem_ptr(&m, 4 * GiB, 1));
}
END_TEST

Suite *guest_mem_suite(void)
{
	Suite *s = suite_create("guest_mem");
	TCase *tc = tcase_create("small");
	tcase_add_checked_fixture(tc, small_setup, small_teardown);
	tcase_add_test(tc, test_layout_small_is_one_region);
	tcase_add_test(tc, test_layout_zero_rejected);
	tcase_add_test(tc, test_range_inside);
	tcase_add_test(tc, test_last_byte);
	tcase_add_test(tc, test_straddles_end);
	tcase_add_test(tc, test_gpa_at_end);
	tcase_add_test(tc, test_len_zero);
	tcase_add_test(tc, test_wrapping);
	tcase_add_test(tc, test_read_write);
	tcase_add_test(tc, test_region_end_small);
	suite_add_tcase(s, tc);

	tc = tcase_create("split");
	tcase_add_test(tc, test_split_layout);
	tcase_add_test(tc, test_split_hole_is_not_ram);
	tcase_add_test(tc, test_split_high_mapping);
	tcase_add_test(tc, test_split_crossing_into_hole);
	tcase_add_test(tc, test_split_region_end);
	tcase_add_test(tc, test_exactly_3g_is_one_region);
	suite_add_tcase(s, tc);
	return s;
}
