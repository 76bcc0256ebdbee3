/* CPUID for the guest: what KVM supports (KVM_GET_SUPPORTED_CPUID), rewritten
 * per vCPU from the CPU model, set with KVM_SET_CPUID2. */
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

/* Leaves whose subleaves are distinct entries (SDM: the output depends on ECX). */
static bool leaf_is_indexed(uint32_t function)
{
	return function == 4 || function == 7 || function == 0xb || function == 0xd ||
	       function == 0x1f || function == 0x8000001d;
}

/* Spare room is tracked in the table's padding field: KVM ignores it. */
struct kvm_cpuid_entry2 *cpuid_set(struct kvm_cpuid2 *c, uint32_t function, uint32_t index,
				   uint32_t eax, uint32_t ebx, uint32_t ecx, uint32_t edx)
{
	struct kvm_cpuid_entry2 *e = cpuid_find(c, function, index);
	if (!e) {
		if (c->padding == 0)
			return NULL;
		c->padding--;
		e = &c->entries[c->nent++];
		memset(e, 0, sizeof(*e));
		e->function = function;
		e->index = index;
		e->flags = leaf_is_indexed(function) ? KVM_CPUID_FLAG_SIGNIFCANT_INDEX : 0;
	}
	e->eax = eax;
	e->ebx = ebx;
	e->ecx = ecx;
	e->edx = edx;
	return e;
}

void cpuid_remove_range(struct kvm_cpuid2 *c, uint32_t first, uint32_t last)
{
	uint32_t kept = 0;
	for (uint32_t i = 0; i < c->nent; i++)
		if (c->entries[i].function < first || c->entries[i].function > last)
			c->entries[kept++] = c->entries[i];
	c->padding += c->nent - kept;
	c->nent = kept;
}

void cpuid_remove(struct kvm_cpuid2 *c, uint32_t function)
{
	cpuid_remove_range(c, function, function);
}

enum cpu_vendor cpuid_vendor(struct kvm_cpuid2 *c)
{
	struct kvm_cpuid_entry2 *e = cpuid_find(c, 0, 0);
	/* "AuthenticAMD" is EBX "Auth"; Hygon's "HygonGenuine" follows AMD too. */
	bool amd = e && (e->ebx == 0x68747541 || e->ebx == 0x6f677948);
	return amd ? CPU_VENDOR_AMD : CPU_VENDOR_INTEL;
}

struct kvm_cpuid2 *cpuid_for_vcpu(const struct kvm_cpuid2 *base, const struct cpu_model *model,
				  unsigned index)
{
	struct kvm_cpuid2 *c = malloc(cpuid_bytes(base->nent + CPUID_SPARE_ENTRIES));
	if (!c)
		return NULL;
	memcpy(c, base, cpuid_bytes(base->nent));
	c->padding = CPUID_SPARE_ENTRIES;
	cpuid_write_vendor(c, model);
	cpuid_write_topology(c, model, index);
	cpuid_write_caches(c, model);
	cpuid_write_kvm(c, model);
	c->padding = 0;
	return c;
}
