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

/* The legacy associativity codes of 0x80000006 (APM vol. 3, Table E-4;
 * Intel's 0x80000006 ECX[15:12] uses the same values): 0 disabled, 9 "see
 * 0x8000001D", 0xF fully associative. */
static const struct { uint32_t ways, code; } assoc_codes[] = {
	{ 1, 0x1 },  { 2, 0x2 },  { 3, 0x3 },  { 4, 0x4 },  { 6, 0x5 },   { 8, 0x6 },
	{ 16, 0x8 }, { 32, 0xa }, { 48, 0xb }, { 64, 0xc }, { 96, 0xd }, { 128, 0xe },
};

uint32_t cache_assoc_code(uint32_t ways)
{
	for (size_t i = 0; i < sizeof(assoc_codes) / sizeof(assoc_codes[0]); i++)
		if (assoc_codes[i].ways == ways)
			return assoc_codes[i].code;
	return 0x9;
}

static uint32_t assoc_ways(uint32_t code)
{
	for (size_t i = 0; i < sizeof(assoc_codes) / sizeof(assoc_codes[0]); i++)
		if (assoc_codes[i].code == code)
			return assoc_codes[i].ways;
	return 0; /* unknown: the default stays */
}

/* Older AMD: 0x80000005 ECX/EDX L1d/L1i size KiB [31:24], ways [23:16];
 * 0x80000006 ECX L2 size KiB [31:16], EDX L3 size in 512 KiB [31:18], each
 * with an associativity code at [15:12]. */
static void read_legacy_amd(struct cache_model *m, struct kvm_cpuid2 *host)
{
	struct kvm_cpuid_entry2 *l1 = cpuid_find(host, 0x80000005, 0);
	struct kvm_cpuid_entry2 *l2 = cpuid_find(host, 0x80000006, 0);
	struct { struct cache_desc *c; uint32_t size, ways; } found[] = {
		{ &m->cache[CACHE_L1D], l1 ? (l1->ecx >> 24) << 10 : 0, l1 ? (l1->ecx >> 16) & 0xff : 0 },
		{ &m->cache[CACHE_L1I], l1 ? (l1->edx >> 24) << 10 : 0, l1 ? (l1->edx >> 16) & 0xff : 0 },
		{ &m->cache[CACHE_L2], l2 ? (l2->ecx >> 16) << 10 : 0, l2 ? assoc_ways((l2->ecx >> 12) & 0xf) : 0 },
		{ &m->cache[CACHE_L3], l2 ? (l2->edx >> 18) * (512u << 10) : 0,
		  l2 ? assoc_ways((l2->edx >> 12) & 0xf) : 0 },
	};
	for (size_t i = 0; i < sizeof(found) / sizeof(found[0]); i++) {
		if (found[i].size)
			found[i].c->size = found[i].size;
		/* 0xFF in 0x80000005 is "fully associative": keep the default. */
		if (found[i].ways && found[i].ways != 0xff)
			found[i].c->ways = found[i].ways;
	}
}

void cache_model_from_host(struct cache_model *m, struct kvm_cpuid2 *host)
{
	memcpy(m->cache, default_caches, sizeof(m->cache));
	m->have_l3 = false;
	bool amd = cpuid_vendor(host) == CPU_VENDOR_AMD; /* Hygon too */
	if (!read_deterministic_leaf(m, host, amd ? 0x8000001d : 4) && amd)
		read_legacy_amd(m, host);
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

/* What the legacy leaves can say: L1 in KiB in 8 bits (0x80000005), L2 in
 * KiB in 16 bits, L3 in 512 KiB units (0x80000006). */
static const uint64_t size_min[CACHE_COUNT] = { 1 << 10, 1 << 10, 1 << 10, 512 << 10 };
static const uint64_t size_max[CACHE_COUNT] = { 128 << 10, 128 << 10, 32 << 20, 1 << 30 };

int cache_model_configure(struct cache_model *m, const struct cache_overrides *o, bool l3,
			  char *err, size_t errlen)
{
	for (int i = 0; i < CACHE_COUNT; i++) {
		uint64_t size = o->size[i];
		if (!size)
			continue;
		if (!is_power_of_two(size) || size < size_min[i] || size > size_max[i]) {
			snprintf(err, errlen, "%s %llu: expected a power of two from %lluK to %lluK",
				 cache_key[i], (unsigned long long)size,
				 (unsigned long long)(size_min[i] >> 10),
				 (unsigned long long)(size_max[i] >> 10));
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
