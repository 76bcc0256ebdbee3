/* The I/O buses: devices register port or MMIO ranges at init, and the vCPU
 * loop dispatches exits by address without knowing any device (kvmtool-style). */
#ifndef VMM_IO_BUS_H
#define VMM_IO_BUS_H

#include <stdbool.h>
#include <stdint.h>

/* `offset` is relative to the range's base; `data` holds `size` bytes
 * (1, 2, 4 or 8), little-endian, to read into or write from. */
typedef void (*io_handler_fn)(void *opaque, uint64_t offset, uint8_t *data, uint32_t size,
			      bool is_write);

struct io_range {
	uint64_t base;
	uint64_t len;
	io_handler_fn handler;
	void *opaque;
	const char *name;
};

#define IO_BUS_MAX_RANGES 32

struct io_bus {
	struct io_range range[IO_BUS_MAX_RANGES]; /* sorted by base, never overlapping */
	unsigned count;
};

/* 0, or -EINVAL (zero length, wraps past 2^64), -EEXIST (overlaps a range),
 * -ENOSPC (bus full). */
int io_bus_register(struct io_bus *bus, uint64_t base, uint64_t len, io_handler_fn handler,
		    void *opaque, const char *name);

/* The range wholly containing [addr, addr + size), or NULL. */
const struct io_range *io_bus_find(const struct io_bus *bus, uint64_t addr, uint32_t size);

/* Calls the owning device; returns false if no device claims the access
 * (reads are then filled with 0xff, as an unclaimed ISA bus reads). */
bool io_bus_access(const struct io_bus *bus, uint64_t addr, uint8_t *data, uint32_t size,
		   bool is_write);

#endif
