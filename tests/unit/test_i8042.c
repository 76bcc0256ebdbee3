/* i8042: the PS/2 controller as Linux's i8042 driver and its reboot code
 * (reboot=k) talk to it: status, the command byte, self test, and the
 * reset line that ends the VM. */
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include "../../devices/i8042.h"
#include "../../vmm/io_bus.h"
#include "../../vmm/vm_stop.h"
#include "suites.h"

#define DATA 0x60
#define CMD 0x64
#define STATUS 0x64

/* Status bits (Linux's i8042.h). */
#define STR_OBF 0x01
#define STR_IBF 0x02
#define STR_SYS 0x04
#define STR_UNLOCKED 0x10
#define STR_IDLE (STR_SYS | STR_UNLOCKED) /* 0x14: nothing queued */

static struct vm_stop stop;
static struct io_bus bus;
static struct i8042 kbc;

static void setup(void)
{
	ck_assert_int_eq(vm_stop_init(&stop), 0);
	memset(&bus, 0, sizeof(bus));
	ck_assert_int_eq(i8042_init(&kbc, &bus, &stop), 0);
}

static void teardown(void)
{
	i8042_destroy(&kbc);
	vm_stop_destroy(&stop);
}

static void out(uint16_t port, uint8_t v)
{
	ck_assert(io_bus_access(&bus, port, &v, 1, true));
}

static uint8_t in(uint16_t port)
{
	uint8_t v = 0x5a;
	ck_assert(io_bus_access(&bus, port, &v, 1, false));
	return v;
}

/* A command with one response byte: OBF goes up, the byte is read, OBF
 * goes down again. */
static uint8_t ask(uint8_t cmd)
{
	out(CMD, cmd);
	ck_assert_uint_eq(in(STATUS) & (STR_OBF | STR_IBF), STR_OBF);
	uint8_t v = in(DATA);
	ck_assert_uint_eq(in(STATUS) & STR_OBF, 0);
	return v;
}

START_TEST(test_idle_status)
{
	/* Nothing queued: OBF (bit 0) and IBF (bit 1) clear, so Linux's
	 * kb_wait() never waits and i8042_flush() finds nothing; SYS (bit 2,
	 * POST passed) and not keylocked (bit 4), or Linux warns "Keylock
	 * active". */
	ck_assert_uint_eq(in(STATUS), STR_IDLE);
	ck_assert_uint_eq(in(STATUS) & (STR_OBF | STR_IBF), 0);
	ck_assert(!vm_stop_requested(&stop));
}
END_TEST

START_TEST(test_self_test)
{
	/* 0xaa: controller self test, 0x55 = passed. */
	ck_assert_uint_eq(ask(0xaa), 0x55);
	ck_assert(!vm_stop_requested(&stop));
}
END_TEST

START_TEST(test_command_byte)
{
	/* 0x20 reads the command byte: what a PC BIOS leaves, XLATE (0x40) |
	 * AUXDIS (0x20) | SYS (0x04) | KBDINT (0x01) = 0x65. */
	ck_assert_uint_eq(ask(0x20), 0x65);
	/* 0x60 writes it: the next byte on the data port. */
	out(CMD, 0x60);
	ck_assert_uint_eq(in(STATUS), STR_IDLE); /* nothing to read meanwhile */
	out(DATA, 0x47);
	ck_assert_uint_eq(ask(0x20), 0x47);
	/* The status SYS flag follows the command byte's. */
	out(CMD, 0x60);
	out(DATA, 0x40);
	ck_assert_uint_eq(in(STATUS), STR_UNLOCKED);
	ck_assert_uint_eq(ask(0x20), 0x40);
}
END_TEST

START_TEST(test_port_enables)
{
	/* 0xa7/0xa8 set/clear AUXDIS (0x20), 0xad/0xae KBDDIS (0x10). */
	out(CMD, 0xa8);
	ck_assert_uint_eq(ask(0x20), 0x45);
	out(CMD, 0xa7);
	ck_assert_uint_eq(ask(0x20), 0x65);
	out(CMD, 0xad);
	ck_assert_uint_eq(ask(0x20), 0x75);
	out(CMD, 0xae);
	ck_assert_uint_eq(ask(0x20), 0x65);
	/* None of them answers. */
	ck_assert_uint_eq(in(STATUS), STR_IDLE);
}
END_TEST

