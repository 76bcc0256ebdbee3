/* The KVM paravirtual leaves: 0x40000000 (signature "KVMKVMKVM") and
 * 0x40000001 (features), kept as KVM offers them, but for kvmclock's bits
 * when the config turns kvmclock off and the hypercall-based features for a
 * guest of the other vendor. */
#include "cpuid.h"

/* CPUID.40000001H:EAX (Documentation/virt/kvm/x86/cpuid.rst). */
#define KVM_FEATURE_CLOCKSOURCE (1u << 0)
#define KVM_FEATURE_CLOCKSOURCE2 (1u << 3)
#define KVM_FEATURE_CLOCKSOURCE_STABLE_BIT (1u << 24)
/* The features whose guest side is a hypercall: KVM_HC_KICK_CPU,
 * KVM_HC_SEND_IPI, KVM_HC_SCHED_YIELD. */
#define KVM_FEATURE_PV_UNHALT (1u << 7)
#define KVM_FEATURE_PV_SEND_IPI (1u << 11)
#define KVM_FEATURE_PV_SCHED_YIELD (1u << 13)
#define KVM_HYPERCALL_FEATURES \
	(KVM_FEATURE_PV_UNHALT | KVM_FEATURE_PV_SEND_IPI | KVM_FEATURE_PV_SCHED_YIELD)

void cpuid_write_kvm(struct kvm_cpuid2 *c, const struct cpu_model *model)
{
	struct kvm_cpuid_entry2 *e = cpuid_find(c, 0x40000001, 0);
	if (e && !model->kvmclock)
		e->eax &= ~(KVM_FEATURE_CLOCKSOURCE | KVM_FEATURE_CLOCKSOURCE2 |
			    KVM_FEATURE_CLOCKSOURCE_STABLE_BIT);
	/* A guest told it runs on the other vendor issues that vendor's
	 * hypercall instruction (Intel VMCALL on an AMD host, VMMCALL on an
	 * Intel one). KVM then rewrites the instruction in guest memory, which
	 * a Linux guest maps read-only: the guest takes a page fault and
	 * panics in kvm_kick_cpu (seen in the rig: --cpu-vendor intel on AMD).
	 * Without these features Linux uses plain IPIs and HLT instead. */
	if (e && model->cross_vendor)
		e->eax &= ~KVM_HYPERCALL_FEATURES;
}
