/* The local APIC in x2APIC mode: every register is an MSR, the ICR is one
 * 64-bit write, and IDs are full 32-bit x2APIC IDs. */
#include "apic.h"

#include "counters.h"
#include "layout.h"
#include "processor.h"
#include "smp.h"

#define CPUID_01_ECX_X2APIC (1u << 21)

bool apic_x2apic_supported(void)
{
	return cpuid(1).c & CPUID_01_ECX_X2APIC;
}

bool apic_init(void)
{
	if (!apic_x2apic_supported())
		return false;
	uint64_t base = rdmsr(MSR_IA32_APIC_BASE);
	/* Disabled -> x2APIC directly is an invalid transition (#GP): go
	 * through xAPIC-enabled first (SDM vol. 3 10.12.5). */
	if (!(base & APIC_BASE_EN)) {
		base |= APIC_BASE_EN;
		wrmsr(MSR_IA32_APIC_BASE, base);
	}
	if (!(base & APIC_BASE_EXTD))
		wrmsr(MSR_IA32_APIC_BASE, base | APIC_BASE_EXTD);
	wrmsr(X2APIC_SVR, APIC_SVR_ENABLE | APIC_SPURIOUS_VECTOR);
	wrmsr(X2APIC_LVT_LINT0, APIC_LVT_MASKED);
	wrmsr(X2APIC_LVT_TIMER, APIC_LVT_MASKED);
	wrmsr(X2APIC_LVT_ERROR, APIC_LVT_MASKED);
	wrmsr(X2APIC_TMICT, 0);
	wrmsr(X2APIC_TPR, 0);
	return true;
}

uint32_t apic_id(void)
{
	return (uint32_t)rdmsr(X2APIC_ID);
}

void apic_eoi(void)
{
	wrmsr(X2APIC_EOI, 0);
}

#define APIC_DM_MASK (7u << 8)
#define APIC_DEST_SHORTHAND_MASK (3u << 18)

/* Counts fixed-delivery IPIs, one per destination (counters.h). */
static void count_ipi(uint32_t low)
{
	if ((low & APIC_DM_MASK) != APIC_DM_FIXED)
		return;
	uint32_t online = smp_cpus_online(), n = 1;
	switch (low & APIC_DEST_SHORTHAND_MASK) {
	case APIC_DEST_ALLINC:
		n = online;
		break;
	case APIC_DEST_ALLBUT:
		n = online - 1;
		break;
	default: /* one destination, or self */
		break;
	}
	counters_ipi_sent((uint8_t)low, n);
}

void apic_icr_write(uint32_t low, uint32_t dest)
{
	count_ipi(low);
	wrmsr(X2APIC_ICR, ((uint64_t)dest << 32) | low);
}

void apic_send_ipi(uint32_t dest_apic_id, uint8_t vector)
{
	apic_icr_write(APIC_DM_FIXED | APIC_INT_ASSERT | vector, dest_apic_id);
}

void apic_send_ipi_allbutself(uint8_t vector)
{
	apic_icr_write(APIC_DEST_ALLBUT | APIC_DM_FIXED | APIC_INT_ASSERT | vector, 0);
}

/* The SDM's MP initialization example (vol. 3 8.4.4.1): INIT = 0x000c4500,
 * SIPI = 0x000c46XX. x2APIC has no INIT level de-assert, so none is sent. */
void apic_send_init_allbutself(void)
{
	apic_icr_write(APIC_DEST_ALLBUT | APIC_INT_ASSERT | APIC_DM_INIT, 0);
}

void apic_send_sipi_allbutself(uint8_t page)
{
	apic_icr_write(APIC_DEST_ALLBUT | APIC_INT_ASSERT | APIC_DM_STARTUP | page, 0);
}

/* TDCR encodings (SDM vol. 3 10.5.4): bits 3, 1:0. */
void apic_timer_set_divide(unsigned divisor)
{
	static const uint8_t tdcr[8] = { 0xb, 0x0, 0x1, 0x2, 0x3, 0x8, 0x9, 0xa };
	unsigned log2 = 0;
	while (log2 < 7 && (1u << log2) < divisor)
		log2++;
	wrmsr(X2APIC_TDCR, tdcr[log2]);
}

void apic_timer_start(uint32_t lvt, uint32_t count)
{
	if (!(lvt & APIC_LVT_MASKED))
		counters_timer_vector((uint8_t)lvt);
	wrmsr(X2APIC_LVT_TIMER, lvt);
	wrmsr(X2APIC_TMICT, count);
}

void apic_timer_oneshot(uint8_t vector, uint32_t count)
{
	apic_timer_start(APIC_LVT_TIMER_ONESHOT | vector, count);
}

void apic_timer_periodic(uint8_t vector, uint32_t count)
{
	apic_timer_start(APIC_LVT_TIMER_PERIODIC | vector, count);
}

void apic_timer_stop(void)
{
	wrmsr(X2APIC_TMICT, 0);
	wrmsr(X2APIC_LVT_TIMER, APIC_LVT_MASKED);
}

uint32_t apic_timer_current(void)
{
	return (uint32_t)rdmsr(X2APIC_TMCCT);
}
