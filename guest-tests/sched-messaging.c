/* sched-messaging: `perf bench sched messaging -g 1` on the runtime's
 * scheduler (lib/sched.h): `receivers` tasks each read from a channel of
 * their own, `senders` tasks each send `loops` messages to every receiver
 * (a loop: one message to each receiver, as perf's loop). Tasks start
 * spread over the CPUs, receivers first (as perf creates them), task k on
 * sched_cpu(k mod cpus), in x2APIC ID order. A channel holds `capacity` messages: a sender waits for
 * room as a writer on a full pipe does. Reports the scheduler benchmark
 * results (sched_report) and the counters. */
#include "chan.h"
#include "clock.h"
#include "libguest.h"
#include "sched.h"

#define BOOT_TIMEOUT_MS 2000
#define DEFAULT_SENDERS 4
#define DEFAULT_RECEIVERS 4
#define DEFAULT_CAPACITY 16
/* About a second on the development machine (1-2 s on 1 socket x 4 cores,
 * either way). The nested rig passes a small loops=. */
#define DEFAULT_LOOPS 500
/* Each CPU's tick, a guard against stalled HLTs (sched.h). */
#define DEFAULT_WATCHDOG_HZ 4

static struct chan chans[SCHED_MAX_TASKS];
static uint64_t loops, senders, receivers;
static volatile uint32_t received[SCHED_MAX_TASKS], senders_done;

static void receiver(void *arg)
{
	unsigned j = (unsigned)(uintptr_t)arg;
	for (uint64_t i = 0; i < senders * loops; i++) {
		chan_recv(&chans[j]);
		received[j]++;
	}
}

static void sender(void *unused)
{
	(void)unused;
	for (uint64_t i = 0; i < loops; i++)
		for (unsigned j = 0; j < receivers; j++)
			chan_send(&chans[j]);
	atomic_inc(&senders_done);
}

int main(void)
{
	uint64_t cpus = testdev_param("cpus", 4);
	loops = testdev_param("loops", DEFAULT_LOOPS);
	senders = testdev_param("senders", DEFAULT_SENDERS);
	receivers = testdev_param("receivers", DEFAULT_RECEIVERS);
	uint64_t capacity = testdev_param("capacity", DEFAULT_CAPACITY);
	if (!report(senders >= 1 && receivers >= 1 && senders + receivers <= SCHED_MAX_TASKS &&
			    capacity >= 1 && capacity <= UINT32_MAX,
		    "%lu senders and %lu receivers (at most %u tasks), capacity %lu", senders,
		    receivers, SCHED_MAX_TASKS, capacity))
		return report_summary();
	clock_init();
	counters_init();
	smp_boot((unsigned)cpus, NULL, BOOT_TIMEOUT_MS);
	unsigned n = smp_cpus_online();
	if (!report(n >= 2 && n == cpus, "CPUs online: %u of %lu (at least 2)", n, cpus))
		return report_summary();
	sched_init((unsigned)testdev_param("watchdog_hz", DEFAULT_WATCHDOG_HZ));

	unsigned k = 0;
	for (unsigned j = 0; j < receivers; j++, k++) {
		chan_init(&chans[j], (uint32_t)capacity);
		sched_task(receiver, (void *)(uintptr_t)j, sched_cpu(k % n));
	}
	for (unsigned s = 0; s < senders; s++, k++)
		sched_task(sender, NULL, sched_cpu(k % n));
	struct sched_stats st;
	sched_run(&st);

	unsigned complete = 0;
	for (unsigned j = 0; j < receivers; j++)
		complete += received[j] == senders * loops && !chans[j].count;
	report(complete == receivers && senders_done == senders,
	       "every receiver got %lu messages: %u of %lu; senders done: %u of %lu",
	       senders * loops, complete, receivers, senders_done, senders);
	testdev_result("messages", senders * receivers * loops);
	sched_report(&st, loops);
	return report_summary();
}
