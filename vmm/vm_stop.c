/* How a VM ends: the first stop request wins and fixes the exit status; the
 * main loop is woken so it can kick every vCPU out of KVM_RUN. */
#include "vm_stop.h"

#include <errno.h>
#include <stdint.h>
#include <sys/eventfd.h>
#include <unistd.h>

int vm_stop_init(struct vm_stop *stop)
{
	atomic_init(&stop->requested, false);
	stop->reason = STOP_NONE;
	stop->status = 0;
	stop->event_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (stop->event_fd < 0)
		return -errno;
	pthread_mutex_init(&stop->lock, NULL);
	return 0;
}

void vm_stop_destroy(struct vm_stop *stop)
{
	if (stop->event_fd >= 0)
		close(stop->event_fd);
	stop->event_fd = -1;
	pthread_mutex_destroy(&stop->lock);
}

bool vm_stop_request(struct vm_stop *stop, enum stop_reason reason, int status)
{
	pthread_mutex_lock(&stop->lock);
	bool first = stop->reason == STOP_NONE;
	if (first) {
		stop->reason = reason;
		stop->status = status;
		atomic_store_explicit(&stop->requested, true, memory_order_release);
	}
	pthread_mutex_unlock(&stop->lock);
	if (first) {
		uint64_t one = 1;
		/* Cannot fail short of a counter overflow; the flag is set anyway. */
		(void)!write(stop->event_fd, &one, sizeof(one));
	}
	return first;
}

const char *vm_stop_reason_name(enum stop_reason reason)
{
	static const char *const names[] = {
		[STOP_NONE] = "running",        [STOP_GUEST_EXIT] = "guest-exit",
		[STOP_POWEROFF] = "poweroff",   [STOP_EXPECT] = "expect-matched",
		[STOP_TIMEOUT] = "timeout",     [STOP_SIGNAL] = "signal",
		[STOP_QUIT] = "quit",
		[STOP_VM_ERROR] = "vm-error",
	};
	_Static_assert(sizeof(names) / sizeof(names[0]) == STOP_VM_ERROR + 1,
		       "every stop reason has a name");
	return names[reason];
}
