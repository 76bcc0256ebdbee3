/* CPUID for the guest: what KVM supports (KVM_GET_SUPPORTED_CPUID), edited
 * per vCPU, set with KVM_SET_CPUID2. */
#include "cpuid.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>

#include "../vmm/log.h"

#define CPUID_FIRST_GUESS 64
#define CPUID_MAX_ENTRIES 4096

static size_t cpuid_bytes(uint32_t nent)
{
	return sizeof(struct kvm_cpuid2) + nent * sizeof(struct kvm_cpuid_entry2);
}

struct kvm_cpuid2 *cpuid_get_supported(int kvm_fd)
{
	for (uint32_t nent = CPUID_FIRST_GUESS; nent <= CPUID_MAX_ENTRIES; nent *= 2) {
		struct kvm_cpuid2 *c = calloc(1, cpuid_bytes(nent));
		if (!c)
			return NULL;
		c->nent = nent;
		if (ioctl(kvm_fd, KVM_GET_SUPPORTED_CPUID, c) == 0)
			return c;
		int e = errno;
		free(c);
		if (e != E2BIG) {
			vmm_log("KVM_GET_SUPPORTED_CPUID: %s", strerror(e));
			return NULL;
		}
	}
	vmm_log("KVM_GET_SUPPORTED_CPUID: more than %d entries", CPUID_MAX_ENTRIES);
	return NULL;
}

struct kvm_cpuid_entry2 *cpuid_find(struct kvm_cpuid2 *c, uint32_t function, uint32_t index)
{
	for (uint32_t i = 0; i < c->nent; i++) {
		struct kvm_cpuid_entry2 *e = &c->entries[i];
		bool indexed = e->flags & KVM_CPUID_FLAG_SIGNIFCANT_INDEX;
		if (e->function == function && (!indexed || e->index == index))
			return e;
	}
	return NULL;
}

/* CPUID.01H:EBX[31:24] initial APIC ID; CPUID.01H:ECX[31] "hypervisor present"
 * (reserved for hypervisor use, Intel SDM vol. 2A, Table 3-10). */
#define CPUID_1_EBX_APIC_ID_SHIFT 24
#define CPUID_1_ECX_HYPERVISOR (1u << 31)

struct kvm_cpuid2 *cpuid_for_vcpu(const struct kvm_cpuid2 *base, uint32_t apic_id)
{
	size_t bytes = cpuid_bytes(base->nent);
	struct kvm_cpuid2 *c = malloc(bytes);
	if (!c)
		return NULL;
	memcpy(c, base, bytes);
	struct kvm_cpuid_entry2 *leaf1 = cpuid_find(c, 1, 0);
	if (leaf1) {
		leaf1->ebx = (leaf1->ebx & 0x00ffffffu) | ((apic_id & 0xffu) << CPUID_1_EBX_APIC_ID_SHIFT);
		leaf1->ecx |= CPUID_1_ECX_HYPERVISOR;
	}
	return c;
}
