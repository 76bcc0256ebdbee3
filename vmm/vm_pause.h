/* Pausing a running VM: every vCPU thread really leaves KVM_RUN and parks
 * until resume (not a flag the guest could outrun). The main thread drives
 * it; a guest may ask for a pause/resume cycle through the test device. */
#ifndef VMM_VM_PAUSE_H
#define VMM_VM_PAUSE_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

struct vm_pause {
	pthread_mutex_t lock;
	pthread_cond_t changed;
	bool requested;        /* vCPUs must park */
	bool stopping;         /* the VM is ending: nobody parks any more */
	unsigned parked;       /* vCPU threads parked now */
	unsigned long cycles;  /* completed resumes, so a waiter can tell */
	uint32_t guest_cycle_ms; /* a guest asked for a cycle of this length; 0: none */
	int event_fd;          /* wakes the main loop for a guest's request */
};

int vm_pause_init(struct vm_pause *p);
void vm_pause_destroy(struct vm_pause *p);

static inline bool vm_pause_requested(struct vm_pause *p)
{
	return __atomic_load_n(&p->requested, __ATOMIC_ACQUIRE);
}

/* vCPU thread: park while a pause is requested. */
void vm_pause_park(struct vm_pause *p);

/* vCPU thread, for the guest: ask the main loop for a pause of `ms`, and
 * park (counted) until that cycle has resumed. */
void vm_pause_guest_cycle(struct vm_pause *p, uint32_t ms);

/* Main thread: request the pause and wait until `nvcpus` threads parked.
 * The caller kicks the vCPUs between the two calls. */
void vm_pause_request(struct vm_pause *p);
void vm_pause_wait_parked(struct vm_pause *p, unsigned nvcpus);
void vm_pause_resume(struct vm_pause *p);

/* Main thread: the guest's pending request (0 if none), cleared. */
uint32_t vm_pause_take_guest_request(struct vm_pause *p);

/* Main thread, when the VM ends: release every parked thread for good. */
void vm_pause_shutdown(struct vm_pause *p);

#endif
