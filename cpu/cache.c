/* The cache model: one description of every cache level (size, ways, line,
 * who shares it), from which both vendors' CPUID leaves and the FDT are
 * written, so they cannot disagree. */
#include "cache.h"

#include <stdio.h>
#include <string.h>

#include "cpuid.h"

/* Used where the host says nothing (a typical recent x86 core). */
static const struct cache_desc default_caches[CACHE_COUNT] = {
	[CACHE_L1D] = { 1, CACHE_DATA, 32 << 10, 8, 64, CACHE_PER_CORE },
	[CACHE_L1I] = { 1, CACHE_INSTRUCTION, 32 << 10, 8, 64, CACHE_PER_CORE },
	[CACHE_L2] = { 2, CACHE_UNIFIED, 512 << 10, 8, 64, CACHE_PER_CORE },
	[CACHE_L3] = { 3, CACHE_UNIFIED, 16 << 20, 16, 64, CACHE_PER_SOCKET },
};

static int index_for(unsigned level, enum cache_type type)
{
	if (level == 1 && type == CACHE_DATA)
		return CACHE_L1D;
	if (level == 1 && type == CACHE_INSTRUCTION)
		return CACHE_L1I;
	if (level == 2 && type == CACHE_UNIFIED)
		return CACHE_L2;
	if (level == 3 && type == CACHE_UNIFIED)
		return CACHE_L3;
	return -1;
}

/* Leaf 4 and 0x8000001D share this layout (SDM vol. 2A CPUID 04H; APM vol. 3
 * E.4.15): EAX[4:0] type, [7:5] level; EBX[11:0] line-1, [21:12] partitions-1,
 * [31:22] ways-1; ECX sets-1. */
static bool read_deterministic_leaf(struct cache_model *m, struct kvm_cpuid2 *host, uint32_t leaf)
{
	bool found = false;
	for (uint32_t sub = 0; sub < 8; sub++) {
		struct kvm_cpuid_entry2 *e = cpuid_find(host, leaf, sub);
		if (!e || (e->eax & 0x1f) == 0)
			break;
		int i = index_for((e->eax >> 5) & 7, (enum cache_type)(e->eax & 0x1f));
		if (i < 0)
			continue;
		uint64_t line = (e->ebx & 0xfff) + 1, parts = ((e->ebx >> 12) & 0x3ff) + 1,
			 ways = ((e->ebx >> 22) & 0x3ff) + 1, sets = (uint64_t)e->ecx + 1;
		uint64_t size = line * parts * ways * sets;
		if (size > UINT32_MAX)
			continue;
		m->cache[i].size = (uint32_t)size;
		m->cache[i].ways = (uint32_t)(ways * parts);
		m->cache[i].line = (uint32_t)line;
		found = true;
	}
	return found;
}

void cache_model_from_host(struct cache_model *m, struct kvm_cpuid2 *host)
{
	memcpy(m->cache, default_caches, sizeof(m->cache));
	m->have_l3 = false;
	struct kvm_cpuid_entry2 *vendor = cpuid_find(host, 0, 0);
	bool amd = vendor && vendor->ebx == 0x68747541; /* "Auth" */
	if (!read_deterministic_leaf(m, host, amd ? 0x8000001d : 4) && amd) {
		/* Older AMD: 0x80000005 ECX L1d size KiB [31:24], EDX L1i;
		 * 0x80000006 ECX L2 size KiB [31:16]. Ways stay the defaults. */
		struct kvm_cpuid_entry2 *l1 = cpuid_find(host, 0x80000005, 0);
		struct kvm_cpuid_entry2 *l2 = cpuid_find(host, 0x80000006, 0);
		if (l1 && (l1->ecx >> 24))
			m->cache[CACHE_L1D].size = (l1->ecx >> 24) << 10;
		if (l1 && (l1->edx >> 24))
			m->cache[CACHE_L1I].size = (l1->edx >> 24) << 10;
		if (l2 && (l2->ecx >> 16))
			m->cache[CACHE_L2].size = (l2->ecx >> 16) << 10;
		if (l2 && (l2->edx >> 18))
			m->cache[CACHE_L3].size = (l2->edx >> 18) * (512u << 10);
	}
	/* A host value that does not divide evenly into sets is replaced by the
	 * default, so every cache satisfies size = ways * line * sets. */
	for (int i = 0; i < CACHE_COUNT; i++) {
		struct cache_desc *c = &m->cache[i];
		if (!c->ways || !c->line || c->size % (c->ways * c->line))
			*c = default_caches[i];
	}
}

static bool is_power_of_two(uint64_t v)
{
	return v && !(v & (v - 1));
}

/* The host's associativity if it divides the new size into whole sets, else
 * the largest power of two below it that does (a power-of-two size always
 * divides by a power-of-two ways * line). */
static uint32_t fitting_ways(uint32_t ways, uint32_t line, uint32_t size)
{
	if ((uint64_t)ways * line <= size && size % (ways * line) == 0)
		return ways;
	uint32_t w = 1;
	while (w * 2 <= ways && (uint64_t)w * 2 * line <= size)
		w *= 2;
	return w;
}

static const char *const cache_key[CACHE_COUNT] = { "l1d-size", "l1i-size", "l2-size", "l3-size" };

int cache_model_configure(struct cache_model *m, const struct cache_overrides *o, bool l3,
			  char *err, size_t errlen)
{
	for (int i = 0; i < CACHE_COUNT; i++) {
		uint64_t size = o->size[i];
		if (!size)
			continue;
		if (!is_power_of_two(size) || size < 1024 || size > (1ull << 30)) {
			snprintf(err, errlen, "%s %llu: expected a power of two from 1K to 1G",
				 cache_key[i], (unsigned long long)size);
			return -1;
		}
		struct cache_desc *c = &m->cache[i];
		c->size = (uint32_t)size;
		c->ways = fitting_ways(c->ways, c->line, c->size);
	}
	m->have_l3 = l3;
	return 0;
}

unsigned cache_sharing(const struct cache_desc *c, const struct topology *topo)
{
	return c->scope == CACHE_PER_CORE ? topo->threads : topology_cpus_per_socket(topo);
}

unsigned cache_sharing_ids(const struct cache_desc *c, const struct topology *topo)
{
	unsigned bits = c->scope == CACHE_PER_CORE ? topo->smt_bits : topology_package_shift(topo);
	return 1u << bits;
}

unsigned cache_model_count(const struct cache_model *m)
{
	return m->have_l3 ? 4 : 3;
}
