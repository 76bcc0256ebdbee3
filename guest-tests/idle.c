/* idle: every vCPU sits in "sti; hlt" (the runtime's counted HLT), woken
 * only by its local APIC timer, periodic at `hz`, for `ms` milliseconds:
 * the cost of an idle guest's timer tick (an interrupt, an HLT exit and a
 * wake-up per tick per vCPU). Reports hlt_per_s and timer_irqs_per_s (all
 * vCPUs together), the timer's jitter against its programmed period
 * (jitter_mean_ns, jitter_max_ns), ticks missed, and the counters. Checks
 * that each vCPU's timer ran at hz: its ticks plus the ones KVM merged
 * into a pending one (missed, below) are hz * ms / 1000 within 5% (missed
 * is estimated from delayed handlers' timestamps, and a vCPU descheduled at
 * the end of the window loses its last ticks); that at most 2 more than
 * that were delivered (the ends of the window); and that at least half
 * were delivered as interrupts. An overcommitted host (a 2-core machine
 * running the VMM, several vCPUs and other work) merges many ticks:
 * counting only the delivered ones would measure the host's load, not the
 * timer.
 *
 * Jitter: the programmed period against the time between one tick and the
 * next, each taken by the TSC at the start of the handler: an interval of
 * about n periods (rounded, at least 1) deviates by interval - n * period.
 * jitter_mean_ns is the mean of the deviations' absolute values,
 * jitter_max_ns the largest. (The first tick has no interval; the time the
 * timer really started is not known to the guest within an exit's cost.)
 * Missed ticks (KVM merges a tick into one still pending): the periods
 * between the first tick and the last, rounded, less the intervals seen.
 * The APIC timer is taken to count at 1 GHz (KVM's default APIC bus cycle
 * of 1 ns). */
#include "check.h"
#include "clock.h"
#include "libguest.h"

#define BOOT_TIMEOUT_MS 2000
#define DEFAULT_HZ 1000
#define DEFAULT_MS 1000
#define PERIODS_TOLERANCE_PERCENT 5
#define HIGH_TOLERANCE_TICKS 2
#define MIN_DELIVERED_PERCENT 50

struct cpu_timer {
	volatile bool active;
	uint64_t period_tsc, first_tsc, last_tsc;
	uint64_t ticks, missed;
	uint64_t dev_sum, dev_max; /* |interval - n * period|, ns */
} __attribute__((aligned(64)));

static struct cpu_timer tm[MAX_CPUS];
static uint64_t hz, ms;
static unsigned ncpus;

static void timer_handler(struct ex_regs *regs)
{
	(void)regs;
	uint64_t now = rdtsc();
	struct cpu_timer *t = &tm[smp_id()];
	if (t->active) {
		if (t->ticks) {
			uint64_t interval = now - t->last_tsc;
			uint64_t n = (interval + t->period_tsc / 2) / t->period_tsc;
			if (!n)
				n = 1;
			uint64_t due = n * t->period_tsc;
			uint64_t dev = clock_tsc_to_ns(interval > due ? interval - due : due - interval);
			t->dev_sum += dev;
			if (dev > t->dev_max)
				t->dev_max = dev;
		}
		else
			t->first_tsc = now;
		t->last_tsc = now;
		t->ticks++;
	}
	apic_eoi();
}

static void idle_job(void)
{
	struct cpu_timer *t = &tm[smp_id()];
	uint64_t period_ns = NS_PER_S / hz;
	uint32_t count = (uint32_t)(period_ns * APIC_TIMER_HZ / NS_PER_S);
	memset(t, 0, sizeof(*t));
	t->period_tsc = clock_ns_to_tsc(period_ns);
	t->active = true;
	apic_timer_set_divide(1);
	uint64_t end = rdtsc() + clock_ns_to_tsc(ms * NS_PER_MS);
	apic_timer_periodic(TIMER_VECTOR, count);
	while (rdtsc() < end) {
		counters_halt();
		irq_disable();
	}
	apic_timer_stop();
	t->active = false;
	if (t->ticks) {
		uint64_t periods = (t->last_tsc - t->first_tsc + t->period_tsc / 2) / t->period_tsc;
		t->missed = periods > t->ticks - 1 ? periods - (t->ticks - 1) : 0;
	}
}

