/* The I/O buses: devices register port or MMIO ranges at init, and the vCPU
 * loop dispatches exits by address without knowing any device (kvmtool-style). */
#include "io_bus.h"

#include <errno.h>
#include <string.h>

int io_bus_register(struct io_bus *bus, uint64_t base, uint64_t len, io_handler_fn handler,
		    void *opaque, const char *name)
{
	if (len == 0 || base + len < base || !handler)
		return -EINVAL;
	if (bus->count == IO_BUS_MAX_RANGES)
		return -ENOSPC;
	unsigned at = 0;
	while (at < bus->count && bus->range[at].base < base)
		at++;
	/* Sorted and disjoint, so only the neighbours can overlap. */
	if (at > 0) {
		const struct io_range *prev = &bus->range[at - 1];
		if (prev->base + prev->len > base)
			return -EEXIST;
	}
	if (at < bus->count && base + len > bus->range[at].base)
		return -EEXIST;
	memmove(&bus->range[at + 1], &bus->range[at], (bus->count - at) * sizeof(bus->range[0]));
	bus->range[at] = (struct io_range){ base, len, handler, opaque, name };
	bus->count++;
	return 0;
}

const struct io_range *io_bus_find(const struct io_bus *bus, uint64_t addr, uint32_t size)
{
	unsigned lo = 0, hi = bus->count;
	while (lo < hi) {
		unsigned mid = lo + (hi - lo) / 2;
		const struct io_range *r = &bus->range[mid];
		if (addr < r->base) {
			hi = mid;
		} else if (addr - r->base >= r->len) {
			lo = mid + 1;
		} else {
			/* addr is inside r; the access must end inside it too. */
			return size <= r->len - (addr - r->base) ? r : NULL;
		}
	}
	return NULL;
}

bool io_bus_access(const struct io_bus *bus, uint64_t addr, uint8_t *data, uint32_t size,
		   bool is_write)
{
	const struct io_range *r = size ? io_bus_find(bus, addr, size) : NULL;
	if (!r) {
		if (!is_write)
			memset(data, 0xff, size);
		return false;
	}
	r->handler(r->opaque, addr - r->base, data, size, is_write);
	return true;
}
