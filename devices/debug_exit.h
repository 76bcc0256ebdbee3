/* QEMU's isa-debug-exit at port 0xf4: a write of v ends the VM with exit
 * status (v << 1) | 1. */
#ifndef DEVICES_DEBUG_EXIT_H
#define DEVICES_DEBUG_EXIT_H

#include <stdint.h>

#include "../vmm/io_bus.h"
#include "../vmm/vm_stop.h"

int debug_exit_init(struct io_bus *pio, struct vm_stop *stop);

/* The status a written value becomes, as QEMU computes it. Pure. */
int debug_exit_status(uint32_t value);

void debug_exit_io(void *opaque, uint64_t offset, uint8_t *data, uint32_t size, bool is_write);

#endif
