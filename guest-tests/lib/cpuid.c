/* Decoding CPUID leaves into plain numbers (cpuid.h has the layouts). */
#include "cpuid.h"

#include "string.h"

void cpuid_vendor(struct cpuid leaf0, char vendor[13])
{
	memcpy(vendor, &leaf0.b, 4);
	memcpy(vendor + 4, &leaf0.d, 4);
	memcpy(vendor + 8, &leaf0.c, 4);
	vendor[12] = '\0';
}

struct cpuid_topo_level cpuid_topo_level(struct cpuid r)
{
	return (struct cpuid_topo_level){ .type = (r.c >> 8) & 0xff,
					  .number = r.c & 0xff,
					  .shift = r.a & 0x1f,
					  .count = r.b & 0xffff,
					  .x2apic_id = r.d };
}

struct cpuid_cache cpuid_cache(struct cpuid r)
{
	struct cpuid_cache c = {
		.type = r.a & 0x1f,
		.level = (r.a >> 5) & 7,
		.sharing = ((r.a >> 14) & 0xfff) + 1,
		.core_ids = (r.a >> 26) + 1,
		.line = (r.b & 0xfff) + 1,
		.partitions = ((r.b >> 12) & 0x3ff) + 1,
		.ways = (r.b >> 22) + 1,
		.sets = (uint64_t)r.c + 1,
	};
	c.size = (uint64_t)c.ways * c.partitions * c.line * c.sets;
	return c;
}

struct cpuid_amd_cache cpuid_amd_l1(uint32_t reg)
{
	uint32_t ways = (reg >> 16) & 0xff;
	return (struct cpuid_amd_cache){ .size = (reg >> 24) << 10,
					 .line = reg & 0xff,
					 .ways = ways == 0xff ? 0 : ways };
}

struct cpuid_amd_cache cpuid_amd_l2(uint32_t ecx)
{
	return (struct cpuid_amd_cache){ .size = (ecx >> 16) << 10, .line = ecx & 0xff };
}

struct cpuid_amd_cache cpuid_amd_l3(uint32_t edx)
{
	return (struct cpuid_amd_cache){ .size = (edx >> 18) << 19, .line = edx & 0xff };
}
