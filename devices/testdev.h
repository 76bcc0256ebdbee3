/* The test device at port 0xf8: guests report named results and ask for named
 * parameters through a message in guest memory (testdev_abi.h). */
#ifndef DEVICES_TESTDEV_H
#define DEVICES_TESTDEV_H

#include <stdbool.h>
#include <stdint.h>

#include "../vmm/guest_mem.h"
#include "../vmm/io_bus.h"
#include "../vmm/results.h"

/* What the device asks of the VMM; both run on the calling vCPU's thread. */
struct testdev_host {
	bool (*param)(void *opaque, const char *name, uint64_t *value);
	/* Pause every vCPU for `ms`, resume, then return. */
	void (*pause_cycle)(void *opaque, uint32_t ms);
	void *opaque;
};

struct testdev {
	const struct guest_mem *mem;
	struct results *results;
	struct testdev_host host;
};

#define TESTDEV_PAUSE_MAX_MS 10000

int testdev_init(struct testdev *t, struct io_bus *pio, const struct guest_mem *mem,
		 struct results *results, const struct testdev_host *host);

/* Act on the message at `gpa`. Everything in it is untrusted. Exposed for tests. */
void testdev_handle(struct testdev *t, uint64_t gpa);

void testdev_io(void *opaque, uint64_t offset, uint8_t *data, uint32_t size, bool is_write);

#endif
