/* io_bus: range registration and dispatch by address. */
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "../../vmm/io_bus.h"
#include "suites.h"

struct recorder {
	unsigned calls;
	uint64_t offset;
	uint32_t size;
	bool is_write;
	uint8_t written[8];
	uint8_t reply; /* what reads return, in every byte */
};

static void record(void *opaque, uint64_t offset, uint8_t *data, uint32_t size, bool is_write)
{
	struct recorder *r = opaque;
	r->calls++;
	r->offset = offset;
	r->size = size;
	r->is_write = is_write;
	if (is_write)
		memcpy(r->written, data, size < 8 ? size : 8);
	else
		memset(data, r->reply, size);
}

static struct io_bus bus;
static struct recorder rec_a, rec_b;

static void setup(void)
{
	memset(&bus, 0, sizeof(bus));
	memset(&rec_a, 0, sizeof(rec_a));
	memset(&rec_b, 0, sizeof(rec_b));
	rec_a.reply = 0xa1;
	rec_b.reply = 0xb2;
}

START_TEST(test_register_and_find)
{
	ck_assert_int_eq(io_bus_register(&bus, 0x3f8, 8, record, &rec_a, "a"), 0);
	const struct io_range *r = io_bus_find(&bus, 0x3f8, 1);
	ck_assert_ptr_nonnull(r);
	ck_assert_uint_eq(r->base, 0x3f8);
	ck_assert_uint_eq(r->len, 8);
	ck_assert_ptr_eq(r->opaque, &rec_a);
	ck_assert_str_eq(r->name, "a");
	/* [0x3f8, 0x400): 0x3ff is the last port, 0x3f7 and 0x400 are outside. */
	ck_assert_ptr_eq(io_bus_find(&bus, 0x3ff, 1), r);
	ck_assert_ptr_null(io_bus_find(&bus, 0x3f7, 1));
	ck_assert_ptr_null(io_bus_find(&bus, 0x400, 1));
	/* A 4-byte access at 0x3fc covers 0x3fc-0x3ff: inside. */
	ck_assert_ptr_eq(io_bus_find(&bus, 0x3fc, 4), r);
}
END_TEST

START_TEST(test_overlap_rejected)
{
	ck_assert_int_eq(io_bus_register(&bus, 0x100, 0x10, record, &rec_a, "a"), 0);
	/* From below: [0xf8, 0x101) shares 0x100. */
	ck_assert_int_eq(io_bus_register(&bus, 0xf8, 9, record, &rec_b, "b"), -EEXIST);
	/* From above: [0x10f, 0x120) shares 0x10f. */
	ck_assert_int_eq(io_bus_register(&bus, 0x10f, 0x11, record, &rec_b, "b"), -EEXIST);
	/* Same base. */
	ck_assert_int_eq(io_bus_register(&bus, 0x100, 1, record, &rec_b, "b"), -EEXIST);
	/* Strictly inside. */
	ck_assert_int_eq(io_bus_register(&bus, 0x104, 2, record, &rec_b, "b"), -EEXIST);
	/* Containing the whole range. */
	ck_assert_int_eq(io_bus_register(&bus, 0x0, 0x1000, record, &rec_b, "b"), -EEXIST);
	ck_assert_uint_eq(bus.count, 1);
}
END_TEST

START_TEST(test_overlap_between_two)
{
	ck_assert_int_eq(io_bus_register(&bus, 0x100, 0x10, record, &rec_a, "a"), 0);
	ck_assert_int_eq(io_bus_register(&bus, 0x200, 0x10, record, &rec_a, "a2"), 0);
	/* A range spanning the gap touches both neighbours. */
	ck_assert_int_eq(io_bus_register(&bus, 0x10f, 0xf2, record, &rec_b, "b"), -EEXIST);
	ck_assert_int_eq(io_bus_register(&bus, 0x110, 0xf1, record, &rec_b, "b"), -EEXIST);
	/* Exactly the gap [0x110, 0x200) fits. */
	ck_assert_int_eq(io_bus_register(&bus, 0x110, 0xf0, record, &rec_b, "b"), 0);
	ck_assert_uint_eq(bus.count, 3);
}
END_TEST

