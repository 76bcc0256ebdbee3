/* The minimal run-queue scheduler (sched.h): tasks and their stacks, per-CPU
 * run queues, each CPU's scheduler loop, wake-up placement by the LLC, and
 * the results of a run (channels are in chan.c).
 *
 * Each CPU's loop runs on the CPU's own stack and switches to a task and
 * back (sched_switch.S); a task gives the CPU back when it waits or
 * returns. Run queues are under spinlocks. No lost wake-ups: a CPU looks
 * at its queue and marks itself idle under the queue's lock with
 * interrupts disabled, then "sti; hlt"; a waker that queues a task on an
 * idle CPU clears the mark and sends the reschedule IPI, which ends that
 * HLT (or is pending when it starts). A task still switching away on one
 * CPU when another picks it up is waited for (on_cpu, as Linux's
 * try_to_wake_up waits for p->on_cpu). */
#include "sched.h"

#include "apic.h"
#include "atomic.h"
#include "clock.h"
#include "idt.h"
#include "layout.h"
#include "printf.h"
#include "processor.h"
#include "report.h"
#include "smp.h"
#include "string.h"
#include "testdev.h"

struct rq {
	struct spinlock lock;
	struct task *head, *tail;
	bool idle;                 /* found the queue empty: a waker must IPI */
	uint32_t ipis;             /* reschedule IPIs wakers sent here */
	struct task *curr;         /* NULL: in the loop */
	uint64_t loop_sp;          /* the loop's context while a task runs */
	volatile uint32_t in_loop; /* the loop runs on this CPU */
	struct llc llc;
	/* sched_stats, this CPU's part; only this CPU writes them */
	uint64_t switches, migrations, wake_same, wake_sibling, wake_ipi, wake_pulled, stalls;
} __attribute__((aligned(64)));

void sched_switch(uint64_t *save_sp, uint64_t load_sp);
extern char sched_task_start[];

static struct rq rqs[MAX_CPUS];
static struct task tasks[SCHED_MAX_TASKS];
static uint8_t stacks[SCHED_MAX_TASKS][SCHED_STACK_SIZE] __attribute__((aligned(16)));
static unsigned ntasks, ncpus;
static unsigned by_apic[MAX_CPUS]; /* sched_cpu() */
static unsigned watchdog_hz;
static uint64_t watchdog_tsc; /* its period */
static volatile uint32_t live, done;
static uint64_t end_tsc;
static struct counters_snapshot snap_from, snap_to;

static void __attribute__((noreturn)) bug(const char *what)
{
	report(false, "sched: %s", what);
	exit(report_summary());
}

/* ---- The watchdog (sched.h) ---------------------------------------------- */

static void watchdog_handler(struct ex_regs *regs)
{
	(void)regs;
	apic_eoi();
}

static void watchdog_start(void)
{
	if (!watchdog_hz)
		return;
	apic_timer_set_divide(1);
	apic_timer_periodic(TIMER_VECTOR, (uint32_t)(APIC_TIMER_HZ / watchdog_hz));
}

/* ---- LLC ------------------------------------------------------------------- */

static void read_llc(void *unused)
{
	(void)unused;
	llc_this_cpu(&rqs[smp_id()].llc);
}

void sched_init(unsigned hz)
{
	watchdog_hz = hz;
	if (hz) {
		watchdog_tsc = clock_ns_to_tsc(NS_PER_S / hz);
		idt_set_handler(TIMER_VECTOR, watchdog_handler);
	}
	ncpus = smp_cpus_online();
	for (unsigned i = 0; i < ncpus; i++) { /* insertion sort by x2APIC ID */
		unsigned j = i;
		for (; j > 0 && smp_cpu(by_apic[j - 1])->apic_id > smp_cpu(i)->apic_id; j--)
			by_apic[j] = by_apic[j - 1];
		by_apic[j] = i;
	}
	for (unsigned n = 0; n < ncpus; n++) {
		unsigned i = by_apic[n];
		if (!on_cpu(i, read_llc, NULL))
			bug("a CPU does not take on_cpu() calls");
		const struct llc *l = &rqs[i].llc;
		char cache[32] = "";
		if (l->level)
			snprintf(cache, sizeof(cache), ", L%u shared by %u", l->level, l->sharing);
		printf("sched: CPU %u x2APIC ID %u: LLC id %u (%s%s)\n", i, l->apic_id, l->id,
		       l->rule, cache);
	}
}

unsigned sched_cpu(unsigned n)
{
	return by_apic[n < ncpus ? n : 0];
}

bool sched_llc_shared(unsigned a, unsigned b)
{
	return rqs[a].llc.id == rqs[b].llc.id;
}

const struct llc *sched_llc(unsigned cpu)
{
	return &rqs[cpu].llc;
}

/* ---- Run queues and wake-ups --------------------------------------------- */

