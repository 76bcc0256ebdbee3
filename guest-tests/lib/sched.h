/* A minimal run-queue scheduler for the measuring kernels: per-CPU run
 * queues of tasks with small stacks of their own, cooperative switching (a
 * task runs until it waits for a message or returns), idle CPUs in
 * "sti; hlt".
 *
 * Wake-up placement follows the Linux mechanism of seed 000, decided by
 * CPUID only (lib/llc.h): a task woken by a task on another CPU than the
 * one it last ran on goes back to that CPU when the two CPUs share the
 * last-level cache (queued there, and a reschedule IPI if that CPU is idle,
 * so it leaves HLT); otherwise it is queued on the waker's CPU, without
 * an IPI, and runs there once the waker waits. A busy CPU gets no IPI: it
 * finds the task when its current one waits (nothing is preempted).
 * Tasks wait for each other through channels (chan.h). */
#ifndef GUEST_SCHED_H
#define GUEST_SCHED_H

#include <stdbool.h>
#include <stdint.h>

#include "counters.h"
#include "llc.h"
#include "spinlock.h"

#define SCHED_MAX_TASKS 32
#define SCHED_STACK_SIZE 0x4000

/* A task: the scheduler's, but for wait_next, a link for whatever the
 * task waits on (chan.h's list of waiting senders). */
struct task {
	uint64_t sp; /* saved while not running */
	void (*fn)(void *arg);
	void *arg;
	uint32_t cpu;             /* where it last ran (first: where it starts) */
	volatile uint32_t on_cpu; /* from being picked until its CPU switched away */
	volatile uint32_t queued; /* on a run queue */
	struct task *next;        /* run queue link */
	struct task *wait_next;   /* waiters' link */
};

/* BSP, after smp_boot: every online CPU reads its LLC id from its own
 * CPUID (llc.h); prints them.
 *
 * watchdog_hz (0: none): while sched_run runs, every CPU also has a
 * periodic APIC timer at that rate (TIMER_VECTOR; counted in timer_irqs,
 * and the HLTs it ends in hlt), as a guest kernel has its tick. It ends an
 * HLT that a reschedule IPI should have ended and did not: in the nested
 * rig an HLT that starts with an interrupt already pending has been seen
 * not to end. Such HLTs (an IPI was sent to the CPU during the HLT, which
 * lasted at least half a watchdog period) are counted as stalls. */
void sched_init(unsigned watchdog_hz);
/* The runtime's index of the online CPU with the n-th lowest x2APIC ID
 * (n < CPUs online): a numbering that does not depend on the order in
 * which the APs came up, so that sched_cpu(0) and sched_cpu(1) are the
 * first two threads of one core with SMT, or the first two cores. */
unsigned sched_cpu(unsigned n);
bool sched_llc_shared(unsigned cpu_a, unsigned cpu_b);
const struct llc *sched_llc(unsigned cpu);

/* A task that will start on CPU `cpu` (an online CPU) when sched_run
 * runs; NULL if there is no room (SCHED_MAX_TASKS). */
struct task *sched_task(void (*fn)(void *arg), void *arg, unsigned cpu);

/* What one sched_run measured, from just before the first task was queued
 * to the moment the last one returned (TSC stamps: taken on different
 * CPUs, see clock_tsc_stable()). */
struct sched_stats {
	uint64_t start_tsc, end_tsc;
	const struct counters_snapshot *from, *to; /* every CPU's counters then */
	uint64_t switches;     /* tasks picked to run */
	uint64_t migrations;   /* of which on another CPU than last time */
	uint64_t wake_same;    /* woken on the CPU they last ran on, the waker's */
	uint64_t wake_sibling; /* sent back to their CPU, sharing the waker's LLC */
	uint64_t wake_ipi;     /* of which to an idle CPU: a reschedule IPI */
	uint64_t wake_pulled;  /* queued on the waker's CPU: no shared LLC */
	uint64_t start_ipi;    /* reschedule IPIs that queued the tasks at the start */
	uint64_t stalls;       /* HLTs the watchdog ended, an IPI having been sent */
};

/* BSP: runs every task created since the last sched_run on all online
 * CPUs until each has returned, then returns with interrupts disabled. */
void sched_run(struct sched_stats *st);

/* The results every scheduler benchmark reports, for `loops` loops: loops,
 * time_us, ns_per_loop, ipi_per_kloop and hlt_per_kloop (IPIs sent and
 * HLTs per 1000 loops), ipi_per_s, hlt_per_s, llc_shared (sched_cpu(0)
 * and sched_cpu(1) share the LLC), switches, migrations, wake_sibling,
 * wake_pulled, watchdog_hz, stalled_wakeups, then the counters
 * (counters_report_window). Checks that the scheduler's own
 * count of reschedule IPIs agrees with the runtime's, and (where no CPUs
 * share an LLC) that no wake-up left the waker's CPU. */
void sched_report(const struct sched_stats *st, uint64_t loops);

/* The running task (NULL outside tasks). */
struct task *sched_current(void);
/* The running task waits: its CPU goes back to its loop. Returns once
 * sched_wake() made it runnable and a CPU picked it, maybe another. Call it
 * after leaving the task where its waker will find it, and look again at
 * what it waited for when it returns (chan.c shows how). */
void sched_block(void);
/* Makes a waiting task runnable (as described above). Once per wait. */
void sched_wake(struct task *t);

#endif