START_TEST(test_adjacent_accepted)
{
	ck_assert_int_eq(io_bus_register(&bus, 0x100, 0x10, record, &rec_a, "a"), 0);
	/* [0xf0, 0x100) ends where a begins; [0x110, 0x120) begins where a ends. */
	ck_assert_int_eq(io_bus_register(&bus, 0xf0, 0x10, record, &rec_b, "below"), 0);
	ck_assert_int_eq(io_bus_register(&bus, 0x110, 0x10, record, &rec_b, "above"), 0);
	ck_assert_str_eq(io_bus_find(&bus, 0xff, 1)->name, "below");
	ck_assert_str_eq(io_bus_find(&bus, 0x100, 1)->name, "a");
	ck_assert_str_eq(io_bus_find(&bus, 0x10f, 1)->name, "a");
	ck_assert_str_eq(io_bus_find(&bus, 0x110, 1)->name, "above");
}
END_TEST

START_TEST(test_invalid_ranges)
{
	ck_assert_int_eq(io_bus_register(&bus, 0x100, 0, record, &rec_a, "zero"), -EINVAL);
	/* UINT64_MAX - 1 + 4 wraps past 2^64. */
	ck_assert_int_eq(io_bus_register(&bus, UINT64_MAX - 1, 4, record, &rec_a, "wrap"), -EINVAL);
	ck_assert_int_eq(io_bus_register(&bus, 1, UINT64_MAX, record, &rec_a, "wrap"), -EINVAL);
	ck_assert_int_eq(io_bus_register(&bus, 0x100, 1, NULL, &rec_a, "nohandler"), -EINVAL);
	ck_assert_uint_eq(bus.count, 0);
}
END_TEST

START_TEST(test_dispatch_offset)
{
	ck_assert_int_eq(io_bus_register(&bus, 0x3f8, 8, record, &rec_a, "a"), 0);
	ck_assert_int_eq(io_bus_register(&bus, 0x60, 4, record, &rec_b, "b"), 0);
	uint8_t data[4] = { 0x11, 0x22, 0, 0 };
	/* 0x3fd - 0x3f8 = 5 (the UART's LSR). */
	ck_assert(io_bus_access(&bus, 0x3fd, data, 2, true));
	ck_assert_uint_eq(rec_a.calls, 1);
	ck_assert_uint_eq(rec_a.offset, 5);
	ck_assert_uint_eq(rec_a.size, 2);
	ck_assert(rec_a.is_write);
	ck_assert_uint_eq(rec_a.written[0], 0x11);
	ck_assert_uint_eq(rec_a.written[1], 0x22);
	ck_assert_uint_eq(rec_b.calls, 0);

	memset(data, 0, sizeof(data));
	/* 0x62 - 0x60 = 2. */
	ck_assert(io_bus_access(&bus, 0x62, data, 1, false));
	ck_assert_uint_eq(rec_b.calls, 1);
	ck_assert_uint_eq(rec_b.offset, 2);
	ck_assert(!rec_b.is_write);
	ck_assert_uint_eq(data[0], 0xb2);
	ck_assert_uint_eq(rec_a.calls, 1);
}
END_TEST

