/* Fuzz target: the pvclock reader (clock/pvclock.c) as kvmclock
 * (clock/kvmclock.c) drives it on pause, with everything the guest controls
 * fuzzed: the MSR_KVM_SYSTEM_TIME(_NEW) value it wrote, its TSC, and the
 * bytes of the page the MSR points at (the 32-byte pvclock record and what
 * surrounds it). Guest RAM is laid out by guest_mem_layout over a static
 * buffer.
 * Input:
 *   [0..8)   u64 LE: the MSR value
 *   [8..16)  u64 LE: the guest TSC
 *   [16]     guest RAM = (v + 1) * 4 KiB (4 KiB .. 1 MiB)
 *   then bytes copied into guest RAM at the MSR's address (or at 0 if that
 *   is not RAM), the record first. */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "../../clock/kvmclock.h"
#include "../../clock/pvclock.h"
#include "../../vmm/guest_mem.h"
#include "fuzz_util.h"

#define RAM_MAX (1u << 20)

static uint8_t ram[RAM_MAX];

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_in in = { data, size };
	uint64_t msr = fuzz_take(&in, 8);
	uint64_t tsc = fuzz_take(&in, 8);
	uint64_t ram_size = (fuzz_take(&in, 1) + 1) * 4096;
	struct guest_mem mem;
	guest_mem_layout(&mem, ram, ram_size);

	uint64_t gpa = 0;
	enum kvmclock_msr_state st = kvmclock_decode_msr(msr, &gpa);
	if (st != KVMCLOCK_MSR_DISABLED)
		FUZZ_ASSERT(gpa == (msr & ~1ULL));
	if (st == KVMCLOCK_MSR_ENABLED)
		FUZZ_ASSERT(gpa % 4 == 0 && (gpa & 4095) + 32 <= 4096);

	/* The page as the guest left it. */
	uint64_t at = gpa < ram_size ? gpa : 0;
	size_t n = in.left < ram_size - at ? in.left : (size_t)(ram_size - at);
	memcpy(ram + at, in.p, n);

	if (st == KVMCLOCK_MSR_ENABLED) {
		uint64_t ns = 0;
		bool ok = kvmclock_guest_time(&mem, gpa, tsc, &ns);
		if (ok) {
			/* The same answer from the record read by hand. */
			struct pvclock_vcpu_time_info r;
			memcpy(&r, ram + gpa, sizeof(r));
			FUZZ_ASSERT(!(r.version & 1));
			FUZZ_ASSERT(ns == pvclock_time_at(&r, tsc));
		} else {
			FUZZ_ASSERT(!guest_mem_ptr(&mem, gpa, 32) || (ram[gpa] & 1));
		}
	}

	/* The arithmetic on its own, with the record's fields at face value. */
	struct pvclock_vcpu_time_info rec, copy;
	memset(&rec, 0, sizeof(rec));
	memcpy(&rec, in.p, in.left < sizeof(rec) ? in.left : sizeof(rec));
	if (pvclock_read(&rec, &copy, 2)) {
		FUZZ_ASSERT(!(rec.version & 1));
		FUZZ_ASSERT(copy.tsc_timestamp == rec.tsc_timestamp &&
			    copy.system_time == rec.system_time &&
			    copy.tsc_to_system_mul == rec.tsc_to_system_mul &&
			    copy.tsc_shift == rec.tsc_shift && copy.flags == rec.flags);
	} else {
		FUZZ_ASSERT(rec.version & 1);
	}
	uint64_t t0 = pvclock_time_at(&rec, rec.tsc_timestamp);
	FUZZ_ASSERT(t0 == rec.system_time);
	uint64_t scaled = pvclock_scale_delta(tsc, rec.tsc_to_system_mul, rec.tsc_shift);
	/* With no shift, the result is at most the delta times mul / 2^32 < delta. */
	if (rec.tsc_shift == 0)
		FUZZ_ASSERT(scaled <= tsc);
	/* Monotonic in the TSC, up to the wrap of system_time + scaled. */
	uint64_t later = tsc > rec.tsc_timestamp ? tsc : rec.tsc_timestamp;
	uint64_t d1 = pvclock_scale_delta(later - rec.tsc_timestamp, rec.tsc_to_system_mul,
					  rec.tsc_shift);
	FUZZ_ASSERT(pvclock_time_at(&rec, later) == rec.system_time + d1);
	memset(ram + at, 0, n); /* the next input starts from zeroed RAM */
	return 0;
}
