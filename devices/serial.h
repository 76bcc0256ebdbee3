/* An 8250/16550A UART: guest output goes to the console, host input comes
 * in through a 16-byte receive FIFO, and the interrupt line is driven as on
 * a PC (gated by MCR.OUT2). Registers behave as on the chip so that Linux's
 * 8250 driver finds a 16550A and runs it in interrupt mode. */
#ifndef DEVICES_SERIAL_H
#define DEVICES_SERIAL_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../vmm/console.h"
#include "../vmm/io_bus.h"

#define SERIAL_COM1_BASE 0x3f8
#define SERIAL_COM1_IRQ 4
#define SERIAL_NR_PORTS 8
#define SERIAL_FIFO_SIZE 16

/* The interrupt line's new level; called only when it changes. */
typedef void (*serial_irq_fn)(void *opaque, bool level);
/* The receiver can take input again after it could not (the guest read
 * from a full FIFO, reset it, enabled it, or left loopback), or the guest
 * turned its receive interrupt on (serial_rx_wanted). */
typedef void (*serial_rx_room_fn)(void *opaque);

struct serial {
	pthread_mutex_t lock;
	struct console *console;
	serial_irq_fn set_irq;        /* may be NULL */
	serial_rx_room_fn rx_room;    /* may be NULL */
	void *opaque;                 /* for both callbacks */
	uint8_t ier, lcr, mcr, scr, dll, dlm, fcr;
	uint8_t lsr_errors;           /* overrun: sticky until LSR is read */
	uint8_t msr_delta;            /* modem-status changes since MSR was read */
	bool thr_ipending;            /* the THR-empty interrupt is pending */
	bool irq_level;               /* what the line was last set to */
	uint8_t rx[SERIAL_FIFO_SIZE]; /* the receive FIFO: a ring */
	unsigned rx_head, rx_count;
};

/* Register the UART's eight ports at `base`. The callbacks are called with
 * the UART's lock held, from whichever thread touched the UART; they must
 * not call back into it. 0 or -errno. */
int serial_init(struct serial *s, struct io_bus *pio, uint16_t base, struct console *console,
		serial_irq_fn set_irq, serial_rx_room_fn rx_room, void *opaque);
void serial_destroy(struct serial *s);

/* Host input: puts as many of `len` bytes as the receiver has room for into
 * it and returns how many it took (0 when full or in loopback); the caller
 * keeps the rest, so input is back-pressured, never buffered here. */
size_t serial_receive(struct serial *s, const uint8_t *buf, size_t len);

/* How many bytes serial_receive would take now. */
size_t serial_rx_room(struct serial *s);

/* Whether the guest's driver is taking input: its receive interrupt is on
 * (Linux's 8250 turns it on when the port is opened, and off to throttle). */
bool serial_rx_wanted(struct serial *s);

/* The register-level handler, for tests and fuzzing: offset 0-7. */
void serial_io(void *opaque, uint64_t offset, uint8_t *data, uint32_t size, bool is_write);

#endif