START_TEST(test_straddling_not_dispatched)
{
	ck_assert_int_eq(io_bus_register(&bus, 0x3f8, 8, record, &rec_a, "a"), 0);
	/* A 4-byte access at 0x3fe covers 0x3fe-0x401: two ports past the end. */
	ck_assert_ptr_null(io_bus_find(&bus, 0x3fe, 4));
	uint8_t data[4] = { 0 };
	ck_assert(!io_bus_access(&bus, 0x3fe, data, 4, false));
	ck_assert_uint_eq(rec_a.calls, 0);
	/* Unclaimed read: all four bytes 0xff, like a floating ISA bus. */
	for (int i = 0; i < 4; i++)
		ck_assert_uint_eq(data[i], 0xff);
	ck_assert(!io_bus_access(&bus, 0x3fe, data, 4, true));
	ck_assert_uint_eq(rec_a.calls, 0);
	/* A range starting before the device's base is not dispatched either. */
	ck_assert(!io_bus_access(&bus, 0x3f7, data, 2, false));
	ck_assert_uint_eq(rec_a.calls, 0);
}
END_TEST

START_TEST(test_unclaimed)
{
	uint8_t data[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };
	ck_assert(!io_bus_access(&bus, 0x80, data, 8, false));
	for (int i = 0; i < 8; i++)
		ck_assert_uint_eq(data[i], 0xff);
	/* An unclaimed write leaves the data alone. */
	uint8_t w[2] = { 0x12, 0x34 };
	ck_assert(!io_bus_access(&bus, 0x80, w, 2, true));
	ck_assert_uint_eq(w[0], 0x12);
	ck_assert_uint_eq(w[1], 0x34);
}
END_TEST

START_TEST(test_unsorted_registration)
{
	/* Registered out of order; each must still be found (the bus is
	 * searched by bisection, so it has to keep itself sorted). */
	static const uint64_t bases[] = { 0x500, 0x20, 0x3f8, 0x60, 0x1000, 0xf4, 0x70, 0x2f8 };
	static char names[8][8];
	for (unsigned i = 0; i < 8; i++) {
		names[i][0] = (char)('0' + i);
		ck_assert_int_eq(io_bus_register(&bus, bases[i], 4, record, &rec_a, names[i]), 0);
	}
	for (unsigned i = 0; i < 8; i++) {
		for (uint64_t off = 0; off < 4; off++) {
			const struct io_range *r = io_bus_find(&bus, bases[i] + off, 1);
			ck_assert_ptr_nonnull(r);
			ck_assert_ptr_eq(r->name, names[i]);
		}
		ck_assert_ptr_null(io_bus_find(&bus, bases[i] + 4, 1));
	}
}
END_TEST

START_TEST(test_bus_full)
{
	for (unsigned i = 0; i < IO_BUS_MAX_RANGES; i++)
		ck_assert_int_eq(io_bus_register(&bus, 0x100 + 0x10 * i, 0x10, record, &rec_a, "x"), 0);
	ck_assert_uint_eq(bus.count, IO_BUS_MAX_RANGES);
	/* Disjoint from every range, but there is no room: ENOSPC. */
	ck_assert_int_eq(io_bus_register(&bus, 0x10000, 1, record, &rec_a, "more"), -ENOSPC);
	ck_assert_uint_eq(bus.count, IO_BUS_MAX_RANGES);
	/* The last one registered is still found: 0x100 + 0x10 * 31 = 0x2f0. */
	ck_assert_ptr_nonnull(io_bus_find(&bus, 0x2ff, 1));
	ck_assert_ptr_null(io_bus_find(&bus, 0x300, 1));
}
END_TEST

Suite *io_bus_suite(void)
{
	Suite *s = suite_create("io_bus");
	TCase *tc = tcase_create("core");
	tcase_add_checked_fixture(tc, setup, NULL);
	tcase_add_test(tc, test_register_and_find);
	tcase_add_test(tc, test_overlap_rejected);
	tcase_add_test(tc, test_overlap_between_two);
	tcase_add_test(tc, test_adjacent_accepted);
	tcase_add_test(tc, test_invalid_ranges);
	tcase_add_test(tc, test_dispatch_offset);
	tcase_add_test(tc, test_straddling_not_dispatched);
	tcase_add_test(tc, test_unclaimed);
	tcase_add_test(tc, test_unsorted_registration);
	tcase_add_test(tc, test_bus_full);
	suite_add_tcase(s, tc);
	return s;
}
