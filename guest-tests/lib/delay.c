/* Busy-wait delays by the TSC, and where the TSC's rate comes from:
 * CPUID.40000010H:EAX (the hypervisor's TSC kHz) when present, else a
 * measurement against the local APIC timer. KVM's and QEMU's APIC timers
 * tick at 1 GHz (KVM's APIC_BUS_CYCLE_NS_DEFAULT); a slower real one only
 * makes the rate come out higher and the delays longer. */
#include "delay.h"

#include "apic.h"
#include "printf.h"
#include "processor.h"

#define CPUID_01_ECX_HYPERVISOR (1u << 31)
#define CPUID_HV_BASE 0x40000000
#define CPUID_HV_TIMING 0x40000010 /* EAX: TSC kHz, EBX: APIC bus kHz */
#define APIC_TIMER_MAX_KHZ 1000000ULL
#define CALIBRATION_TICKS 10000000u  /* 10 ms at 1 GHz */
#define CALIBRATION_GIVE_UP (1ULL << 36) /* TSC cycles: tens of seconds */
#define FALLBACK_TSC_KHZ 10000000ULL /* 10 GHz: longer than any real TSC */

static uint64_t tsc_khz;
static const char *tsc_source = "not yet known";

static uint64_t hypervisor_tsc_khz(void)
{
	if (!(cpuid(1).c & CPUID_01_ECX_HYPERVISOR))
		return 0;
	if (cpuid(CPUID_HV_BASE).a < CPUID_HV_TIMING)
		return 0;
	return cpuid(CPUID_HV_TIMING).a;
}

static uint64_t apic_calibrated_tsc_khz(void)
{
	apic_timer_set_divide(1);
	apic_timer_start(APIC_LVT_MASKED | APIC_LVT_TIMER_ONESHOT, 0xffffffffu);
	uint32_t c0 = apic_timer_current(), c1;
	uint64_t t0 = rdtsc(), t1;
	do {
		c1 = apic_timer_current();
		t1 = rdtsc();
	} while (c0 - c1 < CALIBRATION_TICKS && t1 - t0 < CALIBRATION_GIVE_UP);
	apic_timer_stop();
	if (c0 - c1 < CALIBRATION_TICKS)
		return 0; /* the timer does not count */
	return (t1 - t0) * APIC_TIMER_MAX_KHZ / (c0 - c1);
}

void delay_init(void)
{
	tsc_khz = hypervisor_tsc_khz();
	tsc_source = "CPUID 0x40000010";
	if (!tsc_khz) {
		tsc_khz = apic_calibrated_tsc_khz();
		tsc_source = "APIC timer at <= 1 GHz";
	}
	if (!tsc_khz) {
		printf("delay: the APIC timer does not count; assuming a 10 GHz TSC\n");
		tsc_khz = FALLBACK_TSC_KHZ;
		tsc_source = "assumed";
	}
}

uint64_t delay_tsc_khz(void)
{
	return tsc_khz;
}

const char *delay_tsc_source(void)
{
	return tsc_source;
}

uint64_t delay_tsc_to_us(uint64_t cycles)
{
	return cycles * 1000 / tsc_khz;
}

void udelay(uint64_t us)
{
	uint64_t t0 = rdtsc(), cycles = (us * tsc_khz + 999) / 1000;
	while (rdtsc() - t0 < cycles)
		cpu_relax();
}

void mdelay(uint64_t ms)
{
	udelay(ms * 1000);
}
