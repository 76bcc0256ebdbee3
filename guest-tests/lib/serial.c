/* Console output on the 8250/16550 UART at port 0x3f8, polled: wait for
 * LSR.THRE, write THR. With the 16550's FIFO on, one THRE means 16 free
 * bytes, so a line costs about one port exit per character instead of two
 * (an exit is ~1 ms in the nested rig). No baud-rate setup: meaningless to
 * a VMM's UART, and QEMU's works without it. */
#include "serial.h"

#include <stdbool.h>

#include "atomic.h"
#include "processor.h"
#include "smp.h"

#define COM1 0x3f8
#define UART_THR 0
#define UART_IIR_FCR 2
#define UART_LSR 5
#define UART_FCR_ENABLE_CLEAR 0x07 /* enable FIFOs, clear RX and TX */
#define UART_IIR_FIFO_ON 0xc0
#define UART_LSR_THRE 0x20
#define UART_FIFO_SIZE 16
#define THRE_POLLS 100000 /* a missing UART must not hang the kernel */

/* 0: free; else the index + 1 of the CPU that holds it. */
static volatile uint32_t console_owner;
static unsigned tx_burst = 1, tx_room; /* under console_owner */

void serial_init(void)
{
	outb(COM1 + UART_IIR_FCR, UART_FCR_ENABLE_CLEAR);
	if ((inb(COM1 + UART_IIR_FCR) & UART_IIR_FIFO_ON) == UART_IIR_FIFO_ON)
		tx_burst = UART_FIFO_SIZE;
}

static void serial_putc(char c)
{
	if (!tx_room) {
		for (unsigned i = 0; i < THRE_POLLS; i++)
			if (inb(COM1 + UART_LSR) & UART_LSR_THRE)
				break;
		tx_room = tx_burst;
	}
	outb(COM1 + UART_THR, (uint8_t)c);
	tx_room--;
}

void serial_write(const char *s, size_t n)
{
	uint32_t me = smp_id() + 1;
	bool nested = atomic_read(&console_owner) == me;
	if (!nested)
		while (!atomic_cmpxchg(&console_owner, 0, me))
			cpu_relax();
	for (size_t i = 0; i < n; i++)
		serial_putc(s[i]);
	if (!nested)
		atomic_set(&console_owner, 0);
}
