/* CPUs: per-CPU structs (GS base), AP bring-up with INIT-SIPI-SIPI through
 * the local APIC exactly as on hardware, the APs' C entry and idle loop,
 * and on_cpu(). */
#include "smp.h"

#include "apic.h"
#include "atomic.h"
#include "counters.h"
#include "delay.h"
#include "idt.h"
#include "layout.h"
#include "printf.h"
#include "processor.h"
#include "string.h"

#define PROGRESS_MS 500

extern char trampoline_start[], trampoline_end[];
extern volatile uint32_t ap_next_index; /* entry.S */

static struct percpu cpus[MAX_CPUS];
static volatile uint32_t online = 1; /* the BSP */
static void (*volatile ap_hook_fn)(void);
static bool sipi_sent;

struct percpu *this_cpu(void)
{
	struct percpu *c;
	__asm__ volatile("mov %%gs:0, %0" : "=r"(c));
	return c;
}

unsigned smp_id(void)
{
	return this_cpu()->index;
}

struct percpu *smp_cpu(unsigned index)
{
	return index < MAX_CPUS ? &cpus[index] : 0;
}

unsigned smp_cpus_online(void)
{
	return atomic_read(&online);
}

unsigned smp_cpus_started(void)
{
	return atomic_read(&ap_next_index);
}

void smp_percpu_setup(unsigned index)
{
	struct percpu *c = &cpus[index];
	c->self = c;
	c->index = index;
	wrmsr(MSR_GS_BASE, (uint64_t)(uintptr_t)c);
}

static void wakeup_handler(struct ex_regs *regs)
{
	(void)regs;
	apic_eoi();
}

/* Per CPU: a reschedule IPI is in flight (set by the sender, cleared by
 * the target as it takes it). */
static uint8_t resched_in_flight[MAX_CPUS];

static void resched_handler(struct ex_regs *regs)
{
	(void)regs;
	__atomic_store_n(&resched_in_flight[smp_id()], 0, __ATOMIC_RELEASE);
	apic_eoi();
}

void smp_vectors_init(void)
{
	idt_set_handler(SMP_WAKEUP_VECTOR, wakeup_handler);
	idt_set_handler(RESCHED_VECTOR, resched_handler);
}

bool smp_send_resched(unsigned index)
{
	struct percpu *c = smp_cpu(index);
	if (!c || index >= MAX_CPUS ||
	    __atomic_exchange_n(&resched_in_flight[index], 1, __ATOMIC_ACQ_REL))
		return false;
	apic_send_ipi(c->apic_id, RESCHED_VECTOR);
	return true;
}

static void __attribute__((noreturn)) idle(struct percpu *c)
{
	atomic_set(&c->ready, 1);
	for (;;) {
		irq_disable();
		void (*fn)(void *) = __atomic_load_n(&c->call_fn, __ATOMIC_ACQUIRE);
		if (!fn) {
			counters_halt(); /* on_cpu's IPI, or a test's interrupt */
			continue;
		}
		void *data = c->call_data;
		fn(data);
		__atomic_store_n(&c->call_fn, 0, __ATOMIC_RELEASE);
		atomic_inc(&c->call_done);
	}
}

/* entry.S jumps here on each AP, on its own stack, in long mode. */
void __attribute__((noreturn)) smp_ap_entry(unsigned index);
void smp_ap_entry(unsigned index)
{
	smp_percpu_setup(index);
	idt_load();
	apic_init(); /* the BSP checked that x2APIC exists */
	struct percpu *c = this_cpu();
	c->apic_id = apic_id();
	void (*hook)(void) = ap_hook_fn;
	if (hook)
		hook();
	atomic_inc(&online);
	idle(c);
}

unsigned smp_boot(unsigned ncpus, void (*ap_hook)(void), unsigned timeout_ms)
{
	if (ncpus > MAX_CPUS) {
		printf("smp: %u CPUs asked for, the runtime supports %u\n", ncpus, MAX_CPUS);
		ncpus = MAX_CPUS;
	}
	atomic_set(&cpus[0].ready, 1);
	if (ncpus <= 1 || sipi_sent)
		return smp_cpus_online();
	sipi_sent = true;
	ap_hook_fn = ap_hook;
	memcpy((void *)(uintptr_t)TRAMPOLINE_PADDR, trampoline_start,
	       (size_t)(trampoline_end - trampoline_start));

	/* INIT-SIPI-SIPI to all excluding self rather than to each APIC ID:
	 * the runtime knows no APIC IDs (it reads no ACPI MADT or MP table,
	 * which a minimal VMM need not provide), and a broadcast starts every
	 * AP that exists, so a VMM that creates more vCPUs than asked for is
	 * caught by the count instead of hidden. The APs need no stack until
	 * they take an index in entry.S, so they may all run the trampoline
	 * at once. A second SIPI is ignored by an AP already started. */
	apic_send_init_allbutself();
	mdelay(10);
	apic_send_sipi_allbutself(TRAMPOLINE_SIPI_VECTOR);
	udelay(200);
	apic_send_sipi_allbutself(TRAMPOLINE_SIPI_VECTOR);

	uint64_t t0 = rdtsc(), next_progress = PROGRESS_MS;
	uint64_t ms = 0;
	unsigned n;
	while ((n = smp_cpus_online()) < ncpus && ms < timeout_ms) {
		cpu_relax();
		ms = delay_tsc_to_us(rdtsc() - t0) / 1000;
		if (ms >= next_progress) {
			printf("smp: waiting, %u of %u CPUs online after %lu ms\n", n, ncpus, ms);
			next_progress += PROGRESS_MS;
		}
	}
	printf("smp: %u of %u CPUs online after %lu ms%s\n", n, ncpus,
	       delay_tsc_to_us(rdtsc() - t0) / 1000, n < ncpus ? ", gave up" : "");
	return n;
}

static bool post(struct percpu *c, void (*fn)(void *), void *data, uint32_t *seq)
{
	if (!atomic_read(&c->ready))
		return false;
	spin_lock(&c->call_lock);
	while (__atomic_load_n(&c->call_fn, __ATOMIC_ACQUIRE))
		cpu_relax();
	c->call_data = data;
	__atomic_store_n(&c->call_fn, fn, __ATOMIC_RELEASE);
	*seq = ++c->call_posted;
	spin_unlock(&c->call_lock);
	apic_send_ipi(c->apic_id, SMP_WAKEUP_VECTOR);
	return true;
}

bool on_cpu_async(unsigned index, void (*fn)(void *data), void *data)
{
	struct percpu *c = smp_cpu(index);
	uint32_t seq;
	if (!c)
		return false;
	if (c == this_cpu()) {
		bool irq = irq_save();
		fn(data);
		irq_restore(irq);
		return true;
	}
	return post(c, fn, data, &seq);
}

bool on_cpu(unsigned index, void (*fn)(void *data), void *data)
{
	struct percpu *c = smp_cpu(index);
	uint32_t seq;
	if (!c)
		return false;
	if (c == this_cpu())
		return on_cpu_async(index, fn, data);
	if (!post(c, fn, data, &seq))
		return false;
	while ((int32_t)(atomic_read(&c->call_done) - seq) < 0)
		cpu_relax();
	return true;
}
