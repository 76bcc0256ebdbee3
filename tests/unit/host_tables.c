/* Hand-made KVM_GET_SUPPORTED_CPUID tables for the CPU-model unit tests
 * (what each value encodes: host_tables.h). */
#include "host_tables.h"

#include <stdlib.h>
#include <string.h>

#include <check.h>

#define IDX KVM_CPUID_FLAG_SIGNIFCANT_INDEX
#define N(a) ((unsigned)(sizeof(a) / sizeof((a)[0])))

/* Deterministic cache leaf registers (SDM vol. 2A CPUID 04H; APM vol. 3
 * E.4.15): EAX type | level << 5 | self-init bit 8 | (sharing-1) << 14 [|
 * (cores-1) << 26]; EBX (line-1) | (partitions-1) << 12 | (ways-1) << 22;
 * ECX sets - 1. The host's own sharing fields are deliberately large, so a
 * test notices if they leak into the guest's. */
static const struct kvm_cpuid_entry2 intel_host[] = {
	{ .function = 0, .eax = 0x20, .ebx = INTEL_EBX, .ecx = INTEL_ECX, .edx = INTEL_EDX },
	{ .function = 1, .eax = INTEL_LEAF1_EAX, .ebx = INTEL_LEAF1_EBX, .ecx = INTEL_LEAF1_ECX,
	  .edx = INTEL_LEAF1_EDX },
	/* Leaf 2 descriptors of some real part: to be replaced by FFh. */
	{ .function = 2, .eax = 0x00feff01, .ebx = 0x000000f0 },
	/* L1d: type 1, level 1, sharing 2, cores 8; 48 KiB = 64 B x 12 ways x 64 sets:
	 * EBX 63 | 11 << 22 = 0x02c0003f, ECX 63. */
	{ .function = 4, .index = 0, .flags = IDX, .eax = 0x1c004121, .ebx = 0x02c0003f,
	  .ecx = 0x3f },
	/* L1i: type 2, level 1; 32 KiB = 64 x 8 x 64: EBX 63 | 7 << 22 = 0x01c0003f. */
	{ .function = 4, .index = 1, .flags = IDX, .eax = 0x1c004122, .ebx = 0x01c0003f,
	  .ecx = 0x3f },
	/* L2: type 3, level 2; 1 MiB = 64 x 8 x 2048: ECX 2047 = 0x7ff. */
	{ .function = 4, .index = 2, .flags = IDX, .eax = 0x1c004143, .ebx = 0x01c0003f,
	  .ecx = 0x7ff },
	/* L3: type 3, level 3, sharing 16 (15 << 14 = 0x3c000); 30 MiB = 64 x 15 x
	 * 32768: EBX 63 | 14 << 22 = 0x0380003f, ECX 0x7fff; EDX inclusive. */
	{ .function = 4, .index = 3, .flags = IDX, .eax = 0x1c03c163, .ebx = 0x0380003f,
	  .ecx = 0x7fff, .edx = 0x2 },
	{ .function = 4, .index = 4, .flags = IDX },
	/* The host's own levels: SMT (2 threads), core (8): to be rewritten. */
	{ .function = 0xb, .index = 0, .flags = IDX, .eax = 1, .ebx = 2, .ecx = 0x100, .edx = 0xaa },
	{ .function = 0xb, .index = 1, .flags = IDX, .eax = 4, .ebx = 8, .ecx = 0x201, .edx = 0xaa },
	/* 0x1F with a die level (type 5) at subleaf 2: must not survive. */
	{ .function = 0x1f, .index = 0, .flags = IDX, .eax = 1, .ebx = 2, .ecx = 0x100, .edx = 0xaa },
	{ .function = 0x1f, .index = 1, .flags = IDX, .eax = 4, .ebx = 8, .ecx = 0x201, .edx = 0xaa },
	{ .function = 0x1f, .index = 2, .flags = IDX, .eax = 6, .ebx = 16, .ecx = 0x502,
	  .edx = 0xaa },
	{ .function = 0x1f, .index = 3, .flags = IDX, .ecx = 3, .edx = 0xaa },
	{ .function = 0x80000000u, .eax = 0x80000008u },
	{ .function = 0x80000001u, .ecx = INTEL_EXT1_ECX, .edx = INTEL_EXT1_EDX },
	{ .function = 0x80000005u },
	/* L2 256 KiB, assoc 6, line 64: stale, the model says 1 MiB. */
	{ .function = 0x80000006u, .ecx = 0x01006040 },
	{ .function = 0x80000008u, .eax = 0x00003027 },
};