START_TEST(test_aux_test)
{
	/* 0xa9, the mouse port's interface test: 0x02, its clock line stuck
	 * high (nothing plugged in), which Linux takes as "no AUX port". */
	ck_assert_uint_eq(ask(0xa9), 0x02);
}
END_TEST

START_TEST(test_output_port)
{
	/* 0xd0 reads the output port: reset line high (not in reset, bit 0)
	 * and A20 on (bit 1). */
	ck_assert_uint_eq(ask(0xd0), 0x03);
	/* 0xd1 writes it; with bit 0 set the CPU keeps running. */
	out(CMD, 0xd1);
	out(DATA, 0x01);
	ck_assert(!vm_stop_requested(&stop));
	ck_assert_uint_eq(ask(0xd0), 0x01);
	/* Bit 0 clear holds the CPU in reset: a reboot, which ends the VM. */
	out(CMD, 0xd1);
	out(DATA, 0x02);
	ck_assert(vm_stop_requested(&stop));
	ck_assert_int_eq(stop.reason, STOP_POWEROFF);
	ck_assert_int_eq(stop.status, 0);
}
END_TEST

START_TEST(test_pulse_reset)
{
	/* Linux's reboot=k: kb_wait() (status bit 1 clear), then 0xfe, pulse
	 * output line 0, the reset line; ten times. The VM stops like a clean
	 * power-off: exit status 0. */
	for (int i = 0; i < 10; i++) {
		ck_assert_uint_eq(in(STATUS) & STR_IBF, 0);
		out(CMD, 0xfe);
	}
	ck_assert(vm_stop_requested(&stop));
	ck_assert_int_eq(stop.reason, STOP_POWEROFF);
	ck_assert_int_eq(stop.status, 0);
	/* One stop request, however many pulses: the eventfd counts 1. */
	uint64_t count = 0;
	ck_assert_int_eq(read(stop.event_fd, &count, sizeof(count)), (ssize_t)sizeof(count));
	ck_assert_uint_eq(count, 1);
}
END_TEST

START_TEST(test_pulse_other_lines)
{
	/* 0xf0-0xff pulse the output lines whose bits (0-3) are clear: 0xff
	 * pulses none, 0xfd only line 1: no reset. 0xf0 pulses all four,
	 * the reset line among them. */
	out(CMD, 0xff);
	out(CMD, 0xfd);
	out(CMD, 0xf1);
	ck_assert(!vm_stop_requested(&stop));
	out(CMD, 0xf0);
	ck_assert(vm_stop_requested(&stop));
}
END_TEST

START_TEST(test_reset_after_other_stop)
{
	/* A stop already under way keeps its reason and status. */
	ck_assert(vm_stop_request(&stop, STOP_TIMEOUT, 124));
	out(CMD, 0xfe);
	ck_assert_int_eq(stop.reason, STOP_TIMEOUT);
	ck_assert_int_eq(stop.status, 124);
}
END_TEST

START_TEST(test_ignored)
{
	/* Unknown commands, and data bytes for the keyboard that is not there,
	 * change nothing and answer nothing. */
	static const uint8_t cmds[] = { 0x00, 0x21, 0x3f, 0xab, 0xc0, 0xd2, 0xd3, 0xd4, 0xe0, 0xef };
	for (size_t i = 0; i < sizeof(cmds); i++) {
		out(CMD, cmds[i]);
		ck_assert_msg(in(STATUS) == STR_IDLE, "command 0x%02x answered", cmds[i]);
	}
	/* (0xd2-0xd4 wait for a data byte on a real controller; here that byte
	 * is just another ignored keyboard byte.) */
	out(DATA, 0xff); /* keyboard reset */
	out(DATA, 0xf2); /* get ID */
	ck_assert_uint_eq(in(STATUS), STR_IDLE);
	ck_assert_uint_eq(ask(0x20), 0x65);
	ck_assert(!vm_stop_requested(&stop));
}
END_TEST

