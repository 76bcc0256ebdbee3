/* Atomic operations on 32-bit and 64-bit counters and flags (the compilers'
 * __atomic builtins, which x86-64 inlines: no library is needed). */
#ifndef GUEST_ATOMIC_H
#define GUEST_ATOMIC_H

#include <stdbool.h>
#include <stdint.h>

static inline uint32_t atomic_read(const volatile uint32_t *p)
{
	return __atomic_load_n(p, __ATOMIC_ACQUIRE);
}

static inline void atomic_set(volatile uint32_t *p, uint32_t v)
{
	__atomic_store_n(p, v, __ATOMIC_RELEASE);
}

/* Returns the value before the addition. */
static inline uint32_t atomic_fetch_add(volatile uint32_t *p, uint32_t v)
{
	return __atomic_fetch_add(p, v, __ATOMIC_SEQ_CST);
}

static inline uint32_t atomic_inc(volatile uint32_t *p)
{
	return atomic_fetch_add(p, 1);
}

static inline bool atomic_cmpxchg(volatile uint32_t *p, uint32_t old, uint32_t new)
{
	return __atomic_compare_exchange_n(p, &old, new, false, __ATOMIC_SEQ_CST,
					   __ATOMIC_SEQ_CST);
}

static inline uint64_t atomic64_read(const volatile uint64_t *p)
{
	return __atomic_load_n(p, __ATOMIC_ACQUIRE);
}

static inline void atomic64_set(volatile uint64_t *p, uint64_t v)
{
	__atomic_store_n(p, v, __ATOMIC_RELEASE);
}

static inline uint64_t atomic64_fetch_add(volatile uint64_t *p, uint64_t v)
{
	return __atomic_fetch_add(p, v, __ATOMIC_SEQ_CST);
}

#endif
