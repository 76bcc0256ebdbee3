/* QEMU's isa-debug-exit at port 0xf4: a write of v ends the VM with exit
 * status (v << 1) | 1. */
#include "debug_exit.h"

#include <string.h>

#include "testdev_abi.h"

int debug_exit_status(uint32_t value)
{
	/* QEMU passes (v << 1) | 1 to exit(), which keeps the low 8 bits. */
	return (int)(((value << 1) | 1) & 0xff);
}

void debug_exit_io(void *opaque, uint64_t offset, uint8_t *data, uint32_t size, bool is_write)
{
	(void)offset;
	if (!is_write) {
		memset(data, 0, size);
		return;
	}
	uint32_t value = 0;
	memcpy(&value, data, size < sizeof(value) ? size : sizeof(value));
	vm_stop_request(opaque, STOP_GUEST_EXIT, debug_exit_status(value));
}

int debug_exit_init(struct io_bus *pio, struct vm_stop *stop)
{
	return io_bus_register(pio, TESTDEV_EXIT_PORT, 4, debug_exit_io, stop, "debug-exit");
}
