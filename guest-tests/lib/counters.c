/* Per-CPU event counters (counters.h): the hooks' side, the HLT wrapper and
 * its blocked-HLT threshold, sums over CPUs, and their report. */
#include "counters.h"

#include "apic.h"
#include "delay.h"
#include "idt.h"
#include "layout.h"
#include "printf.h"
#include "processor.h"
#include "smp.h"
#include "string.h"
#include "testdev.h"

#define CALIBRATION_HLTS 15 /* odd: one median */
#define CALIBRATION_WATCHDOG_MS 50
#define NFIELDS (sizeof(struct counters) / sizeof(uint64_t))

/* Each CPU's own, in cache lines of their own. */
static struct padded {
	struct counters c;
} __attribute__((aligned(64))) cnt[MAX_CPUS];
_Static_assert(sizeof(struct counters) % 8 == 0, "counters are u64s");

/* Vectors some CPU sent as an IPI or programmed into its timer LVT. Byte
 * stores of 1 only: no lock needed. */
static volatile uint8_t ipi_vector[256], timer_vector[256];

/* 0 until counters_init: every HLT counts as blocked. */
static uint64_t hlt_block_cycles;

/* One instruction: an interrupt on this CPU cannot split it. Only this CPU
 * writes its counters. */
static inline void add(uint64_t *p, uint64_t v)
{
	__asm__ volatile("addq %1, %0" : "+m"(*p) : "er"(v));
}

static struct counters *mine(void)
{
	return &cnt[smp_id()].c;
}

void counters_irq(uint8_t vector)
{
	struct counters *c = mine();
	if (vector == RESCHED_VECTOR)
		add(&c->resched_received, 1);
	else if (vector == SMP_WAKEUP_VECTOR)
		add(&c->call_received, 1);
	else if (timer_vector[vector])
		add(&c->timer_irqs, 1);
	else if (ipi_vector[vector])
		add(&c->other_ipi_received, 1);
	else if (vector == APIC_SPURIOUS_VECTOR)
		add(&c->spurious, 1);
	else
		add(&c->other_irqs, 1);
}

void counters_ipi_sent(uint8_t vector, uint32_t destinations)
{
	struct counters *c = mine();
	if (!ipi_vector[vector])
		ipi_vector[vector] = 1;
	add(&c->ipi_sent, destinations);
	if (vector == RESCHED_VECTOR)
		add(&c->resched_sent, destinations);
}

void counters_timer_vector(uint8_t vector)
{
	if (!timer_vector[vector])
		timer_vector[vector] = 1;
}

uint64_t counters_halt(void)
{
	struct counters *c = mine();
	add(&c->hlt, 1);
	uint64_t t0 = rdtsc();
	safe_halt();
	uint64_t dt = rdtsc() - t0;
	add(&c->hlt_cycles, dt);
	if (dt > hlt_block_cycles)
		add(&c->hlt_blocked, 1);
	return dt;
}

static void calibration_timer(struct ex_regs *regs)
{
	(void)regs;
	apic_eoi();
}

void counters_init(void)
{
	uint64_t t[CALIBRATION_HLTS];
	bool irq = irq_save();
	idt_handler_t old = idt_set_handler(TIMER_VECTOR, calibration_timer);
	apic_timer_set_divide(1);
	for (unsigned i = 0; i < CALIBRATION_HLTS; i++) {
		irq_disable();
		apic_timer_oneshot(TIMER_VECTOR,
				   (uint32_t)(CALIBRATION_WATCHDOG_MS * APIC_TIMER_HZ / 1000));
		wrmsr(X2APIC_SELF_IPI, RESCHED_VECTOR); /* pending before the HLT */
		uint64_t t0 = rdtsc();
		safe_halt();
		t[i] = rdtsc() - t0;
		irq_disable();
		apic_timer_stop();
		irq_enable(); /* a timer interrupt that fired meanwhile */
	}
	irq_disable();
	idt_set_handler(TIMER_VECTOR, old);
	for (unsigned i = 1; i < CALIBRATION_HLTS; i++) /* insertion sort */
		for (unsigned j = i; j > 0 && t[j - 1] > t[j]; j--) {
			uint64_t x = t[j];
			t[j] = t[j - 1];
			t[j - 1] = x;
		}
	hlt_block_cycles = t[CALIBRATION_HLTS / 2] * 3 / 2;
	printf("counters: an HLT with an interrupt pending takes %lu us (median of %u, min %lu, "
	       "max %lu); longer than %lu us counts as blocked\n",
	       delay_tsc_to_us(t[CALIBRATION_HLTS / 2]), CALIBRATION_HLTS, delay_tsc_to_us(t[0]),
	       delay_tsc_to_us(t[CALIBRATION_HLTS - 1]), delay_tsc_to_us(hlt_block_cycles));
	irq_restore(irq);
}

