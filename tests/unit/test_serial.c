/* serial: the 16550A as its data sheet describes it and Linux's 8250 driver
 * uses it: registers, the receive FIFO and its back-pressure, the interrupt
 * identification and priorities, and the IRQ line as a PC wires it. */
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
#define THR 0 /* DLAB = 0: THR on write, RBR on read; DLL when DLAB = 1 */
#define IER 1 /* DLM when DLAB = 1 */
#define IIR 2 /* read; FCR on write */
#define FCR 2
#define LCR 3
#define MCR 4
#define LSR 5
#define MSR 6
#define SCR 7

/* Bits, spelled out once (data sheet tables 2-4). */
#define IER_RDI 0x01
#define IER_THRI 0x02
#define IER_RLSI 0x04
#define IER_MSI 0x08
#define MCR_DTR 0x01
#define MCR_RTS 0x02
#define MCR_OUT1 0x04
#define MCR_OUT2 0x08
#define MCR_LOOP 0x10
#define LSR_DR 0x01
#define LSR_OE 0x02
#define LSR_IDLE 0x60 /* THRE | TEMT: the transmitter is empty */
#define FCR_ENABLE 0x01
#define FCR_CLEAR_RX 0x02
#define IIR_FIFO 0xc0 /* bits 7-6 with the FIFOs on */

static int pipefd[2];
static struct console con;
static struct serial uart;
static struct io_bus bus;

/* What the callbacks saw. */
static bool line;            /* the IRQ line's level */
static unsigned line_calls;  /* set_irq calls: one per change */
static uint8_t edges[16];    /* the levels set, in order */
static unsigned room_calls;  /* rx_room calls */

static void set_irq(void *opaque, bool level)
{
	ck_assert_ptr_eq(opaque, &uart);
	ck_assert_msg(level != line, "set_irq called without a change");
	line = level;
	if (line_calls < sizeof(edges))
		edges[line_calls] = level;
	line_calls++;
}

static void rx_room(void *opaque)
{
	ck_assert_ptr_eq(opaque, &uart);
	room_calls++;
}

