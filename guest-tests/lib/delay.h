/* Busy-wait delays by the TSC. A delay lasts at least what it says: the TSC
 * rate is taken from the hypervisor or measured against an APIC timer
 * assumed to tick at most 1 GHz. */
#ifndef GUEST_DELAY_H
#define GUEST_DELAY_H

#include <stdint.h>

/* Finds the TSC rate (BSP, once, before any delay; uses the APIC timer, so
 * after apic_init). */
void delay_init(void);

uint64_t delay_tsc_khz(void);
const char *delay_tsc_source(void);
uint64_t delay_tsc_to_us(uint64_t cycles);
void udelay(uint64_t us);
void mdelay(uint64_t ms);

#endif
