/* serial: the 16550A's registers as a driver probing for one sees them. */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "../../devices/serial.h"
#include "../../vmm/console.h"
#include "../../vmm/io_bus.h"
#include "suites.h"

#define COM1 0x3f8
/* Register offsets from the 16550A data sheet (table 2). */
#define THR 0 /* DLAB = 0, write; DLL when DLAB = 1 */
#define IER 1 /* DLM when DLAB = 1 */
#define IIR 2 /* read; FCR on write */
#define LCR 3
#define MCR 4
#define LSR 5
#define MSR 6
#define SCR 7

static int pipefd[2];
static struct console con;
static struct serial uart;
static struct io_bus bus;

static void setup(void)
{
	ck_assert_int_eq(pipe(pipefd), 0);
	ck_assert_int_eq(fcntl(pipefd[0], F_SETFL, O_NONBLOCK), 0);
	char err[128];
	ck_assert_int_eq(console_init(&con, pipefd[1], NULL, NULL, NULL, err, sizeof(err)), 0);
	memset(&bus, 0, sizeof(bus));
	ck_assert_int_eq(serial_init(&uart, &bus, COM1, &con), 0);
}

static void teardown(void)
{
	serial_destroy(&uart);
	console_destroy(&con);
	close(pipefd[0]);
	close(pipefd[1]);
}

static void out(unsigned reg, uint8_t v)
{
	ck_assert(io_bus_access(&bus, COM1 + reg, &v, 1, true));
}

static uint8_t in(unsigned reg)
{
	uint8_t v = 0x5a;
	ck_assert(io_bus_access(&bus, COM1 + reg, &v, 1, false));
	return v;
}

/* Everything the console has written so far (after a flush). */
static size_t drain(char *buf, size_t cap)
{
	console_flush(&con);
	ssize_t n = read(pipefd[0], buf, cap - 1);
	if (n < 0) {
		ck_assert_int_eq(errno, EAGAIN);
		n = 0;
	}
	buf[n] = '\0';
	return (size_t)n;
}

START_TEST(test_thr_to_console)
{
	const char *msg = "hi\n!";
	for (const char *p = msg; *p; p++)
		out(THR, (uint8_t)*p);
	char buf[64];
	ck_assert_uint_eq(drain(buf, sizeof(buf)), 4);
	ck_assert_str_eq(buf, "hi\n!");
}
END_TEST

START_TEST(test_lsr)
{
	/* THRE (bit 5) | TEMT (bit 6) = 0x20 | 0x40 = 0x60: ready to send;
	 * DR (bit 0) clear: nothing received. */
	ck_assert_uint_eq(in(LSR), 0x60);
	out(THR, 'x');
	ck_assert_uint_eq(in(LSR), 0x60);
}
END_TEST

START_TEST(test_scratch)
{
	out(SCR, 0x55);
	ck_assert_uint_eq(in(SCR), 0x55);
	out(SCR, 0xaa);
	ck_assert_uint_eq(in(SCR), 0xaa);
	char buf[8];
	ck_assert_uint_eq(drain(buf, sizeof(buf)), 0);
}
END_TEST

START_TEST(test_divisor_latch)
{
	out(IER, 0x05);
	out(LCR, 0x80 | 0x03); /* DLAB, 8N1 */
	ck_assert_uint_eq(in(LCR), 0x83);
	/* 115200 / 9600 = 12 = 0x000c. */
	out(THR, 0x0c);
	out(IER, 0x00);
	ck_assert_uint_eq(in(THR), 0x0c);
	ck_assert_uint_eq(in(IER), 0x00);
	char buf[8];
	ck_assert_uint_eq(drain(buf, sizeof(buf)), 0); /* the DLL write is not output */
	out(LCR, 0x03);
	/* Back to IER: the latch write did not clobber it. */
	ck_assert_uint_eq(in(IER), 0x05);
	out(THR, 'k');
	ck_assert_uint_eq(drain(buf, sizeof(buf)), 1);
	ck_assert_str_eq(buf, "k");
	/* Reading the latch again finds the divisor kept. */
	out(LCR, 0x80);
	ck_assert_uint_eq(in(THR), 0x0c);
}
END_TEST

START_TEST(test_loopback_msr)
{
	/* Loopback (MCR bit 4) wires the modem outputs to the inputs (16550A
	 * data sheet, MCR bit 4): DTR -> DSR, RTS -> CTS, OUT1 -> RI,
	 * OUT2 -> DCD; MSR bits 4-7 are CTS, DSR, RI, DCD.
	 * Linux's autoconfig writes MCR = LOOP | 0x0a (RTS | OUT2) and wants
	 * MSR & 0xf0 = CTS | DCD = 0x10 | 0x80 = 0x90. */
	out(MCR, 0x10 | 0x0a);
	ck_assert_uint_eq(in(MSR) & 0xf0, 0x90);
	/* DTR (bit 0) alone -> DSR (0x20). */
	out(MCR, 0x10 | 0x01);
	ck_assert_uint_eq(in(MSR) & 0xf0, 0x20);
	/* OUT1 (bit 2) alone -> RI (0x40). */
	out(MCR, 0x10 | 0x04);
	ck_assert_uint_eq(in(MSR) & 0xf0, 0x40);
	/* Nothing raised -> nothing seen. */
	out(MCR, 0x10);
	ck_assert_uint_eq(in(MSR) & 0xf0, 0x00);
	/* All four. */
	out(MCR, 0x1f);
	ck_assert_uint_eq(in(MSR) & 0xf0, 0xf0);
}
END_TEST

START_TEST(test_loopback_no_output)
{
	/* In loopback the transmitter's output is not on the wire. */
	out(MCR, 0x10);
	out(THR, 'x');
	char buf[8];
	ck_assert_uint_eq(drain(buf, sizeof(buf)), 0);
}
END_TEST

START_TEST(test_iir)
{
	/* No interrupt pending: IIR bit 0 = 1. FIFOs off: bits 7-6 = 00. */
	ck_assert_uint_eq(in(IIR), 0x01);
	/* FCR bit 0 enables the FIFOs; IIR bits 7-6 then read 11 (0xc0),
	 * which is what tells a 16550A from a 16450: 0xc0 | 0x01 = 0xc1. */
	out(IIR, 0x01);
	ck_assert_uint_eq(in(IIR), 0xc1);
	out(IIR, 0x00);
	ck_assert_uint_eq(in(IIR), 0x01);
}
END_TEST

START_TEST(test_wide_access)
{
	/* A 2-byte read of LSR: the register, then 0. */
	uint8_t data[2] = { 0x77, 0x77 };
	ck_assert(io_bus_access(&bus, COM1 + LSR, data, 2, false));
	ck_assert_uint_eq(data[0], 0x60);
	ck_assert_uint_eq(data[1], 0);
	/* Past the UART's eight ports: not the UART's. */
	uint8_t v;
	ck_assert(!io_bus_access(&bus, COM1 + 8, &v, 1, false));
	ck_assert(!io_bus_access(&bus, COM1 + 7, data, 2, false));
}
END_TEST

Suite *serial_suite(void)
{
	Suite *s = suite_create("serial");
	TCase *tc = tcase_create("registers");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_thr_to_console);
	tcase_add_test(tc, test_lsr);
	tcase_add_test(tc, test_scratch);
	tcase_add_test(tc, test_divisor_latch);
	tcase_add_test(tc, test_loopback_msr);
	tcase_add_test(tc, test_loopback_no_output);
	tcase_add_test(tc, test_iir);
	tcase_add_test(tc, test_wide_access);
	suite_add_tcase(s, tc);
	return s;
}
