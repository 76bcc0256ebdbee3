/* Guest RAM: the host mapping, the KVM memory slots, and the one bounds-checked
 * guest-physical -> host pointer helper every access goes through. */
#ifndef VMM_GUEST_MEM_H
#define VMM_GUEST_MEM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define GUEST_MEM_MAX_REGIONS 2

struct guest_mem_region {
	uint64_t gpa;  /* first guest-physical address */
	uint64_t size; /* bytes */
	uint8_t *host; /* host address of gpa */
};

struct guest_mem {
	struct guest_mem_region region[GUEST_MEM_MAX_REGIONS];
	unsigned nregions;
	uint8_t *mapping; /* one host mapping backs every region */
	uint64_t ram_size; /* total bytes of RAM */
};

/* Lay out `ram_size` bytes (below the MMIO hole, then above 4 GiB) over the
 * host memory at `host`. Pure: no allocation. Returns false if ram_size is 0. */
bool guest_mem_layout(struct guest_mem *mem, uint8_t *host, uint64_t ram_size);

/* mmap the RAM and lay it out. Returns 0 or -errno. */
int guest_mem_alloc(struct guest_mem *mem, uint64_t ram_size);
void guest_mem_free(struct guest_mem *mem);

/* Register every region with KVM (KVM_SET_USER_MEMORY_REGION). 0 or -errno. */
int guest_mem_register(const struct guest_mem *mem, int vm_fd);

/* The host pointer for [gpa, gpa + len) if the whole range lies inside one
 * RAM region, else NULL. len 0 is rejected. Overflow-safe for any inputs. */
void *guest_mem_ptr(const struct guest_mem *mem, uint64_t gpa, uint64_t len);

/* Copy helpers built on guest_mem_ptr; false if the range is not RAM. */
bool guest_mem_write(const struct guest_mem *mem, uint64_t gpa, const void *src, uint64_t len);
bool guest_mem_read(const struct guest_mem *mem, uint64_t gpa, void *dst, uint64_t len);

/* End of the RAM region that contains gpa (exclusive), or 0 if gpa is not RAM. */
uint64_t guest_mem_region_end(const struct guest_mem *mem, uint64_t gpa);

#endif
