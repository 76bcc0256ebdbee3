/* Per-CPU event counters kept by the runtime itself: interrupts received
 * (by kind of vector), IPIs sent, HLTs executed and HLTs that blocked. The
 * guest's own view of what the VMM counts as IPIs and halt exits; the VMM
 * adds KVM's statistics on its side.
 *
 * Hooks: idt_dispatch() counts every interrupt (vector >= 32),
 * apic_icr_write() every fixed-delivery IPI, and counters_halt() (the
 * runtime's only counted "sti; hlt", used by the idle loop) the HLTs. Each
 * CPU adds to its own counters only, with one instruction (so an interrupt
 * on that CPU cannot split an update); any CPU may read them. */
#ifndef GUEST_COUNTERS_H
#define GUEST_COUNTERS_H

#include <stdint.h>

#include "layout.h"

/* Totals over CPUs, or one CPU's. ipi_received is the sum of
 * resched_received, call_received and other_ipi_received. */
struct counters {
	uint64_t resched_received;   /* RESCHED_VECTOR */
	uint64_t call_received;      /* SMP_WAKEUP_VECTOR: on_cpu() */
	uint64_t other_ipi_received; /* any other vector some CPU sent as an IPI */
	uint64_t timer_irqs;         /* a vector programmed into the timer LVT */
	uint64_t spurious;           /* APIC_SPURIOUS_VECTOR */
	uint64_t other_irqs;         /* the rest (none expected: no device interrupts) */
	uint64_t ipi_sent;           /* per destination: a broadcast counts each CPU */
	uint64_t resched_sent;       /* of which on RESCHED_VECTOR */
	uint64_t hlt;                /* HLTs executed through counters_halt() */
	uint64_t hlt_blocked;        /* of which lasted longer than counters_hlt_block_ns() */
	uint64_t hlt_cycles;         /* TSC cycles spent in them */
};

static inline uint64_t counters_ipi_received(const struct counters *c)
{
	return c->resched_received + c->call_received + c->other_ipi_received;
}

/* Hooks (idt.c, apic.c). */
void counters_irq(uint8_t vector);
void counters_ipi_sent(uint8_t vector, uint32_t destinations);
void counters_timer_vector(uint8_t vector);

/* "sti; hlt", counted: call with interrupts disabled, after checking
 * (with them disabled) that there is nothing to do; returns with them
 * enabled, after the interrupt that ended the HLT was handled, how long
 * the HLT took (TSC cycles).
 *
 * Whether an HLT blocked is approximate: the guest cannot see whether KVM
 * put the vCPU to sleep. An HLT counts as blocked when it lasted (HLT to
 * the end of the handler of the interrupt that ended it, by the TSC) more
 * than 1.5 times the median of HLTs taken with an interrupt already pending
 * (a self-IPI), measured by counters_init(): those cost an exit and an
 * entry without ever waiting. Until counters_init() runs, every HLT counts
 * as blocked. */
uint64_t counters_halt(void);

/* Measures the threshold above (BSP, once; after delay_init). Each of its
 * HLTs has a one-shot APIC timer of CALIBRATION_WATCHDOG_MS behind it (on
 * TIMER_VECTOR, whose handler it borrows): in the nested rig an HLT that
 * starts with an interrupt already pending has been seen not to end. */
void counters_init(void);

/* Every online CPU's counters at one moment (read one CPU after another;
 * each value is read whole). Windows cover the CPUs online when they are
 * computed; take snapshots after smp_boot. */
struct counters_snapshot {
	struct counters cpu[MAX_CPUS];
};
void counters_snapshot(struct counters_snapshot *s);

/* The totals over CPUs between two snapshots; to = NULL: until now. */
void counters_window(struct counters *total, const struct counters_snapshot *from,
		     const struct counters_snapshot *to);

/* Prints each online CPU's counters between two snapshots (to = NULL:
 * until now) on the console, and sends their totals as test-device results
 * <prefix><name>: ipi_sent, ipi_received, resched_sent, resched_received,
 * call_received, timer_irqs, other_irqs, hlt, hlt_blocked. */
void counters_report_window(const char *prefix, const struct counters_snapshot *from,
			    const struct counters_snapshot *to);

/* The same with one window kept here: counters_mark() starts it,
 * counters_report() reports it until now (from boot if never marked). */
void counters_mark(void);
void counters_report(const char *prefix);
/* The totals since counters_mark(). */
void counters_since_mark(struct counters *total);

#endif
