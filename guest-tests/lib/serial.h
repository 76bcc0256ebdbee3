/* Console output on the 8250/16550 UART at port 0x3f8, polled. */
#ifndef GUEST_SERIAL_H
#define GUEST_SERIAL_H

#include <stddef.h>

/* Turns the FIFOs on if the UART has them (BSP, before any output). */
void serial_init(void);

/* Writes n bytes as one unit: output of several CPUs never interleaves
 * within one call. A CPU that is already inside serial_write (an exception
 * or interrupt while printing) writes without waiting for itself. */
void serial_write(const char *s, size_t n);

#endif
