/* The KVM paravirtual leaves: 0x40000000 (signature "KVMKVMKVM") and
 * 0x40000001 (features), kept as KVM offers them, but for kvmclock's bits
 * when the config turns kvmclock off. */
#include "cpuid.h"

/* CPUID.40000001H:EAX (Documentation/virt/kvm/x86/cpuid.rst). */
#define KVM_FEATURE_CLOCKSOURCE (1u << 0)
#define KVM_FEATURE_CLOCKSOURCE2 (1u << 3)
#define KVM_FEATURE_CLOCKSOURCE_STABLE_BIT (1u << 24)

void cpuid_write_kvm(struct kvm_cpuid2 *c, const struct cpu_model *model)
{
	struct kvm_cpuid_entry2 *e = cpuid_find(c, 0x40000001, 0);
	if (e && !model->kvmclock)
		e->eax &= ~(KVM_FEATURE_CLOCKSOURCE | KVM_FEATURE_CLOCKSOURCE2 |
			    KVM_FEATURE_CLOCKSOURCE_STABLE_BIT);
}
