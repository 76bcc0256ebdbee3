/* The PS/2 (8042) controller at ports 0x60 (data) and 0x64 (status and
 * command), with no keyboard or mouse behind it. It exists for two things:
 * Linux's i8042 driver finds a sane controller and moves on, and the
 * controller's reset line (command 0xFE, Linux's reboot=k) ends the VM as a
 * reboot does. */
#ifndef DEVICES_I8042_H
#define DEVICES_I8042_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "../vmm/io_bus.h"
#include "../vmm/vm_stop.h"

#define I8042_DATA_PORT 0x60
#define I8042_COMMAND_PORT 0x64

struct i8042 {
	pthread_mutex_t lock;
	struct vm_stop *stop;
	uint8_t ctr;         /* the controller's command byte */
	uint8_t output_port; /* bit 0: the reset line (active low), bit 1: A20 */
	uint8_t out;         /* the output buffer */
	bool out_full;       /* a byte waits there (status bit 0) */
	uint8_t await_data;  /* a command whose data byte comes next, or 0 */
};

/* Register both ports. 0 or -errno. */
int i8042_init(struct i8042 *k, struct io_bus *pio, struct vm_stop *stop);
void i8042_destroy(struct i8042 *k);

/* The register-level handlers, for tests: port 0x60 and port 0x64. */
void i8042_data_io(void *opaque, uint64_t offset, uint8_t *data, uint32_t size, bool is_write);
void i8042_command_io(void *opaque, uint64_t offset, uint8_t *data, uint32_t size, bool is_write);

#endif
