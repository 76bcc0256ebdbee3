/* Time for the measuring kernels (clock.h): per-CPU kvmclock records and the
 * TSC scaled as kvmclock scales it. */
#include "clock.h"

#include "delay.h"
#include "layout.h"
#include "printf.h"
#include "processor.h"
#include "pvclock.h"
#include "smp.h"

/* One record per CPU, each in its own 64-byte slot (never across a page). */
static struct slot {
	struct pvclock_vcpu_time_info t;
} __attribute__((aligned(64))) records[MAX_CPUS];

static uint32_t msr;       /* 0: no kvmclock */
static bool enabled[MAX_CPUS];
static uint32_t mul;       /* the BSP record's scale; 0: delay.c's TSC kHz */
static int8_t shift;
static bool stable;

static bool enable_this_cpu(void)
{
	unsigned i = smp_id();
	if (!msr)
		return false;
	wrmsr(msr, (uint64_t)(uintptr_t)&records[i].t | KVM_SYSTEM_TIME_ENABLE);
	enabled[i] = records[i].t.version != 0; /* KVM filled it */
	return enabled[i];
}

void clock_init(void)
{
	struct kvmclock_cpuid kc;
	kvmclock_cpuid(&kc);
	msr = kc.msr;
	if (enable_this_cpu()) {
		const volatile struct pvclock_vcpu_time_info *r = &records[0].t;
		uint8_t flags;
		pvclock_read_ns(r, &flags); /* a consistent read of the record */
		mul = r->tsc_to_system_mul;
		shift = r->tsc_shift;
		stable = flags & PVCLOCK_TSC_STABLE_BIT;
	}
	printf("clock: %s; TSC %lu kHz; %s\n", clock_source(),
	       mul ? ((uint64_t)1000000 << 32) /
			     (shift >= 0 ? (uint64_t)mul << shift : (uint64_t)mul >> -shift)
		   : delay_tsc_khz(),
	       stable ? "TSC stable across CPUs (PVCLOCK_TSC_STABLE_BIT)"
		      : "no PVCLOCK_TSC_STABLE_BIT: TSCs of different CPUs may differ");
}

void clock_init_cpu(void)
{
	enable_this_cpu();
}

uint64_t clock_tsc_to_ns(uint64_t cycles)
{
	if (mul)
		return pvclock_scale_delta(cycles, mul, shift);
	return cycles * 1000000 / delay_tsc_khz();
}

uint64_t clock_ns_to_tsc(uint64_t ns)
{
	if (mul) {
		/* the inverse of pvclock_scale_delta: (ns << 32) / mul, then the
		 * shift; in two parts to stay within 64 bits */
		uint64_t c = ((ns / mul) << 32) + ((ns % mul) << 32) / mul;
		return shift >= 0 ? c >> shift : c << -shift;
	}
	return ns * delay_tsc_khz() / 1000000;
}

uint64_t clock_ns(void)
{
	unsigned i = smp_id();
	if (enabled[i])
		return pvclock_read_ns(&records[i].t, NULL);
	return clock_tsc_to_ns(rdtsc());
}

const char *clock_source(void)
{
	return mul ? "kvmclock" : "TSC";
}

bool clock_tsc_stable(void)
{
	return stable;
}
