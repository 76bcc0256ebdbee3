/* The cache model: one description of every cache level (size, ways, line,
 * who shares it), from which both vendors' CPUID leaves and the FDT are
 * written, so they cannot disagree. */
#ifndef CPU_CACHE_H
#define CPU_CACHE_H

#include <linux/kvm.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "topology.h"

enum cache_type { CACHE_DATA = 1, CACHE_INSTRUCTION = 2, CACHE_UNIFIED = 3 };

/* Who shares one instance of the cache. */
enum cache_scope {
	CACHE_PER_CORE,   /* the SMT threads of one core (L1, L2) */
	CACHE_PER_SOCKET, /* every thread of one socket (L3) */
};

struct cache_desc {
	unsigned level;
	enum cache_type type;
	uint32_t size; /* bytes */
	uint32_t ways;
	uint32_t line; /* bytes */
	enum cache_scope scope;
};

enum cache_index { CACHE_L1D, CACHE_L1I, CACHE_L2, CACHE_L3, CACHE_COUNT };

struct cache_model {
	struct cache_desc cache[CACHE_COUNT];
	bool have_l3; /* exposed to the guest */
};

/* Sizes the user set; 0 = take the host's. */
struct cache_overrides {
	uint64_t size[CACHE_COUNT];
};

/* The host's caches as KVM_GET_SUPPORTED_CPUID reports them (leaf 4 on
 * Intel, 0x8000001D or else 0x80000005/6 on AMD), or fixed defaults for
 * whatever is missing. Pure. */
void cache_model_from_host(struct cache_model *m, struct kvm_cpuid2 *host);

/* Apply size overrides and the L3 choice. 0, or -1 with a reason. */
int cache_model_configure(struct cache_model *m, const struct cache_overrides *o, bool l3,
			  char *err, size_t errlen);

static inline uint32_t cache_sets(const struct cache_desc *c)
{
	return c->size / (c->ways * c->line);
}

/* How many logical CPUs share one instance of the cache. */
unsigned cache_sharing(const struct cache_desc *c, const struct topology *topo);

/* The same, rounded up to the APIC ID space it spans (1 << bits): what Intel's
 * leaf 4 reports, and what apic >> bits groups by. */
unsigned cache_sharing_ids(const struct cache_desc *c, const struct topology *topo);

/* The legacy associativity code (0x80000006, both vendors) for `ways`. */
uint32_t cache_assoc_code(uint32_t ways);

/* The caches the guest sees, in CPUID subleaf order: L1d, L1i, L2, [L3]. */
unsigned cache_model_count(const struct cache_model *m);

#endif