START_TEST(test_command_abandons_pending)
{
	/* A new command replaces one still waiting for its data byte: the byte
	 * that follows goes to the (absent) keyboard, not to the command byte. */
	out(CMD, 0x60);
	ck_assert_uint_eq(ask(0x20), 0x65);
	out(DATA, 0x00);
	ck_assert_uint_eq(ask(0x20), 0x65);
	/* Likewise a pending 0xd1 whose data would reset. */
	out(CMD, 0xd1);
	out(CMD, 0xaa);
	out(DATA, 0x00);
	ck_assert(!vm_stop_requested(&stop));
	ck_assert_uint_eq(in(DATA), 0x55);
}
END_TEST

START_TEST(test_data_read_empty)
{
	/* With nothing queued, port 0x60 reads the last byte again, and the
	 * status stays idle. */
	ck_assert_uint_eq(ask(0xaa), 0x55);
	ck_assert_uint_eq(in(DATA), 0x55);
	ck_assert_uint_eq(in(STATUS), STR_IDLE);
	/* A second response replaces an unread first: one output buffer. */
	out(CMD, 0xaa);
	out(CMD, 0x20);
	ck_assert_uint_eq(in(DATA), 0x65);
	ck_assert_uint_eq(in(STATUS), STR_IDLE);
}
END_TEST

START_TEST(test_ports_claimed)
{
	/* Only 0x60 and 0x64, byte-wide. 0x61 is the in-kernel PIT's speaker
	 * port, which never reaches vmm; 0x62, 0x63 and 0x65 are nobody's. */
	uint8_t v[4] = { 0 };
	ck_assert(!io_bus_access(&bus, 0x61, v, 1, true));
	ck_assert(!io_bus_access(&bus, 0x62, v, 1, false));
	ck_assert(!io_bus_access(&bus, 0x63, v, 1, false));
	ck_assert(!io_bus_access(&bus, 0x65, v, 1, false));
	ck_assert(!io_bus_access(&bus, 0x60, v, 2, false));
	ck_assert(!io_bus_access(&bus, 0x64, v, 4, true));
	/* Port 0x80 (POST codes; Linux's I/O delay writes it after every
	 * *_p access): unclaimed, so writes are dropped and reads see 0xff. */
	v[0] = 0x42;
	ck_assert(!io_bus_access(&bus, 0x80, v, 1, true));
	ck_assert(!io_bus_access(&bus, 0x80, v, 1, false));
	ck_assert_uint_eq(v[0], 0xff);
	ck_assert(!vm_stop_requested(&stop));
}
END_TEST

START_TEST(test_hostile_guest)
{
	/* Any byte sequence on either port: no crash, the status never claims
	 * a full input buffer, and the only effect beyond the registers is a
	 * stop request. */
	uint32_t x = 777;
	for (int i = 0; i < 20000; i++) {
		x = x * 1664525u + 1013904223u;
		uint16_t port = (x >> 9) & 1 ? CMD : DATA;
		uint8_t v = (uint8_t)(x >> 16);
		bool write = (x >> 10) & 1;
		io_bus_access(&bus, port, &v, 1, write);
		ck_assert_uint_eq(in(STATUS) & STR_IBF, 0);
	}
}
END_TEST

Suite *i8042_suite(void)
{
	Suite *s = suite_create("i8042");
	TCase *tc = tcase_create("controller");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_idle_status);
	tcase_add_test(tc, test_self_test);
	tcase_add_test(tc, test_command_byte);
	tcase_add_test(tc, test_port_enables);
	tcase_add_test(tc, test_aux_test);
	tcase_add_test(tc, test_output_port);
	tcase_add_test(tc, test_pulse_reset);
	tcase_add_test(tc, test_pulse_other_lines);
	tcase_add_test(tc, test_reset_after_other_stop);
	tcase_add_test(tc, test_ignored);
	tcase_add_test(tc, test_command_abandons_pending);
	tcase_add_test(tc, test_data_read_empty);
	tcase_add_test(tc, test_ports_claimed);
	tcase_add_test(tc, test_hostile_guest);
	suite_add_tcase(s, tc);
	return s;
}
