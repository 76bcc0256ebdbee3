/* Channels between tasks (chan.h). Each waits the same way: under the
 * channel's lock, leave the task where the other side will find it, unlock,
 * sched_block(), and look again once woken. The side that changes the
 * count takes the waiter out under the lock and wakes it after. */
#include "chan.h"

#include "report.h"
#include "string.h"
#include "testdev.h"

void chan_init(struct chan *c, uint32_t capacity)
{
	memset(c, 0, sizeof(*c));
	c->capacity = capacity ? capacity : 1;
}

void chan_send(struct chan *c)
{
	struct task *me = sched_current();
	spin_lock(&c->lock);
	while (c->count == c->capacity) {
		me->wait_next = c->senders;
		c->senders = me;
		spin_unlock(&c->lock);
		sched_block();
		spin_lock(&c->lock);
	}
	c->count++;
	struct task *r = c->receiver;
	c->receiver = NULL;
	spin_unlock(&c->lock);
	if (r)
		sched_wake(r);
}

void chan_recv(struct chan *c)
{
	struct task *me = sched_current();
	spin_lock(&c->lock);
	while (!c->count) {
		if (c->receiver && c->receiver != me) {
			report(false, "chan: two tasks receive from one channel");
			exit(report_summary());
		}
		c->receiver = me;
		spin_unlock(&c->lock);
		sched_block();
		spin_lock(&c->lock);
	}
	c->count--;
	struct task *s = c->senders;
	if (s)
		c->senders = s->wait_next;
	spin_unlock(&c->lock);
	if (s)
		sched_wake(s);
}