static void read_cpu(unsigned index, struct counters *c)
{
	const uint64_t *src = (const uint64_t *)&cnt[index].c;
	uint64_t *dst = (uint64_t *)c;
	for (size_t k = 0; k < NFIELDS; k++)
		dst[k] = __atomic_load_n(&src[k], __ATOMIC_RELAXED);
}

void counters_snapshot(struct counters_snapshot *s)
{
	unsigned n = smp_cpus_online();
	for (unsigned i = 0; i < n; i++)
		read_cpu(i, &s->cpu[i]);
	memset(&s->cpu[n], 0, (MAX_CPUS - n) * sizeof(s->cpu[0]));
}

/* *acc += c */
static void acc(struct counters *acc, const struct counters *c)
{
	const uint64_t *pc = (const uint64_t *)c;
	uint64_t *pa = (uint64_t *)acc;
	for (size_t k = 0; k < NFIELDS; k++)
		pa[k] += pc[k];
}

/* *acc += to - from */
static void add_delta(struct counters *acc, const struct counters *to, const struct counters *from)
{
	const uint64_t *pt = (const uint64_t *)to, *pf = (const uint64_t *)from;
	uint64_t *pa = (uint64_t *)acc;
	for (size_t k = 0; k < NFIELDS; k++)
		pa[k] += pt[k] - pf[k];
}

static const struct counters *end_of(const struct counters_snapshot *to, unsigned i,
				     struct counters *now)
{
	if (to)
		return &to->cpu[i];
	read_cpu(i, now);
	return now;
}

void counters_window(struct counters *total, const struct counters_snapshot *from,
		     const struct counters_snapshot *to)
{
	memset(total, 0, sizeof(*total));
	for (unsigned i = 0; i < smp_cpus_online(); i++) {
		struct counters now;
		add_delta(total, end_of(to, i, &now), &from->cpu[i]);
	}
}

static void print_line(const char *who, const struct counters *c)
{
	printf("counters: %-5s %9lu %9lu %9lu %9lu %9lu %9lu %9lu %9lu %8lu\n", who, c->ipi_sent,
	       counters_ipi_received(c), c->resched_received, c->call_received, c->timer_irqs,
	       c->other_irqs + c->spurious, c->hlt, c->hlt_blocked,
	       delay_tsc_to_us(c->hlt_cycles) / 1000);
}

static void result(const char *prefix, const char *name, uint64_t value)
{
	char full[TESTDEV_NAME_MAX];
	snprintf(full, sizeof(full), "%s%s", prefix, name);
	testdev_result(full, value);
}

void counters_report_window(const char *prefix, const struct counters_snapshot *from,
			    const struct counters_snapshot *to)
{
	struct counters total;
	memset(&total, 0, sizeof(total));
	printf("counters: %-5s %9s %9s %9s %9s %9s %9s %9s %9s %8s\n", "cpu", "ipi_sent",
	       "ipi_recv", "resched", "call", "timer", "other", "hlt", "blocked", "hlt_ms");
	for (unsigned i = 0; i < smp_cpus_online(); i++) {
		struct counters now, c;
		char who[8];
		memset(&c, 0, sizeof(c));
		add_delta(&c, end_of(to, i, &now), &from->cpu[i]);
		acc(&total, &c);
		snprintf(who, sizeof(who), "%u", i);
		print_line(who, &c);
	}
	print_line("total", &total);
	result(prefix, "ipi_sent", total.ipi_sent);
	result(prefix, "ipi_received", counters_ipi_received(&total));
	result(prefix, "resched_sent", total.resched_sent);
	result(prefix, "resched_received", total.resched_received);
	result(prefix, "call_received", total.call_received);
	result(prefix, "timer_irqs", total.timer_irqs);
	result(prefix, "other_irqs", total.other_irqs + total.spurious);
	result(prefix, "hlt", total.hlt);
	result(prefix, "hlt_blocked", total.hlt_blocked);
}

static struct counters_snapshot marked; /* zero: from boot */

void counters_mark(void)
{
	counters_snapshot(&marked);
}

void counters_since_mark(struct counters *total)
{
	counters_window(total, &marked, NULL);
}

void counters_report(const char *prefix)
{
	counters_report_window(prefix, &marked, NULL);
}
