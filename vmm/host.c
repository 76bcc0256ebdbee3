/* Facts about the host machine vmm runs on. */
#include "host.h"

#include <unistd.h>

uint64_t host_memory_bytes(void)
{
	long pages = sysconf(_SC_PHYS_PAGES);
	long page_size = sysconf(_SC_PAGESIZE);
	if (pages <= 0 || page_size <= 0)
		return 0;
	return (uint64_t)pages * (uint64_t)page_size;
}
