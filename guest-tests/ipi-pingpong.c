/* ipi-pingpong: two vCPUs bounce an IPI `loops` times. Each side waits for
 * its turn in "sti; hlt" (the runtime's counted HLT), woken by the other's
 * IPI: a round trip is two IPIs and (usually) two HLTs, each an exit, and
 * the wake-up of a halted vCPU. Reports round_trips, ns_per_round_trip
 * (kvmclock), round_trips_per_s and the counters; checks that the guest
 * counted exactly two IPIs sent per round trip, and as many received (see
 * wait_for). Both CPUs also run a 10 Hz watchdog timer (timer_irqs). */
#include "clock.h"
#include "libguest.h"

#define BOOT_TIMEOUT_MS 2000
/* About a second on the development machine (0.6-0.8 ms a round trip; its
 * /dev/kvm is kvm_pvm, where guest code itself runs about a thousand times
 * slower than native); ~1 ms a round trip in the nested rig, which passes
 * a small loops=. */
#define DEFAULT_LOOPS 1500
#define PING_VECTOR 0xe0
#define LOST_IPI_US 1000000 /* an IPI sent and not taken within a second */
#define WATCHDOG_VECTOR TIMER_VECTOR
#define WATCHDOG_HZ 10

static uint64_t loops;
static volatile uint32_t to_ap, to_bsp; /* the round each side was sent */
static volatile uint32_t ap_ready;
static struct {
	volatile uint32_t pings; /* PING_VECTOR interrupts handled */
} __attribute__((aligned(64))) got[2];
static volatile uint32_t lost;    /* rounds whose IPI never came */
static volatile uint32_t stalled; /* HLTs the watchdog ended, the IPI having been sent */
static uint64_t watchdog_tsc;     /* its period */

static void ping_handler(struct ex_regs *regs)
{
	(void)regs;
	got[smp_id()].pings++;
	apic_eoi();
}

/* With interrupts disabled: returns once this CPU handled the IPI of round
 * `want`, waiting in HLT. The IPI itself is the message (the other side's
 * round number only tells that it was sent): a CPU answers only an IPI it
 * took, so the next one can never find it still pending (two pending IPIs
 * of one vector merge into one, and the count would come out short). A
 * slow periodic timer (WATCHDOG_HZ) ends every HLT eventually, so an IPI
 * that was sent and never came is counted, not waited for forever; and an
 * HLT that lasted half its period with the IPI sent (in the nested rig, an
 * HLT that starts with an interrupt pending has been seen not to end) is
 * counted as stalled. */
static void wait_for(volatile uint32_t *round, uint32_t want)
{
	volatile uint32_t *pings = &got[smp_id()].pings;
	uint64_t sent_seen = 0;
	while (*pings != want) {
		if (!sent_seen && atomic_read(round) == want)
			sent_seen = rdtsc();
		if (sent_seen && delay_tsc_to_us(rdtsc() - sent_seen) > LOST_IPI_US) {
			*pings = want;
			atomic_inc(&lost);
			break;
		}
		uint64_t halted = counters_halt();
		irq_disable();
		if (halted >= watchdog_tsc / 2 && atomic_read(round) == want)
			atomic_inc(&stalled);
	}
}

static void watchdog_handler(struct ex_regs *regs)
{
	(void)regs;
	apic_eoi();
}

static void watchdog_start(void)
{
	apic_timer_set_divide(1);
	apic_timer_periodic(WATCHDOG_VECTOR, (uint32_t)(APIC_TIMER_HZ / WATCHDOG_HZ));
}

static void ap_side(void *unused)
{
	(void)unused;
	uint32_t bsp = smp_cpu(0)->apic_id;
	watchdog_start();
	atomic_set(&ap_ready, 1);
	for (uint32_t i = 1; i <= loops; i++) {
		wait_for(&to_ap, i);
		atomic_set(&to_bsp, i);
		apic_send_ipi(bsp, PING_VECTOR);
	}
	apic_timer_stop();
}

int main(void)
{
	loops = testdev_param("loops", DEFAULT_LOOPS);
	if (!report(loops >= 1 && loops <= UINT32_MAX, "loops=%lu is within 1..2^32-1", loops))
		return report_summary();
	clock_init();
	counters_init();
	watchdog_tsc = clock_ns_to_tsc(NS_PER_S / WATCHDOG_HZ);
	idt_set_handler(PING_VECTOR, ping_handler);
	idt_set_handler(WATCHDOG_VECTOR, watchdog_handler);
	if (!report(smp_boot(2, NULL, BOOT_TIMEOUT_MS) >= 2, "a second CPU is online"))
		return report_summary();
	while (!on_cpu_async(1, ap_side, NULL))
		cpu_relax();
	while (!atomic_read(&ap_ready))
		cpu_relax();

	uint32_t ap = smp_cpu(1)->apic_id;
	watchdog_start();
	counters_mark();
	uint64_t t0 = clock_ns();
	for (uint32_t i = 1; i <= loops; i++) {
		atomic_set(&to_ap, i);
		apic_send_ipi(ap, PING_VECTOR);
		wait_for(&to_bsp, i);
	}
	uint64_t ns = clock_ns() - t0;
	apic_timer_stop();

	struct counters w;
	counters_since_mark(&w);

	if (!ns)
		ns = 1;
	printf("ipi-pingpong: %lu round trips in %lu us (%s): %lu ns each\n", loops, ns / 1000,
	       clock_source(), ns / loops);
	report(w.ipi_sent == 2 * loops, "IPIs sent: %lu, 2 per round trip", w.ipi_sent);
	report(counters_ipi_received(&w) == w.ipi_sent && !lost,
	       "IPIs received: %lu of %lu sent; %u never came", counters_ipi_received(&w),
	       w.ipi_sent, lost);
	testdev_result("round_trips", loops);
	testdev_result("ns_per_round_trip", ns / loops);
	testdev_result("round_trips_per_s", loops * NS_PER_S / ns);
	testdev_result("stalled_wakeups", stalled);
	counters_report("");
	return report_summary();
}
