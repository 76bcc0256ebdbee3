/* A test-and-test-and-set spinlock. */
#ifndef GUEST_SPINLOCK_H
#define GUEST_SPINLOCK_H

#include <stdint.h>

#include "processor.h"

struct spinlock {
	volatile uint32_t v;
};

#define SPINLOCK_INIT {0}

static inline void spin_lock(struct spinlock *l)
{
	while (__atomic_exchange_n(&l->v, 1, __ATOMIC_ACQUIRE))
		while (__atomic_load_n(&l->v, __ATOMIC_RELAXED))
			cpu_relax();
}

static inline bool spin_trylock(struct spinlock *l)
{
	return !__atomic_exchange_n(&l->v, 1, __ATOMIC_ACQUIRE);
}

static inline void spin_unlock(struct spinlock *l)
{
	__atomic_store_n(&l->v, 0, __ATOMIC_RELEASE);
}

#endif