/* Under rq->lock. True if the CPU is idle and needs the IPI. */
static bool enqueue_locked(struct rq *rq, struct task *t)
{
	if (!atomic_cmpxchg(&t->queued, 0, 1))
		bug("a task was woken twice");
	t->next = NULL;
	if (rq->tail)
		rq->tail->next = t;
	else
		rq->head = t;
	rq->tail = t;
	bool ipi = rq->idle;
	rq->idle = false;
	rq->ipis += ipi;
	return ipi;
}

/* Queues t on CPU `cpu`, and sends the reschedule IPI if that CPU is idle
 * (never this CPU: it is running). True if it sent one. */
static bool enqueue(unsigned cpu, struct task *t)
{
	struct rq *rq = &rqs[cpu];
	bool irq = irq_save();
	spin_lock(&rq->lock);
	bool ipi = enqueue_locked(rq, t);
	spin_unlock(&rq->lock);
	if (ipi)
		ipi = smp_send_resched(cpu); /* false: one already in flight will wake it */
	irq_restore(irq);
	return ipi;
}

struct task *sched_current(void)
{
	return rqs[smp_id()].curr;
}

void sched_wake(struct task *t)
{
	unsigned me = smp_id(), prev = t->cpu;
	struct rq *here = &rqs[me];
	if (prev == me) {
		here->wake_same++;
		enqueue(me, t);
	} else if (sched_llc_shared(me, prev)) {
		here->wake_sibling++;
		here->wake_ipi += enqueue(prev, t);
	} else {
		here->wake_pulled++;
		enqueue(me, t);
	}
}

void sched_block(void)
{
	irq_disable();
	struct rq *rq = &rqs[smp_id()];
	struct task *t = rq->curr;
	sched_switch(&t->sp, rq->loop_sp);
	irq_enable();
}

/* ---- Tasks and the loop --------------------------------------------------- */

struct task *sched_task(void (*fn)(void *arg), void *arg, unsigned cpu)
{
	if (ntasks == SCHED_MAX_TASKS || cpu >= smp_cpus_online())
		return NULL;
	unsigned k = ntasks++;
	struct task *t = &tasks[k];
	memset(t, 0, sizeof(*t));
	t->fn = fn;
	t->arg = arg;
	t->cpu = cpu;
	/* The frame sched_switch pops: r15, r14, r13, r12 (the task), rbx,
	 * rbp, then the return address; sched_task_start runs with %rsp at
	 * the top of the stack, 16-byte aligned as before a call. */
	uint64_t *sp = (uint64_t *)(uintptr_t)(stacks[k] + SCHED_STACK_SIZE) - 7;
	memset(sp, 0, 7 * sizeof(*sp));
	sp[3] = (uint64_t)(uintptr_t)t;
	sp[6] = (uint64_t)(uintptr_t)sched_task_start;
	t->sp = (uint64_t)(uintptr_t)sp;
	return t;
}

/* The last task returned: stamp the end, then let every loop end. */
static void finish(void)
{
	end_tsc = rdtsc();
	counters_snapshot(&snap_to);
	atomic_set(&done, 1);
	for (unsigned i = 0; i < ncpus; i++) {
		struct rq *rq = &rqs[i];
		spin_lock(&rq->lock);
		bool ipi = rq->idle;
		rq->idle = false;
		spin_unlock(&rq->lock);
		if (ipi && i != smp_id())
			smp_send_resched(i);
	}
}

void __attribute__((noreturn)) sched_task_main(struct task *t);
void sched_task_main(struct task *t)
{
	irq_enable();
	t->fn(t->arg);
	irq_disable();
	if (atomic_fetch_add(&live, (uint32_t)-1) == 1)
		finish();
	struct rq *rq = &rqs[smp_id()];
	uint64_t unused;
	sched_switch(&unused, rq->loop_sp);
	__builtin_unreachable();
}

/* Each CPU's loop, with interrupts disabled except in HLT; ends once every
 * task returned. */
static void loop(void *unused)
{
	(void)unused;
	unsigned me = smp_id();
	struct rq *rq = &rqs[me];
	irq_disable();
	if (me) /* the BSP's runs from before the start (sched_run) */
		watchdog_start();
	atomic_set(&rq->in_loop, 1);
	for (;;) {
		spin_lock(&rq->lock);
		struct task *t = rq->head;
		uint32_t ipis = rq->ipis;
		bool end = false;
		if (t) {
			rq->head = t->next;
			if (!rq->head)
				rq->tail = NULL;
		} else if (atomic_read(&done)) {
			end = true;
		} else {
			rq->idle = true;
		}
		spin_unlock(&rq->lock);
		if (end)
			break;
		if (!t) {
			/* a reschedule IPI, if someone queues work here */
			uint64_t halted = counters_halt();
			irq_disable();
			if (watchdog_hz && halted >= watchdog_tsc / 2 &&
			    __atomic_load_n(&rq->ipis, __ATOMIC_RELAXED) != ipis)
				rq->stalls++;
			continue;
		}
		while (atomic_read(&t->on_cpu)) /* still switching away elsewhere */
			cpu_relax();
		atomic_set(&t->queued, 0);
		rq->switches++;
		rq->migrations += t->cpu != me;
		t->cpu = me;
		atomic_set(&t->on_cpu, 1);
		rq->curr = t;
		sched_switch(&rq->loop_sp, t->sp);
		rq->curr = NULL;
		atomic_set(&t->on_cpu, 0); /* its stack is free for another CPU */
	}
	if (watchdog_hz)
		apic_timer_stop();
	atomic_set(&rq->in_loop, 0);
}

