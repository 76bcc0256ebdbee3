/* How a VM ends: the first stop request wins and fixes the exit status; the
 * main loop is woken so it can kick every vCPU out of KVM_RUN. */
#ifndef VMM_VM_STOP_H
#define VMM_VM_STOP_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>

enum stop_reason {
	STOP_NONE,
	STOP_GUEST_EXIT,  /* the guest wrote the debug-exit port */
	STOP_POWEROFF,    /* the guest powered off or reset */
	STOP_EXPECT,      /* the console matched --expect */
	STOP_TIMEOUT,     /* --timeout passed */
	STOP_SIGNAL,      /* SIGINT / SIGTERM */
	STOP_QUIT,        /* the control socket's quit */
	STOP_VM_ERROR,    /* KVM error, triple fault, unhandled exit */
};

struct vm_stop {
	atomic_bool requested; /* read by vCPU loops without the lock */
	pthread_mutex_t lock;
	enum stop_reason reason;
	int status;
	int event_fd; /* eventfd the main loop polls */
};

int vm_stop_init(struct vm_stop *stop);
void vm_stop_destroy(struct vm_stop *stop);

/* Ask the VM to stop. The first caller's reason and status are kept; later
 * calls return false and change nothing. Safe from any thread. */
bool vm_stop_request(struct vm_stop *stop, enum stop_reason reason, int status);

static inline bool vm_stop_requested(struct vm_stop *stop)
{
	return atomic_load_explicit(&stop->requested, memory_order_acquire);
}

const char *vm_stop_reason_name(enum stop_reason reason);

#endif
