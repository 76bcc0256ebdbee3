/* The guest's physical memory map as a PC firmware would report it: the one
 * producer behind both boot protocols' tables (PVH's memmap, Linux's e820). */
#include "memory_map.h"

#include "layout.h"

struct map_builder {
	struct memory_map_entry *map;
	unsigned max, n;
};

static void add(struct map_builder *b, uint64_t addr, uint64_t size, enum memory_map_type type)
{
	if (b->n < b->max)
		b->map[b->n++] = (struct memory_map_entry){ addr, size, type };
}

unsigned memory_map_build(const struct guest_mem *mem, struct memory_map_entry *map, unsigned max)
{
	struct map_builder b = { map, max, 0 };
	const struct guest_mem_region *low = &mem->region[0];
	uint64_t low_end = low->gpa + low->size;
	/* The legacy VGA/BIOS hole is reserved as on a PC, so a guest never
	 * allocates from where firmware (and our ACPI tables) sit; KVM still
	 * maps RAM there. */
	add(&b, 0, low_end < LOW_RAM_END ? low_end : LOW_RAM_END, MEMORY_MAP_RAM);
	if (low_end > HIGH_RAM_START) {
		add(&b, LOW_RAM_END, HIGH_RAM_START - LOW_RAM_END, MEMORY_MAP_RESERVED);
		add(&b, HIGH_RAM_START, low_end - HIGH_RAM_START, MEMORY_MAP_RAM);
	}
	for (unsigned i = 1; i < mem->nregions; i++)
		add(&b, mem->region[i].gpa, mem->region[i].size, MEMORY_MAP_RAM);
	return b.n;
}
