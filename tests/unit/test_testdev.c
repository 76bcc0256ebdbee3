/* testdev: messages from an untrusted guest (devices/testdev_abi.h). */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../devices/testdev.h"
#include "../../devices/testdev_abi.h"
#include "../../vmm/guest_mem.h"
#include "../../vmm/io_bus.h"
#include "../../vmm/layout.h"
#include "../../vmm/results.h"
#include "suites.h"

#define RAM_SIZE (64 * KiB)
#define MSG_GPA 0x1000

/* Field offsets from the ABI (testdev_abi.h): op u32 at 0, status u32 at 4,
 * value u64 at 8, name[48] at 16; 64 bytes in all. */
#define OFF_OP 0
#define OFF_STATUS 4
#define OFF_VALUE 8
#define OFF_NAME 16
#define MSG_SIZE 64

static uint8_t *ram;
static uint8_t *before; /* a snapshot of RAM to compare against */
static struct guest_mem mem;
static struct results results;
static struct testdev dev;
static unsigned param_calls;

/* Parameters: "loops" = 100, "big" = 2^64 - 1. An unknown name scribbles
 * on *value to check that such a value is never written back. */
static bool lookup(void *opaque, const char *name, uint64_t *value)
{
	ck_assert_ptr_eq(opaque, &param_calls);
	param_calls++;
	if (strcmp(name, "loops") == 0) {
		*value = 100;
		return true;
	}
	if (strcmp(name, "big") == 0) {
		*value = UINT64_MAX;
		return true;
	}
	*value = 0x5c5c5c5c5c5c5c5cULL;
	return false;
}

static void setup(void)
{
	ram = malloc(RAM_SIZE);
	before = malloc(RAM_SIZE);
	ck_assert(ram && before);
	memset(ram, 0xee, RAM_SIZE);
	ck_assert(guest_mem_layout(&mem, ram, RAM_SIZE));
	results_init(&results);
	dev = (struct testdev){ &mem, &results, { lookup, NULL, &param_calls } };
	param_calls = 0;
}

static void teardown(void)
{
	results_destroy(&results);
	free(ram);
	free(before);
}

/* Write a message the way a guest would, byte by byte at the ABI offsets. */
static void put_msg(uint64_t gpa, uint32_t op, uint32_t status, uint64_t value, const char *name,
		    size_t name_bytes)
{
	memcpy(ram + gpa + OFF_OP, &op, 4);
	memcpy(ram + gpa + OFF_STATUS, &status, 4);
	memcpy(ram + gpa + OFF_VALUE, &value, 8);
	memset(ram + gpa + OFF_NAME, 0, TESTDEV_NAME_MAX);
	memcpy(ram + gpa + OFF_NAME, name, name_bytes);
	memcpy(before, ram, RAM_SIZE);
}

static uint32_t status_at(uint64_t gpa)
{
	uint32_t s;
	memcpy(&s, ram + gpa + OFF_STATUS, 4);
	return s;
}

static uint64_t value_at(uint64_t gpa)
{
	uint64_t v;
	memcpy(&v, ram + gpa + OFF_VALUE, 8);
	return v;
}

/* Every byte of RAM except [skip_from, skip_to) is as in the snapshot. */
static void assert_unchanged_except(uint64_t skip_from, uint64_t skip_to)
{
	for (uint64_t a = 0; a < RAM_SIZE; a++)
		if (a < skip_from || a >= skip_to)
			ck_assert_msg(ram[a] == before[a], "guest byte 0x%llx changed",
				      (unsigned long long)a);
}

#define NO_STATUS 0xffffffffu

START_TEST(test_abi_layout)
{
	ck_assert_uint_eq(offsetof(struct testdev_msg, op), OFF_OP);
	ck_assert_uint_eq(offsetof(struct testdev_msg, status), OFF_STATUS);
	ck_assert_uint_eq(offsetof(struct testdev_msg, value), OFF_VALUE);
	ck_assert_uint_eq(offsetof(struct testdev_msg, name), OFF_NAME);
	ck_assert_uint_eq(sizeof(struct testdev_msg), MSG_SIZE);
}
END_TEST

START_TEST(test_result_stored)
{
	put_msg(MSG_GPA, TESTDEV_OP_RESULT, NO_STATUS, 12345, "ns_per_exit", 12);
	testdev_handle(&dev, MSG_GPA);
	ck_assert_uint_eq(status_at(MSG_GPA), TESTDEV_OK);
	ck_assert_uint_eq(results.count, 1);
	ck_assert_str_eq(results.item[0].name, "ns_per_exit");
	ck_assert_uint_eq(results.item[0].value, 12345);
	/* Only the status word was written. */
	assert_unchanged_except(MSG_GPA + OFF_STATUS, MSG_GPA + OFF_STATUS + 4);
	ck_assert_uint_eq(param_calls, 0);
}
END_TEST