static void setup(void)
{
	ck_assert_int_eq(pipe(pipefd), 0);
	ck_assert_int_eq(fcntl(pipefd[0], F_SETFL, O_NONBLOCK), 0);
	char err[128];
	ck_assert_int_eq(console_init(&con, pipefd[1], NULL, NULL, NULL, err, sizeof(err)), 0);
	memset(&bus, 0, sizeof(bus));
	line = false;
	line_calls = room_calls = 0;
	ck_assert_int_eq(serial_init(&uart, &bus, COM1, &con, set_irq, rx_room, &uart), 0);
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

static size_t receive(const char *s)
{
	return serial_receive(&uart, (const uint8_t *)s, strlen(s));
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

START_TEST(test_reset_values)
{
	/* Every offset, byte-wide, after reset (data sheet table 4): RBR empty
	 * reads 0, IER 0, IIR 0x01 (none pending, FIFOs off), LCR 0, MCR 0,
	 * LSR 0x60 (THRE | TEMT), MSR 0xb0 (DCD 0x80 | DSR 0x20 | CTS 0x10:
	 * the host side is always ready), SCR 0. */
	static const uint8_t want[8] = { 0x00, 0x00, 0x01, 0x00, 0x00, 0x60, 0xb0, 0x00 };
	for (unsigned reg = 0; reg < 8; reg++)
		ck_assert_msg(in(reg) == want[reg], "offset %u: 0x%02x, want 0x%02x", reg, in(reg),
			      want[reg]);
	/* With DLAB the first two are the divisor latch; the rest do not move. */
	out(LCR, 0x80);
	out(THR, 0x01);
	out(IER, 0x02);
	static const uint8_t dlab[8] = { 0x01, 0x02, 0x01, 0x80, 0x00, 0x60, 0xb0, 0x00 };
	for (unsigned reg = 0; reg < 8; reg++)
		ck_assert_msg(in(reg) == dlab[reg], "DLAB, offset %u: 0x%02x, want 0x%02x", reg,
			      in(reg), dlab[reg]);
	ck_assert_uint_eq(line_calls, 0);
}
END_TEST

START_TEST(test_reserved_bits)
{
	/* IER bits 4-7 and MCR bits 5-7 do not exist on a 16550A: they read 0
	 * (Linux's probe writes 0x0f and 0 to IER and compares; it also tries
	 * IER bit 6 to spot an XScale UART, which this is not). */
	out(IER, 0xff);
	ck_assert_uint_eq(in(IER), 0x0f);
	out(IER, 0x40);
	ck_assert_uint_eq(in(IER), 0x00);
	out(MCR, 0xff);
	ck_assert_uint_eq(in(MCR), 0x1f);
}
END_TEST

START_TEST(test_lsr)
{
	/* THRE (bit 5) | TEMT (bit 6) = 0x60: ready to send; DR (bit 0) clear:
	 * nothing received. */
	ck_assert_uint_eq(in(LSR), 0x60);
	out(THR, 'x');
	ck_assert_uint_eq(in(LSR), 0x60);
	/* A received byte sets DR; reading it clears DR. */
	ck_assert_uint_eq(receive("a"), 1);
	ck_assert_uint_eq(in(LSR), 0x61);
	ck_assert_uint_eq(in(THR), 'a');
	ck_assert_uint_eq(in(LSR), 0x60);
	/* An empty RBR reads 0 and changes nothing. */
	ck_assert_uint_eq(in(THR), 0);
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
	/* Received data stays put while DLAB hides RBR. */
	ck_assert_uint_eq(receive("r"), 1);
	ck_assert_uint_eq(in(THR), 0x0c);
	ck_assert_uint_eq(in(LSR), 0x61);
	out(LCR, 0x03);
	/* Back to IER: the latch write did not clobber it. */
	ck_assert_uint_eq(in(IER), 0x05);
	ck_assert_uint_eq(in(THR), 'r');
	out(THR, 'k');
	ck_assert_uint_eq(drain(buf, sizeof(buf)), 1);
	ck_assert_str_eq(buf, "k");
	/* Reading the latch again finds the divisor kept. */
	out(LCR, 0x80);
	ck_assert_uint_eq(in(THR), 0x0c);
}
END_TEST

START_TEST(test_fifo_back_pressure)
{
	out(FCR, FCR_ENABLE);
	ck_assert_uint_eq(serial_rx_room(&uart), 16);
	/* 20 offered, 16 taken: the caller keeps 4. */
	const char *in20 = "0123456789abcdefghij";
	ck_assert_uint_eq(receive(in20), 16);
	ck_assert_uint_eq(serial_rx_room(&uart), 0);
	/* The 17th byte is refused, and refusing is not an overrun. */
	ck_assert_uint_eq(receive("g"), 0);
	ck_assert_uint_eq(in(LSR), 0x61);
	/* First in, first out; DR clears with the last one. */
	for (unsigned i = 0; i < 16; i++) {
		ck_assert_uint_eq(in(LSR) & LSR_DR, LSR_DR);
		ck_assert_uint_eq(in(THR), (uint8_t)in20[i]);
	}
	ck_assert_uint_eq(in(LSR), 0x60);
	ck_assert_uint_eq(serial_rx_room(&uart), 16);
	/* The ring wraps: 16 more, in order. */
	ck_assert_uint_eq(receive("ABCDEFGHIJKLMNOPQ"), 16);
	ck_assert_uint_eq(in(THR), 'A');
	ck_assert_uint_eq(receive("Q"), 1);
	for (const char *p = "BCDEFGHIJKLMNOPQ"; *p; p++)
		ck_assert_uint_eq(in(THR), (uint8_t)*p);
	ck_assert_uint_eq(in(LSR), 0x60);
}
END_TEST

START_TEST(test_no_fifo_one_byte)
{
	/* FIFOs off, the 16550A is a 16450: one receive holding register. */
	ck_assert_uint_eq(serial_rx_room(&uart), 1);
	ck_assert_uint_eq(receive("ab"), 1);
	ck_assert_uint_eq(receive("b"), 0);
	ck_assert_uint_eq(in(THR), 'a');
	ck_assert_uint_eq(receive("b"), 1);
	ck_assert_uint_eq(in(THR), 'b');
}
END_TEST

START_TEST(test_rx_room_callback)
{
	out(FCR, FCR_ENABLE);
	ck_assert_uint_eq(receive("0123456789abcdef"), 16);
	ck_assert_uint_eq(room_calls, 0);
	/* Full -> room: the host is told once, not on every read. */
	in(THR);
	ck_assert_uint_eq(room_calls, 1);
	in(THR);
	ck_assert_uint_eq(room_calls, 1);
	/* A receiver reset empties a full FIFO: room again. */
	ck_assert_uint_eq(receive("xy"), 2);
	out(FCR, FCR_ENABLE | FCR_CLEAR_RX);
	ck_assert_uint_eq(room_calls, 2);
	ck_assert_uint_eq(serial_rx_room(&uart), 16);
	/* Loopback disconnects the receiver from the host; leaving it reconnects. */
	out(MCR, MCR_LOOP);
	ck_assert_uint_eq(serial_rx_room(&uart), 0);
	ck_assert_uint_eq(receive("z"), 0);
	out(MCR, 0);
	ck_assert_uint_eq(room_calls, 3);
	ck_assert_uint_eq(receive("z"), 1);
}
END_TEST

START_TEST(test_rx_wanted)
{
	/* The guest takes input once its driver turns the receive interrupt
	 * on (Linux: when the port is opened; off again to throttle). The host
	 * is woken when that happens, as when room appears. */
	ck_assert(!serial_rx_wanted(&uart));
	out(IER, IER_THRI);
	ck_assert(!serial_rx_wanted(&uart));
	ck_assert_uint_eq(room_calls, 0);
	out(IER, IER_THRI | IER_RDI);
	ck_assert(serial_rx_wanted(&uart));
	ck_assert_uint_eq(room_calls, 1);
	out(IER, IER_RDI); /* still on: no new wake-up */
	ck_assert_uint_eq(room_calls, 1);
	out(IER, 0);
	ck_assert(!serial_rx_wanted(&uart));
	/* The divisor latch's high byte shares the offset: not IER. */
	out(LCR, 0x80);
	out(IER, IER_RDI);
	ck_assert(!serial_rx_wanted(&uart));
	ck_assert_uint_eq(room_calls, 1);
	out(LCR, 0x03);
	out(IER, IER_RDI);
	ck_assert(serial_rx_wanted(&uart));
	ck_assert_uint_eq(room_calls, 2);
	/* Wanting input does not change what fits. */
	ck_assert_uint_eq(serial_rx_room(&uart), 1);
}
END_TEST

START_TEST(test_fcr)
{
	/* Receiver reset (FCR bit 1) empties the FIFO. */
	out(FCR, FCR_ENABLE);
	ck_assert_uint_eq(receive("0123456789"), 10);
	out(FCR, FCR_ENABLE | FCR_CLEAR_RX);
	ck_assert_uint_eq(in(LSR), 0x60);
	ck_assert_uint_eq(in(THR), 0);
	ck_assert_uint_eq(in(IIR), IIR_FIFO | 0x01); /* still on: the bit self-clears */
	/* Turning the FIFOs off empties them too. */
	ck_assert_uint_eq(receive("abc"), 3);
	out(FCR, 0);
	ck_assert_uint_eq(in(LSR), 0x60);
	ck_assert_uint_eq(in(IIR), 0x01);
	/* With bit 0 clear, nothing else is programmed: the trigger bits
	 * (7-6) written alone are dropped, as is a receiver reset. */
	ck_assert_uint_eq(receive("q"), 1);
	out(FCR, 0xc0 | FCR_CLEAR_RX);
	ck_assert_uint_eq(in(IIR), 0x01);
	ck_assert_uint_eq(in(LSR), 0x61);
}
END_TEST

START_TEST(test_iir_fifo_bits)
{
	/* No interrupt pending: IIR bit 0 = 1. FIFOs off: bits 7-6 = 00.
	 * FCR bit 0 enables the FIFOs; IIR bits 7-6 then read 11 (0xc0), which
	 * is what tells a 16550A from a 16450: 0xc0 | 0x01 = 0xc1. Bit 5 (a
	 * 16750's 64-byte FIFO) stays 0 even when FCR bit 5 is written. */
	ck_assert_uint_eq(in(IIR), 0x01);
	out(FCR, 0x01);
	ck_assert_uint_eq(in(IIR), 0xc1);
	out(FCR, 0x21);
	ck_assert_uint_eq(in(IIR), 0xc1);
	out(FCR, 0x00);
	ck_assert_uint_eq(in(IIR), 0x01);
}
END_TEST

START_TEST(test_thre_irq_cycle)
{
	/* Linux's set-up: OUT2 on, then the THR-empty interrupt enabled. */
	out(MCR, MCR_OUT2 | MCR_RTS | MCR_DTR);
	ck_assert_uint_eq(line_calls, 0);
	/* Newly enabled with the THR empty: pending at once (Linux's TXEN
	 * test wants IIR to say so). */
	out(IER, IER_THRI);
	ck_assert(line);
	/* Reading IIR when THRE is the reported source acknowledges it. */
	ck_assert_uint_eq(in(IIR), 0x02);
	ck_assert(!line);
	ck_assert_uint_eq(in(IIR), 0x01);
	/* A THR write: sent at once, the THR is empty again, which is a new
	 * interrupt; IIR acknowledges it again. */
	out(THR, 'a');
	ck_assert(line);
	ck_assert_uint_eq(in(IIR), 0x02);
	ck_assert(!line);
	/* Levels over the cycle: up, down, up, down; one call per change. */
	ck_assert_uint_eq(line_calls, 4);
	static const uint8_t want[4] = { 1, 0, 1, 0 };
	ck_assert_mem_eq(edges, want, sizeof(want));
	/* Disabling the interrupt forgets it; enabling it again raises it
	 * again (Linux's THRE-reassert test reads it twice this way). */
	out(THR, 'b');
	ck_assert(line);
	out(IER, 0);
	ck_assert(!line);
	ck_assert_uint_eq(in(IIR), 0x01);
	out(IER, IER_THRI);
	ck_assert(line);
	ck_assert_uint_eq(in(IIR), 0x02);
	/* Re-writing IER with THRI still on is no new edge. */
	out(IER, IER_THRI);
	ck_assert(!line);
	ck_assert_uint_eq(in(IIR), 0x01);
}
END_TEST

START_TEST(test_out2_gates_the_line)
{
	/* IIR reports the pending interrupt whatever OUT2 says; the line to
	 * the PIC is driven only with OUT2 set (PC wiring). */
	out(IER, IER_RDI);
	ck_assert_uint_eq(receive("a"), 1);
	ck_assert_uint_eq(in(IIR), 0x04);
	ck_assert(!line);
	ck_assert_uint_eq(line_calls, 0);
	out(MCR, MCR_OUT2);
	ck_assert(line);
	out(MCR, MCR_OUT1 | MCR_DTR | MCR_RTS); /* any bit but OUT2: off */
	ck_assert(!line);
	out(MCR, MCR_OUT2);
	ck_assert(line);
	/* Loopback forces the OUT2 pin inactive: the line drops. */
	out(MCR, MCR_OUT2 | MCR_LOOP);
	ck_assert(!line);
	out(MCR, MCR_OUT2);
	ck_assert(line);
	/* Reading the byte clears the cause. */
	ck_assert_uint_eq(in(THR), 'a');
	ck_assert(!line);
	ck_assert_uint_eq(in(IIR), 0x01);
	ck_assert_uint_eq(line_calls, 6);
}
END_TEST

START_TEST(test_rx_trigger_and_timeout)
{
	/* FIFO on, trigger level 8 (FCR bits 7-6 = 10, Linux's choice for a
	 * 16550A). Below the trigger, data is reported as a character timeout
	 * (IIR 0x0c); at the trigger, as received data available (0x04). */
	out(FCR, 0x80 | FCR_ENABLE);
	out(IER, IER_RDI);
	out(MCR, MCR_OUT2);
	ck_assert_uint_eq(receive("abc"), 3);
	ck_assert(line);
	ck_assert_uint_eq(in(IIR), IIR_FIFO | 0x0c);
	ck_assert_uint_eq(receive("defgh"), 5);
	ck_assert_uint_eq(in(IIR), IIR_FIFO | 0x04);
	/* Reading IIR does not acknowledge received data: still there. */
	ck_assert_uint_eq(in(IIR), IIR_FIFO | 0x04);
	ck_assert(line);
	ck_assert_uint_eq(in(THR), 'a');
	ck_assert_uint_eq(in(IIR), IIR_FIFO | 0x0c);
	for (int i = 0; i < 7; i++)
		in(THR);
	ck_assert_uint_eq(in(IIR), IIR_FIFO | 0x01);
	ck_assert(!line);
	/* Trigger level 14 (11); 1 (00) makes every byte "available". */
	out(FCR, 0xc0 | FCR_ENABLE);
	ck_assert_uint_eq(receive("0123456789abc"), 13);
	ck_assert_uint_eq(in(IIR), IIR_FIFO | 0x0c);
	ck_assert_uint_eq(receive("d"), 1);
	ck_assert_uint_eq(in(IIR), IIR_FIFO | 0x04);
	out(FCR, FCR_ENABLE | FCR_CLEAR_RX);
	ck_assert_uint_eq(receive("x"), 1);
	ck_assert_uint_eq(in(IIR), IIR_FIFO | 0x04);
	/* FIFOs off: no timeout indication, just data available. */
	out(FCR, 0);
	ck_assert_uint_eq(receive("y"), 1);
	ck_assert_uint_eq(in(IIR), 0x04);
}
END_TEST

START_TEST(test_iir_priorities)
{
	/* Every source at once, in loopback (which keeps the line low, so
	 * this is IIR only): an overrun, a full FIFO, THR empty, and modem
	 * status changes. The data sheet's priorities: line status, received
	 * data, THR empty, modem status; each cleared its own way. */
	out(FCR, FCR_ENABLE); /* trigger level 1 */
	out(IER, IER_RDI | IER_THRI | IER_RLSI | IER_MSI);
	out(MCR, MCR_LOOP); /* the modem inputs change: CTS, DSR, DCD drop */
	for (int i = 0; i < 17; i++)
		out(THR, (uint8_t)('A' + i)); /* the 17th overruns */
	ck_assert(!line);
	ck_assert_uint_eq(in(IIR), IIR_FIFO | 0x06);
	ck_assert_uint_eq(in(IIR), IIR_FIFO | 0x06); /* IIR reads do not clear it */
	/* LSR: DR | OE | THRE | TEMT = 0x63; reading it clears OE. */
	ck_assert_uint_eq(in(LSR), 0x63);
	ck_assert_uint_eq(in(LSR), 0x61);
	ck_assert_uint_eq(in(IIR), IIR_FIFO | 0x04);
	for (int i = 0; i < 16; i++)
		ck_assert_uint_eq(in(THR), (uint8_t)('A' + i)); /* the 17th was lost */
	/* THRE was pending all along, hidden: now it shows, and this read
	 * acknowledges it. */
	ck_assert_uint_eq(in(IIR), IIR_FIFO | 0x02);
	ck_assert_uint_eq(in(IIR), IIR_FIFO | 0x00);
	/* Modem status: DCTS | DDSR | DDCD = 0x0b, inputs all low; reading MSR
	 * clears the changes, and the interrupt with them. */
	ck_assert_uint_eq(in(MSR), 0x0b);
	ck_assert_uint_eq(in(IIR), IIR_FIFO | 0x01);
	ck_assert_uint_eq(line_calls, 0);
}
END_TEST

START_TEST(test_rls_irq)
{
	/* A line-status interrupt reaches the line like any other, and
	 * reading LSR clears it. An overrun needs loopback, which gates the
	 * line; so leave loopback with the error still set. */
	out(IER, IER_RLSI);
	out(MCR, MCR_LOOP);
	out(THR, 'a');
	out(THR, 'b'); /* FIFOs off: one holding register; 'b' overruns it */
	out(MCR, MCR_OUT2);
	ck_assert(line);
	ck_assert_uint_eq(in(IIR), 0x06);
	/* As a 16450, the new byte overwrote the holding register. */
	ck_assert_uint_eq(in(LSR), 0x63);
	ck_assert(!line);
	ck_assert_uint_eq(in(THR), 'b');
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

START_TEST(test_msr_deltas)
{
	/* MSR bits 0-3: DCTS, DDSR, TERI, DDCD, set by changes of the inputs
	 * since MSR was last read, cleared by reading it. */
	ck_assert_uint_eq(in(MSR), 0xb0);
	out(MCR, MCR_LOOP | MCR_RTS | MCR_DTR | MCR_OUT2); /* CTS, DSR, DCD stay up */
	ck_assert_uint_eq(in(MSR), 0xb0);
	out(MCR, MCR_LOOP | MCR_DTR | MCR_OUT2); /* CTS drops: DCTS */
	ck_assert_uint_eq(in(MSR), 0xa0 | 0x01);
	ck_assert_uint_eq(in(MSR), 0xa0);
	/* RI: its rising edge is not recorded, its trailing edge is (TERI). */
	out(MCR, MCR_LOOP | MCR_OUT1);
	ck_assert_uint_eq(in(MSR), 0x40 | 0x02 | 0x08); /* DSR, DCD dropped */
	out(MCR, MCR_LOOP);
	ck_assert_uint_eq(in(MSR), 0x04);
	ck_assert_uint_eq(in(MSR), 0x00);
}
END_TEST

START_TEST(test_loopback_receives)
{
	/* In loopback the transmitter feeds the receiver: bytes written come
	 * back through RBR and never reach the console. */
	out(FCR, FCR_ENABLE);
	out(MCR, MCR_LOOP);
	out(THR, 'x');
	out(THR, 'y');
	char buf[8];
	ck_assert_uint_eq(drain(buf, sizeof(buf)), 0);
	ck_assert_uint_eq(in(LSR), 0x61);
	ck_assert_uint_eq(in(THR), 'x');
	ck_assert_uint_eq(in(THR), 'y');
	ck_assert_uint_eq(in(LSR), 0x60);
	/* Out of loopback, writes go to the console again. */
	out(MCR, 0);
	out(THR, 'z');
	ck_assert_uint_eq(drain(buf, sizeof(buf)), 1);
	ck_assert_str_eq(buf, "z");
}
END_TEST

START_TEST(test_wide_access)
{
	/* A 2-byte read of LSR: the register, then 0. */
	uint8_t data[4] = { 0x77, 0x77, 0x77, 0x77 };
	ck_assert(io_bus_access(&bus, COM1 + LSR, data, 2, false));
	ck_assert_uint_eq(data[0], 0x60);
	ck_assert_uint_eq(data[1], 0);
	/* A 4-byte write to SCR: the first byte only. */
	memcpy(data, "\x11\x22\x33\x44", 4);
	ck_assert(io_bus_access(&bus, COM1 + 4, data, 4, true)); /* MCR..SCR */
	ck_assert_uint_eq(in(MCR), 0x11);
	ck_assert_uint_eq(in(LSR), 0x60);
	ck_assert_uint_eq(in(SCR), 0x00);
	/* Past the UART's eight ports: not the UART's. */
	uint8_t v;
	ck_assert(!io_bus_access(&bus, COM1 + 8, &v, 1, false));
	ck_assert(!io_bus_access(&bus, COM1 + 7, data, 2, false));
}
END_TEST

START_TEST(test_hostile_guest)
{
	/* Whatever the guest writes, in whatever order and width, the FIFO
	 * stays in bounds and the callbacks stay consistent (set_irq checks
	 * that each call is a change). */
	uint32_t x = 12345;
	for (int i = 0; i < 20000; i++) {
		x = x * 1103515245u + 12345u;
		unsigned reg = (x >> 8) & 7;
		uint32_t size = 1u << ((x >> 12) % 3);
		uint8_t data[4] = { (uint8_t)(x >> 16), (uint8_t)(x >> 24), 0, 0 };
		if (reg + size > 8)
			size = 1;
		io_bus_access(&bus, COM1 + reg, data, size, (x >> 20) & 1);
		if ((x >> 21) % 7 == 0)
			serial_receive(&uart, data, (x >> 24) % 20);
		ck_assert_uint_le(uart.rx_count, SERIAL_FIFO_SIZE);
		ck_assert_uint_lt(uart.rx_head, SERIAL_FIFO_SIZE);
		ck_assert_uint_le(serial_rx_room(&uart), SERIAL_FIFO_SIZE);
		/* Keep the console pipe from filling. */
		if (i % 512 == 0) {
			char buf[4096];
			while (read(pipefd[0], buf, sizeof(buf)) > 0)
				;
		}
	}
}
END_TEST

Suite *serial_suite(void)
{
	Suite *s = suite_create("serial");
	TCase *tc = tcase_create("registers");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_thr_to_console);
	tcase_add_test(tc, test_reset_values);
	tcase_add_test(tc, test_reserved_bits);
	tcase_add_test(tc, test_lsr);
	tcase_add_test(tc, test_scratch);
	tcase_add_test(tc, test_divisor_latch);
	tcase_add_test(tc, test_loopback_msr);
	tcase_add_test(tc, test_msr_deltas);
	tcase_add_test(tc, test_loopback_receives);
	tcase_add_test(tc, test_iir_fifo_bits);
	tcase_add_test(tc, test_wide_access);
	suite_add_tcase(s, tc);
	tc = tcase_create("receive");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_fifo_back_pressure);
	tcase_add_test(tc, test_no_fifo_one_byte);
	tcase_add_test(tc, test_rx_room_callback);
	tcase_add_test(tc, test_rx_wanted);
	tcase_add_test(tc, test_fcr);
	suite_add_tcase(s, tc);
	tc = tcase_create("interrupts");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_thre_irq_cycle);
	tcase_add_test(tc, test_out2_gates_the_line);
	tcase_add_test(tc, test_rx_trigger_and_timeout);
	tcase_add_test(tc, test_iir_priorities);
	tcase_add_test(tc, test_rls_irq);
	tcase_add_test(tc, test_hostile_guest);
	suite_add_tcase(s, tc);
	return s;
}
