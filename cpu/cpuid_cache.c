/* CPUID cache leaves, written from the one cache model for either vendor:
 * Intel's leaf 2 and deterministic leaf 4; AMD's 0x80000005/0x80000006 and
 * 0x8000001D. The L3 appears in all of them, or in none. */
#include "cpuid.h"

#include "../vmm/test_fault.h"

/* Leaf 4 / 0x8000001D EAX (SDM vol. 2A CPUID 04H; APM vol. 3 E.4.15). */
#define CACHE_EAX_SELF_INIT (1u << 8)
#define CACHE_EAX_SHARING_SHIFT 14 /* [25:14] sharing - 1 */
#define CACHE_EAX_CORES_SHIFT 26   /* [31:26] core IDs per package - 1 (leaf 4 only) */

/* EAX type/level/self-init, EBX line/partitions/ways, ECX sets: the layout
 * leaf 4 and 0x8000001D share. */
static void deterministic_regs(const struct cache_desc *d, uint32_t sharing_minus_1,
			       uint32_t *eax, uint32_t *ebx, uint32_t *ecx)
{
	*eax = (uint32_t)d->type | (d->level << 5) | CACHE_EAX_SELF_INIT |
	       ((sharing_minus_1 & 0xfff) << CACHE_EAX_SHARING_SHIFT);
	*ebx = (d->line - 1) | (0u << 12) | ((d->ways - 1) << 22);
	*ecx = cache_sets(d) - 1;
}

/* The sharing counts, unless the test build is told to get the L3's wrong
 * (as if it were private to a core): what cpuid-topo must catch. */
static unsigned sharing(const struct cache_desc *d, const struct topology *t)
{
	if (d->level == 3 && test_fault_active(TEST_FAULT_L3_SHARING))
		return t->threads;
	return cache_sharing(d, t);
}

static unsigned sharing_ids(const struct cache_desc *d, const struct topology *t)
{
	if (d->level == 3 && test_fault_active(TEST_FAULT_L3_SHARING))
		return 1u << t->smt_bits;
	return cache_sharing_ids(d, t);
}

static void write_intel_caches(struct kvm_cpuid2 *c, const struct cpu_model *m)
{
	const struct topology *t = &m->topo;
	unsigned n = cache_model_count(&m->caches);
	/* EAX[31:26]: addressable core IDs in the package - 1, the span of the
	 * core field of the APIC ID. */
	uint32_t cores_field = ((1u << t->core_bits) - 1) << CACHE_EAX_CORES_SHIFT;
	cpuid_remove(c, 4);
	for (unsigned i = 0; i < n; i++) {
		const struct cache_desc *d = &m->caches.cache[i];
		uint32_t eax, ebx, ecx;
		/* Sharing: addressable IDs, so apic >> order(sharing) groups exactly
		 * the CPUs that share it (SDM note: nearest power of two). */
		deterministic_regs(d, sharing_ids(d, t) - 1, &eax, &ebx, &ecx);
		cpuid_set(c, 4, i, eax | cores_field, ebx, ecx, 0);
	}
	cpuid_set(c, 4, n, 0, 0, 0, 0); /* type 0: no more caches */
	/* Leaf 2 descriptor 0xFF: "no cache descriptors here, use leaf 4"
	 * (SDM vol. 2A Table 3-12); AL = 1 iteration. */
	cpuid_set(c, 2, 0, 0x0000ff01, 0, 0, 0);
	/* 0x80000006 ECX: L2 size KiB [31:16], associativity [15:12], line [7:0];
	 * Intel reserves 0x80000005 and 0x80000006 EDX. */
	const struct cache_desc *l2 = &m->caches.cache[CACHE_L2];
	cpuid_set(c, 0x80000005, 0, 0, 0, 0, 0);
	cpuid_set(c, 0x80000006, 0, 0, 0,
		  ((l2->size >> 10) << 16) | (cache_assoc_code(l2->ways) << 12) | l2->line, 0);
	cpuid_remove(c, 0x8000001d);
}

/* 0x80000005 ECX/EDX (L1d/L1i): size KiB [31:24], ways [23:16] (0xFF fully
 * associative), lines per tag [15:8], line size [7:0]. */
static uint32_t amd_l1_reg(const struct cache_desc *d)
{
	return ((d->size >> 10) << 24) | ((d->ways & 0xff) << 16) | (1u << 8) | d->line;
}

static void write_amd_caches(struct kvm_cpuid2 *c, const struct cpu_model *m)
{
	const struct topology *t = &m->topo;
	const struct cache_desc *cache = m->caches.cache;
	unsigned n = cache_model_count(&m->caches);
	cpuid_remove(c, 0x8000001d);
	for (unsigned i = 0; i < n; i++) {
		uint32_t eax, ebx, ecx;
		/* NumSharingCache: the logical processors sharing it - 1 (APM). */
		deterministic_regs(&cache[i], sharing(&cache[i], t) - 1, &eax, &ebx, &ecx);
		cpuid_set(c, 0x8000001d, i, eax, ebx, ecx, 0);
	}
	cpuid_set(c, 0x8000001d, n, 0, 0, 0, 0);

	struct kvm_cpuid_entry2 *l1 = cpuid_find(c, 0x80000005, 0);
	uint32_t tlb_eax = l1 ? l1->eax : 0, tlb_ebx = l1 ? l1->ebx : 0;
	cpuid_set(c, 0x80000005, 0, tlb_eax, tlb_ebx, amd_l1_reg(&cache[CACHE_L1D]),
		  amd_l1_reg(&cache[CACHE_L1I]));

	struct kvm_cpuid_entry2 *l2l3 = cpuid_find(c, 0x80000006, 0);
	uint32_t l2tlb_eax = l2l3 ? l2l3->eax : 0, l2tlb_ebx = l2l3 ? l2l3->ebx : 0;
	const struct cache_desc *l2 = &cache[CACHE_L2], *l3 = &cache[CACHE_L3];
	/* ECX: L2 size KiB [31:16], assoc [15:12], lines/tag [11:8], line [7:0]. */
	uint32_t ecx = ((l2->size >> 10) << 16) | (cache_assoc_code(l2->ways) << 12) | (1u << 8) |
		       l2->line;
	/* EDX: L3 size in 512 KiB units [31:18], same fields below. Without an
	 * L3 it says "disabled" (size 0, associativity code 0) but keeps the line
	 * size: Linux treats EDX == 0 as "no L3 leaf" and then takes the whole
	 * socket as the last-level cache, which is not what "off" is for. With
	 * this encoding it takes the last 0x8000001D cache (the per-core L2). */
	uint32_t edx = l3->line;
	if (m->caches.have_l3)
		edx = ((l3->size / (512u << 10)) << 18) | (cache_assoc_code(l3->ways) << 12) |
		      (1u << 8) | l3->line;
	cpuid_set(c, 0x80000006, 0, l2tlb_eax, l2tlb_ebx, ecx, edx);
	/* AMD defines no leaf 4: Linux reads 0x8000001D on AMD. */
	cpuid_remove(c, 4);
}

void cpuid_write_caches(struct kvm_cpuid2 *c, const struct cpu_model *model)
{
	if (model->vendor == CPU_VENDOR_AMD)
		write_amd_caches(c, model);
	else
		write_intel_caches(c, model);
}
