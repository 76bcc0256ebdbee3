/* Pausing a running VM: every vCPU thread really leaves KVM_RUN and parks
 * until resume (not a flag the guest could outrun). The main thread drives
 * it; a guest may ask for a pause/resume cycle through the test device. */
#include "vm_pause.h"

#include <errno.h>
#include <sys/eventfd.h>
#include <unistd.h>

int vm_pause_init(struct vm_pause *p)
{
	*p = (struct vm_pause){ .event_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK) };
	/* A failed init must still be safe to destroy. */
	pthread_mutex_init(&p->lock, NULL);
	pthread_cond_init(&p->changed, NULL);
	return p->event_fd < 0 ? -errno : 0;
}

void vm_pause_destroy(struct vm_pause *p)
{
	if (p->event_fd >= 0)
		close(p->event_fd);
	p->event_fd = -1;
	pthread_cond_destroy(&p->changed);
	pthread_mutex_destroy(&p->lock);
}

/* With the lock held: count this thread parked until `done` says so. */
static void park_until(struct vm_pause *p, bool (*done)(struct vm_pause *, unsigned long),
		       unsigned long arg)
{
	p->parked++;
	pthread_cond_broadcast(&p->changed);
	while (!p->stopping && !done(p, arg))
		pthread_cond_wait(&p->changed, &p->lock);
	p->parked--;
}

static bool not_requested(struct vm_pause *p, unsigned long unused)
{
	(void)unused;
	return !p->requested;
}

static bool cycle_done(struct vm_pause *p, unsigned long cycles_before)
{
	return p->cycles != cycles_before;
}

void vm_pause_park(struct vm_pause *p)
{
	pthread_mutex_lock(&p->lock);
	park_until(p, not_requested, 0);
	pthread_mutex_unlock(&p->lock);
}

void vm_pause_guest_cycle(struct vm_pause *p, uint32_t ms)
{
	pthread_mutex_lock(&p->lock);
	unsigned long before = p->cycles;
	p->guest_cycle_ms = ms ? ms : 1;
	uint64_t one = 1;
	(void)!write(p->event_fd, &one, sizeof(one));
	park_until(p, cycle_done, before);
	pthread_mutex_unlock(&p->lock);
}

void vm_pause_request(struct vm_pause *p)
{
	pthread_mutex_lock(&p->lock);
	__atomic_store_n(&p->requested, true, __ATOMIC_RELEASE);
	pthread_mutex_unlock(&p->lock);
}

void vm_pause_wait_parked(struct vm_pause *p, unsigned nvcpus)
{
	pthread_mutex_lock(&p->lock);
	while (!p->stopping && p->parked < nvcpus)
		pthread_cond_wait(&p->changed, &p->lock);
	pthread_mutex_unlock(&p->lock);
}

void vm_pause_resume(struct vm_pause *p)
{
	pthread_mutex_lock(&p->lock);
	__atomic_store_n(&p->requested, false, __ATOMIC_RELEASE);
	p->cycles++;
	pthread_cond_broadcast(&p->changed);
	pthread_mutex_unlock(&p->lock);
}

uint32_t vm_pause_take_guest_request(struct vm_pause *p)
{
	uint64_t count;
	(void)!read(p->event_fd, &count, sizeof(count));
	pthread_mutex_lock(&p->lock);
	uint32_t ms = p->guest_cycle_ms;
	p->guest_cycle_ms = 0;
	pthread_mutex_unlock(&p->lock);
	return ms;
}

void vm_pause_shutdown(struct vm_pause *p)
{
	pthread_mutex_lock(&p->lock);
	p->stopping = true;
	__atomic_store_n(&p->requested, false, __ATOMIC_RELEASE);
	pthread_cond_broadcast(&p->changed);
	pthread_mutex_unlock(&p->lock);
}