/* Runs idle_job on every online CPU at once (the APs, then the BSP, meet
 * at a barrier first); returns when all have finished. */
static volatile uint32_t started, finished;

static void job_run(void *unused)
{
	(void)unused;
	atomic_inc(&started);
	while (atomic_read(&started) < ncpus)
		cpu_relax();
	idle_job();
	atomic_inc(&finished);
}

static void on_all_cpus(void)
{
	for (unsigned i = 1; i < ncpus; i++)
		while (!on_cpu_async(i, job_run, NULL))
			cpu_relax();
	job_run(NULL);
	while (atomic_read(&finished) < ncpus)
		cpu_relax();
}

int main(void)
{
	uint64_t cpus = testdev_param("cpus", 1);
	hz = testdev_param("hz", DEFAULT_HZ);
	ms = testdev_param("ms", DEFAULT_MS);
	if (!report(hz >= 1 && hz <= 100000 && ms >= 1 && ms <= 600000,
		    "hz=%lu within 1..100000, ms=%lu within 1..600000", hz, ms))
		return report_summary();
	clock_init();
	counters_init();
	idt_set_handler(TIMER_VECTOR, timer_handler);
	ncpus = smp_boot((unsigned)cpus, NULL, BOOT_TIMEOUT_MS);
	if (!report(ncpus == cpus, "CPUs online: %u of %lu", ncpus, cpus))
		return report_summary();

	counters_mark();
	uint64_t t0 = clock_ns();
	on_all_cpus();
	uint64_t wall = clock_ns() - t0;
	struct counters w;
	counters_since_mark(&w);

	uint64_t expected = hz * ms / 1000, ticks = 0, missed = 0, intervals = 0;
	uint64_t dev_sum = 0, dev_max = 0;
	check_begin("timer per CPU: ticks + missed within 5% of hz * ms / 1000, ticks at most "
		    "2 more and at least half");
	for (unsigned i = 0; i < ncpus; i++) {
		const struct cpu_timer *t = &tm[i];
		printf("idle: CPU %u: %lu ticks, %lu missed; interval - period: mean |%lu| ns, "
		       "max |%lu| ns\n",
		       i, t->ticks, t->missed, t->ticks > 1 ? t->dev_sum / (t->ticks - 1) : 0,
		       t->dev_max);
		check_item("CPU %u", i);
		uint64_t periods = t->ticks + t->missed;
		check_that(periods * 100 >= expected * (100 - PERIODS_TOLERANCE_PERCENT) &&
				   periods * 100 <= expected * (100 + PERIODS_TOLERANCE_PERCENT) &&
				   t->ticks <= expected + HIGH_TOLERANCE_TICKS &&
				   t->ticks * 100 >= expected * MIN_DELIVERED_PERCENT,
			   "%lu ticks + %lu missed, expected %lu", t->ticks, t->missed, expected);
		ticks += t->ticks;
		missed += t->missed;
		intervals += t->ticks > 1 ? t->ticks - 1 : 0;
		dev_sum += t->dev_sum;
		if (t->dev_max > dev_max)
			dev_max = t->dev_max;
	}
	check_end();
	uint64_t dev_mean = intervals ? dev_sum / intervals : 0;
	printf("idle: %u CPUs x %lu ms at %lu Hz in %lu ms (%s): %lu ticks of %lu, %lu missed, "
	       "%lu HLTs; jitter mean %lu ns, max %lu ns\n",
	       ncpus, ms, hz, wall / NS_PER_MS, clock_source(), ticks, expected * ncpus, missed,
	       w.hlt, dev_mean, dev_max);
	testdev_result("cpus", ncpus);
	testdev_result("timer_ticks", ticks);
	testdev_result("timer_expected", expected * ncpus);
	testdev_result("timer_missed", missed);
	testdev_result("timer_irqs_per_s", ticks * 1000 / ms);
	testdev_result("hlt_per_s", w.hlt * 1000 / ms);
	testdev_result("jitter_mean_ns", dev_mean);
	testdev_result("jitter_max_ns", dev_max);
	counters_report("");
	return report_summary();
}
