/* Time for the measuring kernels: kvmclock where KVM offers it (lib/pvclock),
 * else the TSC at delay.c's rate. clock_ns() reads this CPU's kvmclock
 * record (one per CPU, enabled by clock_init_cpu); per-event timing uses
 * rdtsc() and clock_tsc_to_ns(), which scales by the BSP's kvmclock
 * record (mul, shift): an RDTSC is cheaper than a record read. */
#ifndef GUEST_CLOCK_H
#define GUEST_CLOCK_H

#include <stdbool.h>
#include <stdint.h>

#define NS_PER_US ((uint64_t)1000)
#define NS_PER_MS ((uint64_t)1000000)
#define NS_PER_S ((uint64_t)1000000000)

/* BSP, once (after delay_init): enables its kvmclock record and takes the
 * TSC scale from it. */
void clock_init(void);
/* Each AP that calls clock_ns() (an smp_boot hook, say). */
void clock_init_cpu(void);

/* ns since some fixed point: kvmclock's on this CPU, or the TSC's. */
uint64_t clock_ns(void);
uint64_t clock_tsc_to_ns(uint64_t cycles);
uint64_t clock_ns_to_tsc(uint64_t ns);

/* "kvmclock" or "TSC"; whether kvmclock vouches for a TSC that agrees
 * across CPUs (PVCLOCK_TSC_STABLE_BIT), so TSC stamps taken on different
 * CPUs may be compared. */
const char *clock_source(void);
bool clock_tsc_stable(void);

#endif
