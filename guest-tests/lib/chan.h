/* Channels between the scheduler's tasks (sched.h): a counted message queue
 * that a task waits on, for a message or for room, as on a pipe. */
#ifndef GUEST_CHAN_H
#define GUEST_CHAN_H

#include <stdint.h>

#include "sched.h"
#include "spinlock.h"

/* chan_send waits while `capacity` messages are queued, chan_recv while
 * none is. One receiving task per channel; any number of senders. A
 * message carries nothing but its arrival. */
struct chan {
	struct spinlock lock;
	uint32_t count, capacity;
	struct task *receiver; /* waiting for a message */
	struct task *senders;  /* waiting for room (a list through wait_next) */
};

void chan_init(struct chan *c, uint32_t capacity);
void chan_send(struct chan *c);
void chan_recv(struct chan *c);

#endif
