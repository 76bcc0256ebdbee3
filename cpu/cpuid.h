/* CPUID for the guest: what KVM supports (KVM_GET_SUPPORTED_CPUID), edited
 * per vCPU, set with KVM_SET_CPUID2. */
#ifndef CPU_CPUID_H
#define CPU_CPUID_H

#include <linux/kvm.h>
#include <stdint.h>

/* KVM_GET_SUPPORTED_CPUID, growing the table while KVM answers E2BIG.
 * NULL (after a message naming the ioctl) on failure; free() the result. */
struct kvm_cpuid2 *cpuid_get_supported(int kvm_fd);

/* A copy of `base` with one vCPU's identity written in. Pure; free() it. */
struct kvm_cpuid2 *cpuid_for_vcpu(const struct kvm_cpuid2 *base, uint32_t apic_id);

/* The entry for (function, index), or NULL. */
struct kvm_cpuid_entry2 *cpuid_find(struct kvm_cpuid2 *c, uint32_t function, uint32_t index);

#endif
