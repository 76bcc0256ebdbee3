/* The guest side of kvmclock: KVM's CPUID leaves and MSRs, the pvclock
 * record KVM keeps up to date for each vCPU, a reader for it, and a
 * pause/resume cycle requested from the VMM through the test device.
 *
 * Written from the ABI (Linux's arch/x86/include/asm/pvclock-abi.h and
 * pvclock.h, KVM's Documentation/virt/kvm/x86/msr.rst and cpuid.rst), not
 * shared with the VMM's clock/pvclock.c: the test must not inherit the
 * VMM's arithmetic. */
#ifndef GUEST_PVCLOCK_H
#define GUEST_PVCLOCK_H

#include <stdbool.h>
#include <stdint.h>

/* CPUID.40000000H: EAX = highest hypervisor leaf, EBX:ECX:EDX = "KVMKVMKVM\0\0\0". */
#define KVM_CPUID_SIGNATURE 0x40000000
#define KVM_CPUID_FEATURES 0x40000001 /* EAX: feature bits */
#define KVM_FEATURE_CLOCKSOURCE (1u << 0)   /* MSR_KVM_SYSTEM_TIME */
#define KVM_FEATURE_CLOCKSOURCE2 (1u << 3)  /* MSR_KVM_SYSTEM_TIME_NEW */
#define KVM_FEATURE_CLOCKSOURCE_STABLE_BIT (1u << 24)

#define MSR_KVM_SYSTEM_TIME 0x12
#define MSR_KVM_SYSTEM_TIME_NEW 0x4b564d01
#define KVM_SYSTEM_TIME_ENABLE 1ULL /* bit 0 of the MSR; bits 63..1: the record's address */

/* One vCPU's record, 32 bytes, 4-byte aligned, within one page. */
struct pvclock_vcpu_time_info {
	uint32_t version; /* odd while KVM updates the record */
	uint32_t pad0;
	uint64_t tsc_timestamp; /* guest TSC at the last update */
	uint64_t system_time;   /* guest ns at tsc_timestamp */
	uint32_t tsc_to_system_mul;
	int8_t tsc_shift;
	uint8_t flags;
	uint8_t pad[2];
} __attribute__((packed));

_Static_assert(sizeof(struct pvclock_vcpu_time_info) == 32, "the pvclock ABI is 32 bytes");

#define PVCLOCK_TSC_STABLE_BIT (1u << 0)

/* What CPUID says about kvmclock on this CPU. */
struct kvmclock_cpuid {
	bool kvm;            /* signature "KVMKVMKVM\0\0\0" */
	char signature[13];  /* EBX:ECX:EDX as text, NUL-terminated */
	uint32_t max_leaf;   /* CPUID.40000000H:EAX */
	uint32_t features;   /* CPUID.40000001H:EAX, 0 if no such leaf */
	uint32_t msr;        /* MSR_KVM_SYSTEM_TIME_NEW, MSR_KVM_SYSTEM_TIME or 0: none */
};
void kvmclock_cpuid(struct kvmclock_cpuid *out);

/* ((delta shifted left by shift, or right by -shift) * mul) >> 32, the
 * 96-bit product kept exact. */
uint64_t pvclock_scale_delta(uint64_t delta, uint32_t mul, int8_t shift);

/* TSC read after every earlier load (LFENCE; RDTSC), so it is not taken
 * before the record's fields it is paired with. */
static inline uint64_t rdtsc_ordered(void)
{
	uint32_t lo, hi;
	__asm__ volatile("lfence; rdtsc" : "=a"(lo), "=d"(hi) : : "memory");
	return ((uint64_t)hi << 32) | lo;
}

/* The time (ns) the record shows now, read consistently: retried while the
 * version is odd or changes across the read. *flags (if not NULL) gets the
 * record's flags. As Linux's pvclock_clocksource_read without its
 * last_value clamp: the raw per-CPU clock, so a test sees any warp. */
uint64_t pvclock_read_ns(const volatile struct pvclock_vcpu_time_info *p, uint8_t *flags);

/* Asks the VMM for a pause/resume cycle of every vCPU lasting `ms`
 * (TESTDEV_OP_PAUSE); returns when this CPU runs again, with the VMM's
 * status (enum testdev_status) or TESTDEV_NO_VMM. */
uint32_t testdev_pause(uint32_t ms);

#endif
