/* CPUs: the per-CPU structs, bringing up the APs (INIT-SIPI-SIPI) and
 * running a function on another CPU. */
#ifndef GUEST_SMP_H
#define GUEST_SMP_H

#include <stdbool.h>
#include <stdint.h>

#include "spinlock.h"
#include "testdev_abi.h"

struct percpu {
	struct percpu *self; /* at %gs:0: this_cpu() reads it */
	uint32_t index;      /* 0 = the BSP, APs in order of arrival */
	uint32_t apic_id;    /* x2APIC ID */
	volatile uint32_t ready; /* in the idle loop, takes on_cpu() calls */
	uint32_t in_fatal;       /* idt.c: reporting an unhandled event */
	struct testdev_msg msg;  /* testdev.c: this CPU's message */
	/* on_cpu() mailbox */
	struct spinlock call_lock;
	void (*volatile call_fn)(void *data);
	void *volatile call_data;
	uint32_t call_posted;
	volatile uint32_t call_done;
} __attribute__((aligned(64)));

struct percpu *this_cpu(void);
unsigned smp_id(void); /* this_cpu()->index */
struct percpu *smp_cpu(unsigned index);
unsigned smp_cpus_online(void);
/* CPUs that reached long mode, counting those beyond MAX_CPUS, which park. */
unsigned smp_cpus_started(void);

/* Makes `index` this CPU's per-CPU struct (GS base). First thing a CPU does. */
void smp_percpu_setup(unsigned index);

/* Installs the handlers of SMP_WAKEUP_VECTOR and RESCHED_VECTOR (both only
 * EOI: the CPU they wake looks for its work itself). BSP, at boot. */
void smp_vectors_init(void);

/* A reschedule IPI (RESCHED_VECTOR) to CPU `index`: it leaves HLT, if it
 * was in one. Not sent while one is still in flight to that CPU (the LAPIC
 * would merge the two in its IRR; Linux likewise sends none while the
 * target's need-resched flag is set): returns whether it was sent. */
bool smp_send_resched(unsigned index);

/* Starts the APs once and waits, at most timeout_ms (printing progress),
 * until ncpus CPUs in all are online; returns how many are. Each AP calls
 * ap_hook (if any) before it counts as online, then idles in HLT. */
unsigned smp_boot(unsigned ncpus, void (*ap_hook)(void), unsigned timeout_ms);

/* Runs fn(data) on CPU `index` with interrupts disabled (on the caller,
 * directly); on_cpu waits for it to finish, on_cpu_async does not. False if
 * that CPU is not online. */
bool on_cpu(unsigned index, void (*fn)(void *data), void *data);
bool on_cpu_async(unsigned index, void (*fn)(void *data), void *data);

#endif
