/* debug_exit: QEMU's isa-debug-exit, exit status (v << 1) | 1. */
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include "../../devices/debug_exit.h"
#include "../../devices/testdev_abi.h"
#include "../../vmm/io_bus.h"
#include "../../vmm/vm_stop.h"
#include "suites.h"

START_TEST(test_status_values)
{
	/* (v << 1) | 1, and exit() keeps the low 8 bits of the status. */
	ck_assert_int_eq(debug_exit_status(0), 1);       /* 0 << 1 | 1 */
	ck_assert_int_eq(debug_exit_status(1), 3);       /* 2 | 1 */
	ck_assert_int_eq(debug_exit_status(0x7f), 0xff); /* 0xfe | 1 */
	ck_assert_int_eq(debug_exit_status(0x80), 1);    /* 0x101 & 0xff */
	ck_assert_int_eq(debug_exit_status(0x81), 3);    /* 0x103 & 0xff */
	ck_assert_int_eq(debug_exit_status(0xffffffffu), 0xff); /* low byte of ...fffe | 1 */
	/* Always odd: a guest can never fake a clean exit 0. */
	for (uint32_t v = 0; v < 1024; v++)
		ck_assert_int_eq(debug_exit_status(v) & 1, 1);
}
END_TEST

static struct vm_stop stop;
static struct io_bus bus;

static void setup(void)
{
	ck_assert_int_eq(vm_stop_init(&stop), 0);
	memset(&bus, 0, sizeof(bus));
	ck_assert_int_eq(debug_exit_init(&bus, &stop), 0);
}

static void teardown(void)
{
	vm_stop_destroy(&stop);
}

START_TEST(test_write_requests_stop)
{
	ck_assert(!vm_stop_requested(&stop));
	/* outl 0x10: status 0x10 << 1 | 1 = 0x21 = 33. */
	uint8_t data[4] = { 0x10, 0, 0, 0 };
	ck_assert(io_bus_access(&bus, TESTDEV_EXIT_PORT, data, 4, true));
	ck_assert(vm_stop_requested(&stop));
	ck_assert_int_eq(stop.reason, STOP_GUEST_EXIT);
	ck_assert_int_eq(stop.status, 33);
	/* The main loop is woken through the eventfd: it reads 1. */
	uint64_t count = 0;
	ck_assert_int_eq(read(stop.event_fd, &count, sizeof(count)), (ssize_t)sizeof(count));
	ck_assert_uint_eq(count, 1);
}
END_TEST

START_TEST(test_first_request_wins)
{
	uint8_t first[4] = { 2, 0, 0, 0 };  /* status 5 */
	uint8_t second[4] = { 0, 0, 0, 0 }; /* status 1 */
	debug_exit_io(&stop, 0, first, 4, true);
	debug_exit_io(&stop, 0, second, 4, true);
	ck_assert_int_eq(stop.status, 5);
	ck_assert_int_eq(stop.reason, STOP_GUEST_EXIT);
	/* Nor does another kind of stop replace it. */
	ck_assert(!vm_stop_request(&stop, STOP_TIMEOUT, 124));
	ck_assert_int_eq(stop.status, 5);
	ck_assert_int_eq(stop.reason, STOP_GUEST_EXIT);
}
END_TEST

START_TEST(test_other_stop_first)
{
	ck_assert(vm_stop_request(&stop, STOP_TIMEOUT, 124));
	uint8_t data[4] = { 1, 0, 0, 0 };
	debug_exit_io(&stop, 0, data, 4, true);
	ck_assert_int_eq(stop.reason, STOP_TIMEOUT);
	ck_assert_int_eq(stop.status, 124);
}
END_TEST

START_TEST(test_byte_write)
{
	/* outb 0x7f: status 0xff. */
	uint8_t data[1] = { 0x7f };
	ck_assert(io_bus_access(&bus, TESTDEV_EXIT_PORT, data, 1, true));
	ck_assert_int_eq(stop.status, 0xff);
}
END_TEST

START_TEST(test_read_no_stop)
{
	uint8_t data[4] = { 9, 9, 9, 9 };
	ck_assert(io_bus_access(&bus, TESTDEV_EXIT_PORT, data, 4, false));
	ck_assert_uint_eq(data[0] | data[1] | data[2] | data[3], 0);
	ck_assert(!vm_stop_requested(&stop));
	ck_assert_int_eq(stop.reason, STOP_NONE);
}
END_TEST

Suite *debug_exit_suite(void)
{
	Suite *s = suite_create("debug_exit");
	TCase *tc = tcase_create("status");
	tcase_add_test(tc, test_status_values);
	suite_add_tcase(s, tc);
	tc = tcase_create("port");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_write_requests_stop);
	tcase_add_test(tc, test_first_request_wins);
	tcase_add_test(tc, test_other_stop_first);
	tcase_add_test(tc, test_byte_write);
	tcase_add_test(tc, test_read_no_stop);
	suite_add_tcase(s, tc);
	return s;
}
