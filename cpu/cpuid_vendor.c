/* CPUID vendor identity: the vendor string (leaf 0, and 0x80000000 on AMD)
 * and the highest leaves, so the guest reads the leaves we write. */
#include <string.h>

#include "cpuid.h"

const char *cpu_vendor_string(enum cpu_vendor vendor)
{
	return vendor == CPU_VENDOR_AMD ? "AuthenticAMD" : "GenuineIntel";
}

/* The string is spread over EBX, EDX, ECX in that order (SDM vol. 2A CPUID 00H). */
static void vendor_registers(enum cpu_vendor vendor, uint32_t *ebx, uint32_t *ecx, uint32_t *edx)
{
	const char *s = cpu_vendor_string(vendor);
	memcpy(ebx, s, 4);
	memcpy(edx, s + 4, 4);
	memcpy(ecx, s + 8, 4);
}

#define MAX_BASIC_LEAF 0x1f        /* we write 0xB and 0x1F */
#define MAX_EXT_LEAF_AMD 0x8000001e /* we write 0x8000001D and 0x8000001E */
#define MAX_EXT_LEAF_INTEL 0x80000008 /* Intel defines nothing above */

void cpuid_write_vendor(struct kvm_cpuid2 *c, const struct cpu_model *model)
{
	uint32_t ebx, ecx, edx;
	vendor_registers(model->vendor, &ebx, &ecx, &edx);
	struct kvm_cpuid_entry2 *leaf0 = cpuid_find(c, 0, 0);
	uint32_t max_basic = leaf0 && leaf0->eax > MAX_BASIC_LEAF ? leaf0->eax : MAX_BASIC_LEAF;
	cpuid_set(c, 0, 0, max_basic, ebx, ecx, edx);

	struct kvm_cpuid_entry2 *ext = cpuid_find(c, 0x80000000, 0);
	uint32_t max_ext = ext ? ext->eax : 0x80000000;
	if (model->vendor == CPU_VENDOR_AMD) {
		/* AMD repeats the vendor string in 0x80000000 (APM vol. 3 E.4.1). */
		if (max_ext < MAX_EXT_LEAF_AMD)
			max_ext = MAX_EXT_LEAF_AMD;
		cpuid_set(c, 0x80000000, 0, max_ext, ebx, ecx, edx);
	} else {
		cpuid_set(c, 0x80000000, 0, MAX_EXT_LEAF_INTEL, 0, 0, 0);
		/* KVM answers from any entry it has, even above the maximum. */
		cpuid_remove_range(c, MAX_EXT_LEAF_INTEL + 1, 0x8000ffff);
	}
}