START_TEST(test_result_updated)
{
	put_msg(MSG_GPA, TESTDEV_OP_RESULT, NO_STATUS, 1, "a.b-c_9", 8);
	testdev_handle(&dev, MSG_GPA);
	put_msg(MSG_GPA, TESTDEV_OP_RESULT, NO_STATUS, 2, "a.b-c_9", 8);
	testdev_handle(&dev, MSG_GPA);
	ck_assert_uint_eq(results.count, 1);
	ck_assert_uint_eq(results.item[0].value, 2);
}
END_TEST

START_TEST(test_param_ok)
{
	put_msg(MSG_GPA, TESTDEV_OP_PARAM, NO_STATUS, 0, "loops", 6);
	testdev_handle(&dev, MSG_GPA);
	ck_assert_uint_eq(status_at(MSG_GPA), TESTDEV_OK);
	ck_assert_uint_eq(value_at(MSG_GPA), 100);
	ck_assert_uint_eq(param_calls, 1);
	ck_assert_uint_eq(results.count, 0);
	/* status and value written: [4, 16) of the message, nothing else. */
	assert_unchanged_except(MSG_GPA + OFF_STATUS, MSG_GPA + OFF_VALUE + 8);

	put_msg(MSG_GPA, TESTDEV_OP_PARAM, NO_STATUS, 0, "big", 4);
	testdev_handle(&dev, MSG_GPA);
	ck_assert_uint_eq(value_at(MSG_GPA), UINT64_MAX);
}
END_TEST

START_TEST(test_param_unknown)
{
	put_msg(MSG_GPA, TESTDEV_OP_PARAM, NO_STATUS, 77, "nosuch", 7);
	testdev_handle(&dev, MSG_GPA);
	ck_assert_uint_eq(status_at(MSG_GPA), TESTDEV_UNKNOWN);
	/* The lookup scribbled on its copy; the guest's value is untouched. */
	ck_assert_uint_eq(value_at(MSG_GPA), 77);
	assert_unchanged_except(MSG_GPA + OFF_STATUS, MSG_GPA + OFF_STATUS + 4);
}
END_TEST

START_TEST(test_bad_op)
{
	static const uint32_t ops[] = { 0, 3, 0x80000001u };
	for (unsigned i = 0; i < 3; i++) {
		put_msg(MSG_GPA, ops[i], NO_STATUS, 5, "loops", 6);
		testdev_handle(&dev, MSG_GPA);
		ck_assert_uint_eq(status_at(MSG_GPA), TESTDEV_INVALID);
		ck_assert_uint_eq(value_at(MSG_GPA), 5);
		assert_unchanged_except(MSG_GPA + OFF_STATUS, MSG_GPA + OFF_STATUS + 4);
	}
	ck_assert_uint_eq(results.count, 0);
	ck_assert_uint_eq(param_calls, 0);
}
END_TEST

START_TEST(test_name_not_terminated)
{
	/* 48 non-NUL bytes: no terminator inside name[48]. The byte after the
	 * message (gpa + 64) is a 0, to catch reading past the name. */
	char name[TESTDEV_NAME_MAX];
	memset(name, 'a', sizeof(name));
	put_msg(MSG_GPA, TESTDEV_OP_RESULT, NO_STATUS, 1, name, sizeof(name));
	ram[MSG_GPA + MSG_SIZE] = 0;
	memcpy(before, ram, RAM_SIZE);
	testdev_handle(&dev, MSG_GPA);
	ck_assert_uint_eq(status_at(MSG_GPA), TESTDEV_INVALID);
	ck_assert_uint_eq(results.count, 0);
	ck_assert_uint_eq(results.dropped, 0);
	assert_unchanged_except(MSG_GPA + OFF_STATUS, MSG_GPA + OFF_STATUS + 4);

	/* The same for a parameter request: no lookup, no value. */
	put_msg(MSG_GPA, TESTDEV_OP_PARAM, NO_STATUS, 1, name, sizeof(name));
	testdev_handle(&dev, MSG_GPA);
	ck_assert_uint_eq(status_at(MSG_GPA), TESTDEV_INVALID);
	ck_assert_uint_eq(param_calls, 0);
}
END_TEST

START_TEST(test_name_longest)
{
	/* 47 characters + NUL: the longest valid name. */
	char name[TESTDEV_NAME_MAX];
	memset(name, 'z', 47);
	name[47] = '\0';
	put_msg(MSG_GPA, TESTDEV_OP_RESULT, NO_STATUS, 9, name, sizeof(name));
	testdev_handle(&dev, MSG_GPA);
	ck_assert_uint_eq(status_at(MSG_GPA), TESTDEV_OK);
	ck_assert_uint_eq(results.count, 1);
	ck_assert_str_eq(results.item[0].name, name);
}
END_TEST

