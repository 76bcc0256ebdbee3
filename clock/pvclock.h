/* The pvclock ABI (struct pvclock_vcpu_time_info, as KVM writes it for each
 * vCPU's kvmclock) and its arithmetic: a consistent read, and the scaling of
 * a TSC delta to nanoseconds. Pure, no KVM. */
#ifndef CLOCK_PVCLOCK_H
#define CLOCK_PVCLOCK_H

#include <stdbool.h>
#include <stdint.h>

/* Linux's arch/x86/include/asm/pvclock-abi.h; KVM's Documentation/virt/kvm/
 * x86/msr.rst. 32 bytes, little-endian. */
struct pvclock_vcpu_time_info {
	uint32_t version; /* odd while KVM updates the record */
	uint32_t pad0;
	uint64_t tsc_timestamp; /* guest TSC at the last update */
	uint64_t system_time;   /* guest nanoseconds at tsc_timestamp */
	uint32_t tsc_to_system_mul;
	int8_t tsc_shift;
	uint8_t flags;
	uint8_t pad[2];
} __attribute__((packed));

_Static_assert(sizeof(struct pvclock_vcpu_time_info) == 32, "pvclock ABI is 32 bytes");

#define PVCLOCK_TSC_STABLE_BIT (1u << 0)

/* ns = ((delta shifted by tsc_shift) * mul) >> 32, with the 96-bit
 * intermediate product kept exact (pvclock_scale_delta). */
uint64_t pvclock_scale_delta(uint64_t delta, uint32_t mul, int8_t shift);

/* Guest time (ns) at guest TSC `tsc`, from one consistent record. */
uint64_t pvclock_time_at(const struct pvclock_vcpu_time_info *r, uint64_t tsc);

/* Copy a consistent record out of memory another party updates: retry while
 * the version is odd or changes across the copy. False after `max_tries`. */
bool pvclock_read(const volatile struct pvclock_vcpu_time_info *src,
		  struct pvclock_vcpu_time_info *out, unsigned max_tries);

#endif