static const struct kvm_cpuid_entry2 amd_host[] = {
	{ .function = 0, .eax = 0x10, .ebx = AMD_EBX, .ecx = AMD_ECX, .edx = AMD_EDX },
	{ .function = 1, .eax = AMD_LEAF1_EAX, .ebx = AMD_LEAF1_EBX, .ecx = AMD_LEAF1_ECX,
	  .edx = AMD_LEAF1_EDX },
	{ .function = 0xb, .index = 0, .flags = IDX, .eax = 1, .ebx = 2, .ecx = 0x100, .edx = 0xaa },
	{ .function = 0xb, .index = 1, .flags = IDX, .eax = 7, .ebx = 32, .ecx = 0x201,
	  .edx = 0xaa },
	{ .function = 0x80000000u, .eax = 0x80000023u, .ebx = AMD_EBX, .ecx = AMD_ECX,
	  .edx = AMD_EDX },
	{ .function = 0x80000001u, .eax = AMD_LEAF1_EAX, .ecx = AMD_EXT1_ECX, .edx = AMD_EXT1_EDX },
	/* ECX/EDX: 16 KiB, 4-way, 1 line per tag, 64 B (16 << 24 | 4 << 16 | 1 << 8
	 * | 64): stale, the model says otherwise. */
	{ .function = 0x80000005u, .eax = AMD_EXT5_EAX, .ebx = AMD_EXT5_EBX, .ecx = 0x10040140,
	  .edx = 0x10040140 },
	/* ECX 512 KiB (0x200 << 16), assoc code 6, 1 line/tag, 64 B;
	 * EDX 16 MiB = 32 units of 512 KiB (32 << 18 = 0x00800000), code 8. */
	{ .function = 0x80000006u, .eax = AMD_EXT6_EAX, .ebx = AMD_EXT6_EBX, .ecx = 0x02006140,
	  .edx = 0x00808140 },
	/* ECX: PerfTscSize [17:16] 3, ApicIdSize [15:12] 7, [11:8] 0xA, NC 15. */
	{ .function = 0x80000008u, .eax = AMD_EXT8_EAX, .ecx = AMD_EXT8_ECX },
	/* L1d: type 1, level 1, sharing 2 (1 << 14); 32 KiB = 64 x 8 x 64. */
	{ .function = 0x8000001du, .index = 0, .flags = IDX, .eax = 0x4121, .ebx = 0x01c0003f,
	  .ecx = 0x3f },
	/* L1i: 64 KiB = 64 x 4 x 256: EBX 63 | 3 << 22 = 0x00c0003f, ECX 255. */
	{ .function = 0x8000001du, .index = 1, .flags = IDX, .eax = 0x4122, .ebx = 0x00c0003f,
	  .ecx = 0xff },
	/* L2: 1 MiB = 64 x 8 x 2048. */
	{ .function = 0x8000001du, .index = 2, .flags = IDX, .eax = 0x4143, .ebx = 0x01c0003f,
	  .ecx = 0x7ff, .edx = 0x2 },
	/* L3: sharing 16 (15 << 14); 32 MiB = 64 x 16 x 32768: EBX 63 | 15 << 22. */
	{ .function = 0x8000001du, .index = 3, .flags = IDX, .eax = 0x3c163, .ebx = 0x03c0003f,
	  .ecx = 0x7fff, .edx = 0x1 },
	{ .function = 0x8000001du, .index = 4, .flags = IDX },
	{ .function = 0x8000001eu, .eax = 0xaa, .ebx = 0x0107, .ecx = 0x0003 },
	{ .function = 0x80000021u, .eax = 0x00062fcf },
	{ .function = 0x80000022u, .eax = 0x7, .ebx = 0x00010006 },
};

struct kvm_cpuid2 *unit_cpuid_table(const struct kvm_cpuid_entry2 *entries, unsigned n)
{
	struct kvm_cpuid2 *c = calloc(1, sizeof(*c) + n * sizeof(c->entries[0]));
	ck_assert_ptr_nonnull(c);
	c->nent = n;
	if (n)
		memcpy(c->entries, entries, n * sizeof(c->entries[0]));
	return c;
}

struct kvm_cpuid2 *unit_intel_host(void)
{
	return unit_cpuid_table(intel_host, N(intel_host));
}

struct kvm_cpuid2 *unit_amd_host(void)
{
	return unit_cpuid_table(amd_host, N(amd_host));
}

void unit_cpuid_drop(struct kvm_cpuid2 *c, uint32_t function)
{
	uint32_t kept = 0;
	for (uint32_t i = 0; i < c->nent; i++)
		if (c->entries[i].function != function)
			c->entries[kept++] = c->entries[i];
	c->nent = kept;
}

struct kvm_cpuid_entry2 *unit_cpuid_get(struct kvm_cpuid2 *c, uint32_t function, uint32_t index)
{
	for (uint32_t i = 0; i < c->nent; i++) {
		struct kvm_cpuid_entry2 *e = &c->entries[i];
		if (e->function == function &&
		    (!(e->flags & KVM_CPUID_FLAG_SIGNIFCANT_INDEX) || e->index == index))
			return e;
	}
	return NULL;
}