void sched_run(struct sched_stats *st)
{
	if (ncpus != smp_cpus_online())
		bug("sched_init was not called after smp_boot");
	atomic_set(&done, 0);
	atomic_set(&live, ntasks);
	for (unsigned i = 0; i < ncpus; i++) {
		struct rq *rq = &rqs[i];
		rq->head = rq->tail = NULL;
		rq->idle = false;
		rq->switches = rq->migrations = rq->wake_same = 0;
		rq->wake_sibling = rq->wake_ipi = rq->wake_pulled = rq->stalls = 0;
	}
	/* The APs' loops first: they find nothing and go idle. */
	for (unsigned i = 1; i < ncpus; i++) {
		while (!on_cpu_async(i, loop, NULL))
			cpu_relax();
		while (!__atomic_load_n(&rqs[i].idle, __ATOMIC_ACQUIRE))
			cpu_relax();
	}
	watchdog_start(); /* the BSP's */
	counters_snapshot(&snap_from);
	st->start_tsc = rdtsc();
	st->start_ipi = 0;
	for (unsigned k = 0; k < ntasks; k++)
		st->start_ipi += enqueue(tasks[k].cpu, &tasks[k]);
	loop(NULL);
	for (unsigned i = 1; i < ncpus; i++)
		while (atomic_read(&rqs[i].in_loop))
			cpu_relax();
	ntasks = 0;
	st->end_tsc = end_tsc;
	st->from = &snap_from;
	st->to = &snap_to;
	st->switches = st->migrations = st->wake_same = 0;
	st->wake_sibling = st->wake_ipi = st->wake_pulled = st->stalls = 0;
	for (unsigned i = 0; i < ncpus; i++) {
		const struct rq *rq = &rqs[i];
		st->switches += rq->switches;
		st->migrations += rq->migrations;
		st->wake_same += rq->wake_same;
		st->wake_sibling += rq->wake_sibling;
		st->wake_ipi += rq->wake_ipi;
		st->wake_pulled += rq->wake_pulled;
		st->stalls += rq->stalls;
	}
}

void sched_report(const struct sched_stats *st, uint64_t loops)
{
	struct counters w;
	counters_window(&w, st->from, st->to);
	uint64_t ns = clock_tsc_to_ns(st->end_tsc - st->start_tsc);
	if (!ns)
		ns = 1;
	if (!loops)
		loops = 1;
	bool shared01 = ncpus >= 2 && sched_llc_shared(sched_cpu(0), sched_cpu(1));
	bool any_shared = false;
	for (unsigned a = 0; a < ncpus; a++)
		for (unsigned b = a + 1; b < ncpus; b++)
			any_shared |= sched_llc_shared(a, b);
	printf("sched: %lu loops in %lu us (%s): %lu ns/loop; %lu IPIs, %lu HLTs; "
	       "%lu switches, %lu migrations; wake-ups: %lu same CPU, %lu to a sibling "
	       "(%lu with an IPI), %lu pulled to the waker\n",
	       loops, ns / 1000, clock_source(), ns / loops, w.ipi_sent, w.hlt, st->switches,
	       st->migrations, st->wake_same, st->wake_sibling, st->wake_ipi, st->wake_pulled);
	report(w.resched_sent == st->wake_ipi + st->start_ipi,
	       "reschedule IPIs counted by the runtime (%lu) = the scheduler's: %lu to wake idle "
	       "siblings, %lu to start tasks",
	       w.resched_sent, st->wake_ipi, st->start_ipi);
	if (!any_shared)
		report(!st->wake_sibling,
		       "no CPUs share an LLC: every wake-up stayed on the waker's CPU (%lu left)",
		       st->wake_sibling);
	testdev_result("loops", loops);
	testdev_result("time_us", ns / 1000);
	testdev_result("ns_per_loop", ns / loops);
	testdev_result("ipi_per_kloop", w.ipi_sent * 1000 / loops);
	testdev_result("hlt_per_kloop", w.hlt * 1000 / loops);
	testdev_result("ipi_per_s", w.ipi_sent * NS_PER_S / ns);
	testdev_result("hlt_per_s", w.hlt * NS_PER_S / ns);
	testdev_result("llc_shared", shared01);
	testdev_result("switches", st->switches);
	testdev_result("migrations", st->migrations);
	testdev_result("wake_sibling", st->wake_sibling);
	testdev_result("wake_pulled", st->wake_pulled);
	testdev_result("watchdog_hz", watchdog_hz);
	testdev_result("stalled_wakeups", st->stalls);
	if (st->stalls)
		printf("sched: %lu wake-ups stalled: a reschedule IPI did not end an HLT, the "
		       "watchdog timer did\n",
		       st->stalls);
	counters_report_window("", st->from, st->to);
}
