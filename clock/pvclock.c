/* The pvclock ABI (struct pvclock_vcpu_time_info, as KVM writes it for each
 * vCPU's kvmclock) and its arithmetic: a consistent read, and the scaling of
 * a TSC delta to nanoseconds. Pure, no KVM. */
#include "pvclock.h"

#include <string.h>

uint64_t pvclock_scale_delta(uint64_t delta, uint32_t mul, int8_t shift)
{
	/* The record is the guest's to scribble on: a shift of 64 or more
	 * moves every bit out (shifting by that much in C is undefined). */
	if (shift <= -64 || shift >= 64)
		return 0;
	if (shift < 0)
		delta >>= -shift;
	else
		delta <<= shift;
	/* A 64 x 32 bit product needs 96 bits; the result is its bits 32..95. */
	return (uint64_t)(((unsigned __int128)delta * mul) >> 32);
}

uint64_t pvclock_time_at(const struct pvclock_vcpu_time_info *r, uint64_t tsc)
{
	/* A TSC behind the record's own stamp would wrap: count it as zero. */
	uint64_t delta = tsc > r->tsc_timestamp ? tsc - r->tsc_timestamp : 0;
	return r->system_time + pvclock_scale_delta(delta, r->tsc_to_system_mul, r->tsc_shift);
}

bool pvclock_read(const volatile struct pvclock_vcpu_time_info *src,
		  struct pvclock_vcpu_time_info *out, unsigned max_tries)
{
	for (unsigned i = 0; i < max_tries; i++) {
		uint32_t before = src->version;
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
		out->tsc_timestamp = src->tsc_timestamp;
		out->system_time = src->system_time;
		out->tsc_to_system_mul = src->tsc_to_system_mul;
		out->tsc_shift = src->tsc_shift;
		out->flags = src->flags;
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
		uint32_t after = src->version;
		if (!(before & 1) && before == after) {
			out->version = before;
			out->pad0 = 0;
			memset(out->pad, 0, sizeof(out->pad));
			return true;
		}
	}
	return false;
}
