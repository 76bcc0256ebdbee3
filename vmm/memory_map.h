/* The guest's physical memory map as a PC firmware would report it: the one
 * producer behind both boot protocols' tables (PVH's memmap, Linux's e820). */
#ifndef VMM_MEMORY_MAP_H
#define VMM_MEMORY_MAP_H

#include <stdint.h>

#include "guest_mem.h"

enum memory_map_type {
	MEMORY_MAP_RAM,
	MEMORY_MAP_RESERVED,
};

struct memory_map_entry {
	uint64_t addr;
	uint64_t size;
	enum memory_map_type type;
};

/* Low RAM, the reserved legacy hole, RAM from 1 MiB, and one entry per
 * further RAM region. */
#define MEMORY_MAP_MAX (GUEST_MEM_MAX_REGIONS + 2)

/* Fill `map` with at most `max` entries, in address order; returns how many.
 * A short table gets the first entries. Pure. */
unsigned memory_map_build(const struct guest_mem *mem, struct memory_map_entry *map, unsigned max);

#endif
