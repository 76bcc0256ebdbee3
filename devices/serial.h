/* An 8250/16550A UART: guest output goes to the console. Registers behave
 * as on the chip so that drivers probing it (Linux's 8250) find one. */
#ifndef DEVICES_SERIAL_H
#define DEVICES_SERIAL_H

#include <pthread.h>
#include <stdint.h>

#include "../vmm/console.h"
#include "../vmm/io_bus.h"

#define SERIAL_COM1_BASE 0x3f8
#define SERIAL_NR_PORTS 8

struct serial {
	pthread_mutex_t lock;
	struct console *console;
	uint8_t ier, iir_fifo, lcr, mcr, scr, dll, dlm, fcr;
};

/* Register the UART's eight ports at `base`. 0 or -errno. */
int serial_init(struct serial *s, struct io_bus *pio, uint16_t base, struct console *console);
void serial_destroy(struct serial *s);

/* The register-level handler, for tests and fuzzing: offset 0-7. */
void serial_io(void *opaque, uint64_t offset, uint8_t *data, uint32_t size, bool is_write);

#endif
