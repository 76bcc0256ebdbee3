/* Guest RAM: the host mapping, the KVM memory slots, and the one bounds-checked
 * guest-physical -> host pointer helper every access goes through. */
#include "guest_mem.h"

#include <errno.h>
#include <linux/kvm.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>

#include "layout.h"

bool guest_mem_layout(struct guest_mem *mem, uint8_t *host, uint64_t ram_size)
{
	memset(mem, 0, sizeof(*mem));
	if (ram_size == 0)
		return false;
	uint64_t low = ram_size < MMIO_HOLE_START ? ram_size : MMIO_HOLE_START;
	mem->region[0] = (struct guest_mem_region){ .gpa = 0, .size = low, .host = host };
	mem->nregions = 1;
	if (ram_size > low) {
		mem->region[1] = (struct guest_mem_region){
			.gpa = MMIO_HOLE_END, .size = ram_size - low, .host = host + low
		};
		mem->nregions = 2;
	}
	mem->mapping = host;
	mem->ram_size = ram_size;
	return true;
}

int guest_mem_alloc(struct guest_mem *mem, uint64_t ram_size)
{
	if (ram_size == 0 || ram_size > SIZE_MAX)
		return -EINVAL;
	/* MAP_NORESERVE: the guest touches only what it uses, and the RSS
	 * benchmark measures exactly that. */
	void *host = mmap(NULL, ram_size, PROT_READ | PROT_WRITE,
			  MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (host == MAP_FAILED)
		return -errno;
	guest_mem_layout(mem, host, ram_size);
	return 0;
}

void guest_mem_free(struct guest_mem *mem)
{
	if (mem->mapping)
		munmap(mem->mapping, mem->ram_size);
	memset(mem, 0, sizeof(*mem));
}

int guest_mem_register(const struct guest_mem *mem, int vm_fd)
{
	for (unsigned i = 0; i < mem->nregions; i++) {
		const struct guest_mem_region *r = &mem->region[i];
		struct kvm_userspace_memory_region slot = {
			.slot = i,
			.guest_phys_addr = r->gpa,
			.memory_size = r->size,
			.userspace_addr = (uint64_t)(uintptr_t)r->host,
		};
		if (ioctl(vm_fd, KVM_SET_USER_MEMORY_REGION, &slot) < 0)
			return -errno;
	}
	return 0;
}

void *guest_mem_ptr(const struct guest_mem *mem, uint64_t gpa, uint64_t len)
{
	if (len == 0)
		return NULL;
	for (unsigned i = 0; i < mem->nregions; i++) {
		const struct guest_mem_region *r = &mem->region[i];
		/* Written so that no sum can wrap: offset < size, then len <= size - offset. */
		if (gpa < r->gpa)
			continue;
		uint64_t offset = gpa - r->gpa;
		if (offset >= r->size || len > r->size - offset)
			continue;
		return r->host + offset;
	}
	return NULL;
}

bool guest_mem_write(const struct guest_mem *mem, uint64_t gpa, const void *src, uint64_t len)
{
	void *dst = guest_mem_ptr(mem, gpa, len);
	if (!dst)
		return false;
	memcpy(dst, src, len);
	return true;
}

bool guest_mem_read(const struct guest_mem *mem, uint64_t gpa, void *dst, uint64_t len)
{
	const void *src = guest_mem_ptr(mem, gpa, len);
	if (!src)
		return false;
	memcpy(dst, src, len);
	return true;
}

uint64_t guest_mem_region_end(const struct guest_mem *mem, uint64_t gpa)
{
	for (unsigned i = 0; i < mem->nregions; i++) {
		const struct guest_mem_region *r = &mem->region[i];
		if (gpa >= r->gpa && gpa - r->gpa < r->size)
			return r->gpa + r->size;
	}
	return 0;
}
