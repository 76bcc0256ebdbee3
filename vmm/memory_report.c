/* What a run cost in memory: vmm's peak RSS against the guest RAM the guest
 * touched, so the VMM's own overhead can be told apart. */
#include "memory_report.h"

#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

/* Resident pages of the guest mapping (mincore): what the guest (and the
 * loader) touched, since the mapping is MAP_NORESERVE and starts empty. */
static uint64_t guest_resident_bytes(const struct guest_mem *mem)
{
	long page = sysconf(_SC_PAGESIZE);
	if (!mem->mapping || page <= 0)
		return 0;
	size_t pages = (mem->ram_size + (uint64_t)page - 1) / (uint64_t)page;
	unsigned char *vec = malloc(pages);
	if (!vec)
		return 0;
	uint64_t resident = 0;
	if (mincore(mem->mapping, mem->ram_size, vec) == 0)
		for (size_t i = 0; i < pages; i++)
			resident += vec[i] & 1;
	free(vec);
	return resident * (uint64_t)page;
}

void memory_report_print(const struct guest_mem *mem, FILE *out)
{
	struct rusage ru;
	if (getrusage(RUSAGE_SELF, &ru) < 0)
		return;
	long long peak_kib = ru.ru_maxrss; /* Linux reports KiB */
	long long guest_kib = (long long)(guest_resident_bytes(mem) >> 10);
	fprintf(out, "vmm: memory peak_rss_kib=%lld guest_resident_kib=%lld overhead_kib=%lld\n",
		peak_kib, guest_kib, peak_kib - guest_kib);
}
