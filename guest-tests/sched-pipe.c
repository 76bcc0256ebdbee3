/* sched-pipe: `perf bench sched pipe` on the runtime's scheduler
 * (lib/sched.h): two tasks, started on the CPUs with the lowest two x2APIC
 * IDs (sched_cpu(0) and (1): two threads of a core with SMT), pass a token back
 * and forth `loops` times through two channels of one message each. Where
 * the wake-up goes is the point: CPUs sharing the LLC per CPUID send each
 * woken task back to its idle CPU with a reschedule IPI (each round trip:
 * two IPIs, two HLTs); CPUs that do not share it pull the woken task to
 * the waker's CPU, and the two tasks end up taking turns on one CPU.
 * Reports the scheduler benchmark results (sched_report) and the counters. */
#include "chan.h"
#include "clock.h"
#include "libguest.h"
#include "sched.h"

#define BOOT_TIMEOUT_MS 2000
/* About a second on the development machine with the L3 exposed (~1 ms a
 * loop: two IPIs, two HLT exits), 0.6-0.7 s without (no exits, but guest
 * code runs about a thousand times slower than native under its kvm_pvm).
 * The nested rig passes a small loops=. */
#define DEFAULT_LOOPS 1000
/* Each CPU's tick, a guard against stalled HLTs (sched.h). */
#define DEFAULT_WATCHDOG_HZ 4

static struct chan ping, pong;
static uint64_t loops;
static volatile uint64_t done_a, done_b;

static void task_a(void *unused)
{
	(void)unused;
	for (uint64_t i = 0; i < loops; i++) {
		chan_send(&ping);
		chan_recv(&pong);
	}
	done_a = loops;
}

static void task_b(void *unused)
{
	(void)unused;
	for (uint64_t i = 0; i < loops; i++) {
		chan_recv(&ping);
		chan_send(&pong);
	}
	done_b = loops;
}

int main(void)
{
	uint64_t cpus = testdev_param("cpus", 2);
	loops = testdev_param("loops", DEFAULT_LOOPS);
	clock_init();
	counters_init();
	smp_boot((unsigned)cpus, NULL, BOOT_TIMEOUT_MS);
	if (!report(smp_cpus_online() >= 2 && smp_cpus_online() == cpus,
		    "CPUs online: %u of %lu (at least 2)", smp_cpus_online(), cpus))
		return report_summary();
	sched_init((unsigned)testdev_param("watchdog_hz", DEFAULT_WATCHDOG_HZ));

	chan_init(&ping, 1);
	chan_init(&pong, 1);
	sched_task(task_a, NULL, sched_cpu(0));
	sched_task(task_b, NULL, sched_cpu(1));
	struct sched_stats st;
	sched_run(&st);

	report(done_a == loops && done_b == loops, "both tasks made %lu round trips", loops);
	report(!ping.count && !pong.count, "no token left in a channel");
	sched_report(&st, loops);
	return report_summary();
}
