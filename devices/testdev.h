/* The test device at port 0xf8: guests report named results and ask for named
 * parameters through a message in guest memory (testdev_abi.h). */
#ifndef DEVICES_TESTDEV_H
#define DEVICES_TESTDEV_H

#include <stdbool.h>
#include <stdint.h>

#include "../vmm/guest_mem.h"
#include "../vmm/io_bus.h"
#include "../vmm/results.h"

typedef bool (*testdev_param_fn)(void *opaque, const char *name, uint64_t *value);

struct testdev {
	const struct guest_mem *mem;
	struct results *results;
	testdev_param_fn param;
	void *param_opaque;
};

int testdev_init(struct testdev *t, struct io_bus *pio, const struct guest_mem *mem,
		 struct results *results, testdev_param_fn param, void *param_opaque);

/* Act on the message at `gpa`. Everything in it is untrusted. Exposed for tests. */
void testdev_handle(struct testdev *t, uint64_t gpa);

void testdev_io(void *opaque, uint64_t offset, uint8_t *data, uint32_t size, bool is_write);

#endif