START_TEST(test_name_bad_chars)
{
	static const char *const bad[] = { "Loops", "two words", "", "tab\t", "semi;colon",
					   "caf\xc3\xa9" };
	for (unsigned i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		put_msg(MSG_GPA, TESTDEV_OP_RESULT, NO_STATUS, 1, bad[i], strlen(bad[i]) + 1);
		testdev_handle(&dev, MSG_GPA);
		ck_assert_msg(status_at(MSG_GPA) == TESTDEV_INVALID, "name '%s' accepted", bad[i]);
		assert_unchanged_except(MSG_GPA + OFF_STATUS, MSG_GPA + OFF_STATUS + 4);
	}
	ck_assert_uint_eq(results.count, 0);
}
END_TEST

START_TEST(test_msg_straddles_end)
{
	/* 32 bytes of the 64-byte message lie past the end of RAM. */
	uint64_t gpa = RAM_SIZE - 32;
	uint32_t op = TESTDEV_OP_PARAM;
	memcpy(ram + gpa, &op, 4);
	memcpy(before, ram, RAM_SIZE);
	testdev_handle(&dev, gpa);
	assert_unchanged_except(0, 0);
	ck_assert_uint_eq(param_calls, 0);
	ck_assert_uint_eq(results.count, 0);
}
END_TEST

START_TEST(test_msg_outside_ram)
{
	memcpy(before, ram, RAM_SIZE);
	testdev_handle(&dev, RAM_SIZE);
	testdev_handle(&dev, 0xfffff000ULL);
	/* gpa + 64 wraps past 2^64. */
	testdev_handle(&dev, UINT64_MAX - 8);
	assert_unchanged_except(0, 0);
	ck_assert_uint_eq(param_calls, 0);
	ck_assert_uint_eq(results.count, 0);
}
END_TEST

START_TEST(test_last_msg_in_ram)
{
	/* [RAM_SIZE - 64, RAM_SIZE): exactly fits. */
	uint64_t gpa = RAM_SIZE - MSG_SIZE;
	put_msg(gpa, TESTDEV_OP_PARAM, NO_STATUS, 0, "loops", 6);
	testdev_handle(&dev, gpa);
	ck_assert_uint_eq(status_at(gpa), TESTDEV_OK);
	ck_assert_uint_eq(value_at(gpa), 100);
}
END_TEST

START_TEST(test_port_io)
{
	struct io_bus bus;
	memset(&bus, 0, sizeof(bus));
	const struct testdev_host host = { lookup, NULL, &param_calls };
	ck_assert_int_eq(testdev_init(&dev, &bus, &mem, &results, &host), 0);
	put_msg(MSG_GPA, TESTDEV_OP_PARAM, NO_STATUS, 0, "loops", 6);
	/* A 32-bit OUT of the message's address to port 0xf8, little-endian. */
	uint8_t data[4] = { MSG_GPA & 0xff, (MSG_GPA >> 8) & 0xff, 0, 0 };
	ck_assert(io_bus_access(&bus, TESTDEV_MSG_PORT, data, 4, true));
	ck_assert_uint_eq(status_at(MSG_GPA), TESTDEV_OK);
	ck_assert_uint_eq(value_at(MSG_GPA), 100);

	/* A 16-bit OUT is not the ABI: ignored. */
	put_msg(MSG_GPA, TESTDEV_OP_PARAM, NO_STATUS, 0, "loops", 6);
	ck_assert(io_bus_access(&bus, TESTDEV_MSG_PORT, data, 2, true));
	assert_unchanged_except(0, 0);
	ck_assert_uint_eq(param_calls, 1);

	/* Reads return 0. */
	uint8_t in[4] = { 1, 2, 3, 4 };
	ck_assert(io_bus_access(&bus, TESTDEV_MSG_PORT, in, 4, false));
	ck_assert_uint_eq(in[0] | in[1] | in[2] | in[3], 0);
}
END_TEST

Suite *testdev_suite(void)
{
	Suite *s = suite_create("testdev");
	TCase *tc = tcase_create("core");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_abi_layout);
	tcase_add_test(tc, test_result_stored);
	tcase_add_test(tc, test_result_updated);
	tcase_add_test(tc, test_param_ok);
	tcase_add_test(tc, test_param_unknown);
	tcase_add_test(tc, test_bad_op);
	tcase_add_test(tc, test_name_not_terminated);
	tcase_add_test(tc, test_name_longest);
	tcase_add_test(tc, test_name_bad_chars);
	tcase_add_test(tc, test_msg_straddles_end);
	tcase_add_test(tc, test_msg_outside_ram);
	tcase_add_test(tc, test_last_msg_in_ram);
	tcase_add_test(tc, test_port_io);
	suite_add_tcase(s, tc);
	return s;
}
