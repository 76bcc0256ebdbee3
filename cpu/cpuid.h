/* CPUID for the guest: what KVM supports (KVM_GET_SUPPORTED_CPUID), rewritten
 * per vCPU from the CPU model, set with KVM_SET_CPUID2. */
#ifndef CPU_CPUID_H
#define CPU_CPUID_H

#include <linux/kvm.h>
#include <stdint.h>

#include "cpu_model.h"

/* KVM_GET_SUPPORTED_CPUID, growing the table while KVM answers E2BIG.
 * NULL (after a message naming the ioctl) on failure; free() the result. */
struct kvm_cpuid2 *cpuid_get_supported(int kvm_fd);

/* The vendor of the host, from leaf 0 of a CPUID table. */
enum cpu_vendor cpuid_vendor(struct kvm_cpuid2 *c);

/* vCPU `index`'s CPUID: `base` with every vendor, topology and cache field
 * written from the model. Pure; free() the result; NULL if out of memory. */
struct kvm_cpuid2 *cpuid_for_vcpu(const struct kvm_cpuid2 *base, const struct cpu_model *model,
				  unsigned index);

/* Table editing. An entry is (function, index); index matters only for
 * functions flagged KVM_CPUID_FLAG_SIGNIFCANT_INDEX. */
struct kvm_cpuid_entry2 *cpuid_find(struct kvm_cpuid2 *c, uint32_t function, uint32_t index);

/* Replace or append (function, index). Appending needs spare room, which
 * only a table under construction in cpuid_for_vcpu has (CPUID_SPARE_ENTRIES,
 * counted in `padding`); a finished table has none. Returns the entry, or
 * NULL when there is no room. */
#define CPUID_SPARE_ENTRIES 64
struct kvm_cpuid_entry2 *cpuid_set(struct kvm_cpuid2 *c, uint32_t function, uint32_t index,
				   uint32_t eax, uint32_t ebx, uint32_t ecx, uint32_t edx);

/* Drop every entry of `function` (all subleaves), or of every function in
 * [first, last]. */
void cpuid_remove(struct kvm_cpuid2 *c, uint32_t function);
void cpuid_remove_range(struct kvm_cpuid2 *c, uint32_t first, uint32_t last);

/* The per-leaf writers, one file each (cpuid_vendor.c, cpuid_topology.c,
 * cpuid_cache.c, cpuid_kvm.c), applied in this order by cpuid_for_vcpu. */
void cpuid_write_vendor(struct kvm_cpuid2 *c, const struct cpu_model *model);
void cpuid_write_topology(struct kvm_cpuid2 *c, const struct cpu_model *model, unsigned index);
void cpuid_write_caches(struct kvm_cpuid2 *c, const struct cpu_model *model);
void cpuid_write_kvm(struct kvm_cpuid2 *c, const struct cpu_model *model);

#endif
