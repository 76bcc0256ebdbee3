/* The local APIC in x2APIC mode (MSRs 0x800 + register offset / 16):
 * enable, ID, EOI, IPIs and the timer. */
#ifndef GUEST_APIC_H
#define GUEST_APIC_H

#include <stdbool.h>
#include <stdint.h>

#define APIC_BASE_BSP (1ULL << 8)
#define APIC_BASE_EXTD (1ULL << 10) /* x2APIC mode */
#define APIC_BASE_EN (1ULL << 11)

#define X2APIC_ID 0x802
#define X2APIC_VERSION 0x803
#define X2APIC_TPR 0x808
#define X2APIC_EOI 0x80b
#define X2APIC_LDR 0x80d
#define X2APIC_SVR 0x80f
#define X2APIC_ESR 0x828
#define X2APIC_ICR 0x830
#define X2APIC_LVT_TIMER 0x832
#define X2APIC_LVT_LINT0 0x835
#define X2APIC_LVT_LINT1 0x836
#define X2APIC_LVT_ERROR 0x837
#define X2APIC_TMICT 0x838 /* timer initial count */
#define X2APIC_TMCCT 0x839 /* timer current count */
#define X2APIC_TDCR 0x83e  /* timer divide configuration */
#define X2APIC_SELF_IPI 0x83f

#define APIC_SVR_ENABLE (1u << 8)
#define APIC_LVT_MASKED (1u << 16)
#define APIC_LVT_TIMER_ONESHOT (0u << 17)
#define APIC_LVT_TIMER_PERIODIC (1u << 17)
#define APIC_LVT_TIMER_TSC_DEADLINE (2u << 17)

/* ICR low dword (SDM vol. 3 10.6.1). */
#define APIC_DM_FIXED (0u << 8)
#define APIC_DM_NMI (4u << 8)
#define APIC_DM_INIT (5u << 8)
#define APIC_DM_STARTUP (6u << 8)
#define APIC_DEST_LOGICAL (1u << 11)
#define APIC_INT_ASSERT (1u << 14)
#define APIC_INT_LEVELTRIG (1u << 15)
#define APIC_DEST_SELF (1u << 18)
#define APIC_DEST_ALLINC (2u << 18)
#define APIC_DEST_ALLBUT (3u << 18)

/* CPUID.01H:ECX[21]. */
bool apic_x2apic_supported(void);

/* Switches this CPU's APIC to x2APIC mode, software-enables it with the
 * spurious vector, and masks LINT0 (QEMU's firmware routes the 8259 there
 * as ExtINT), the timer and the error LVT. False without x2APIC. */
bool apic_init(void);

uint32_t apic_id(void);
void apic_eoi(void);

/* One 64-bit write of the ICR: dest in bits 63:32 (x2APIC has no
 * delivery-status bit to wait for). */
void apic_icr_write(uint32_t low, uint32_t dest);
void apic_send_ipi(uint32_t dest_apic_id, uint8_t vector);
void apic_send_ipi_allbutself(uint8_t vector);
void apic_send_init_allbutself(void);
void apic_send_sipi_allbutself(uint8_t page);

/* The rate the timer counts at with divisor 1, as the measuring kernels
 * assume: KVM's default APIC bus cycle of 1 ns (APIC_BUS_CYCLE_NS_DEFAULT;
 * delay.c assumes no more than that). */
#define APIC_TIMER_HZ ((uint64_t)1000000000)

/* The timer. divisor: 1, 2, 4, ..., 128. lvt: vector | APIC_LVT_* mode
 * (| APIC_LVT_MASKED to count without interrupting). A count of 0 stops it. */
void apic_timer_set_divide(unsigned divisor);
void apic_timer_start(uint32_t lvt, uint32_t count);
void apic_timer_oneshot(uint8_t vector, uint32_t count);
void apic_timer_periodic(uint8_t vector, uint32_t count);
void apic_timer_stop(void);
uint32_t apic_timer_current(void);

#endif
