/* vm_pause: vCPU threads really park until resume; the main thread waits
 * for them; shutdown releases them for good; a guest's pause cycle returns
 * only after the main side resumed. Real threads, but every assertion is
 * about a state the threads cannot leave on their own (parked while a
 * pause is requested, or while no resume has happened), so the outcome
 * does not depend on scheduling. No sleeps: the waits are the module's own
 * condition variable, pthread_join and poll on the event fd; Check's
 * per-test timeout bounds a wait that never ends. */
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>

#include "../../vmm/vm_pause.h"
#include "suites.h"

/* Not yet in suites.h: declared here until it is. */
Suite *vm_pause_suite(void);

#define NTHREADS 2

static struct vm_pause p;
static unsigned returned;  /* threads back out of the function under test */
static int stop_spinning;  /* tells spin_and_park threads to end */

static void setup(void)
{
	ck_assert_int_eq(vm_pause_init(&p), 0);
	returned = 0;
	stop_spinning = 0;
}

static void teardown(void)
{
	vm_pause_destroy(&p);
}

static unsigned parked_now(void)
{
	pthread_mutex_lock(&p.lock);
	unsigned n = p.parked;
	pthread_mutex_unlock(&p.lock);
	return n;
}

static unsigned long cycles_now(void)
{
	pthread_mutex_lock(&p.lock);
	unsigned long n = p.cycles;
	pthread_mutex_unlock(&p.lock);
	return n;
}

static unsigned returned_now(void)
{
	return __atomic_load_n(&returned, __ATOMIC_ACQUIRE);
}

/* A vCPU thread that finds a pause requested: parks while it lasts. */
static void *park_while_requested(void *arg)
{
	(void)arg;
	while (vm_pause_requested(&p))
		vm_pause_park(&p);
	__atomic_add_fetch(&returned, 1, __ATOMIC_RELEASE);
	return NULL;
}

/* A vCPU thread "running the guest": spins, parking whenever a pause is
 * requested, until told to stop (vcpu.c's loop without KVM_RUN). */
static void *spin_and_park(void *arg)
{
	(void)arg;
	while (!__atomic_load_n(&stop_spinning, __ATOMIC_ACQUIRE)) {
		if (vm_pause_requested(&p))
			vm_pause_park(&p);
		else
			sched_yield();
	}
	__atomic_add_fetch(&returned, 1, __ATOMIC_RELEASE);
	return NULL;
}

/* A vCPU thread whose guest asked, through the test device, for a pause
 * cycle of *(uint32_t *)arg ms. */
static void *guest_cycle(void *arg)
{
	vm_pause_guest_cycle(&p, *(const uint32_t *)arg);
	__atomic_add_fetch(&returned, 1, __ATOMIC_RELEASE);
	return NULL;
}

static void start(pthread_t *t, void *(*fn)(void *), void *arg)
{
	ck_assert_int_eq(pthread_create(t, NULL, fn, arg), 0);
}

static void join(pthread_t t)
{
	ck_assert_int_eq(pthread_join(t, NULL), 0);
}

/* Wait (bounded) until the guest's request has woken the main loop. */
static void wait_guest_request(void)
{
	struct pollfd pfd = { .fd = p.event_fd, .events = POLLIN };
	ck_assert_int_eq(poll(&pfd, 1, 3000), 1);
	ck_assert(pfd.revents & POLLIN);
}

START_TEST(test_init_state)
{
	ck_assert(!vm_pause_requested(&p));
	ck_assert_uint_eq(parked_now(), 0);
	ck_assert_uint_eq(cycles_now(), 0);
	ck_assert_int_ge(p.event_fd, 0);
	/* No guest request yet. */
	ck_assert_uint_eq(vm_pause_take_guest_request(&p), 0);
}
END_TEST

START_TEST(test_park_without_request_returns)
{
	/* Nothing requested: park is a no-op and leaves nobody counted. */
	vm_pause_park(&p);
	ck_assert_uint_eq(parked_now(), 0);
}
END_TEST

START_TEST(test_request_parks_both_until_resume)
{
	pthread_t t[NTHREADS];
	vm_pause_request(&p);
	ck_assert(vm_pause_requested(&p));
	for (int i = 0; i < NTHREADS; i++)
		start(&t[i], park_while_requested, NULL);
	vm_pause_wait_parked(&p, NTHREADS);
	/* Both parked, and neither can return while the pause lasts. */
	ck_assert_uint_eq(parked_now(), NTHREADS);
	ck_assert_uint_eq(returned_now(), 0);
	/* Waiting again for as many returns at once. */
	vm_pause_wait_parked(&p, NTHREADS);

	vm_pause_resume(&p);
	ck_assert(!vm_pause_requested(&p));
	for (int i = 0; i < NTHREADS; i++)
		join(t[i]);
	ck_assert_uint_eq(returned_now(), NTHREADS);
	ck_assert_uint_eq(parked_now(), 0);
	ck_assert_uint_eq(cycles_now(), 1);
}
END_TEST

START_TEST(test_repeated_cycles_with_running_threads)
{
	pthread_t t[NTHREADS];
	for (int i = 0; i < NTHREADS; i++)
		start(&t[i], spin_and_park, NULL);
	for (unsigned long cycle = 1; cycle <= 3; cycle++) {
		vm_pause_request(&p);
		vm_pause_wait_parked(&p, NTHREADS);
		/* While requested nobody leaves park: still both. */
		ck_assert_uint_eq(parked_now(), NTHREADS);
		vm_pause_resume(&p);
		ck_assert_uint_eq(cycles_now(), cycle);
	}
	__atomic_store_n(&stop_spinning, 1, __ATOMIC_RELEASE);
	for (int i = 0; i < NTHREADS; i++)
		join(t[i]);
	ck_assert_uint_eq(returned_now(), NTHREADS);
	ck_assert_uint_eq(parked_now(), 0);
	ck_assert_uint_eq(cycles_now(), 3);
}
END_TEST

START_TEST(test_shutdown_releases_for_good)
{
	pthread_t t;
	vm_pause_request(&p);
	start(&t, park_while_requested, NULL);
	vm_pause_wait_parked(&p, 1);
	ck_assert_uint_eq(returned_now(), 0);

	vm_pause_shutdown(&p);
	join(t);
	ck_assert_uint_eq(returned_now(), 1);
	ck_assert_uint_eq(parked_now(), 0);
	ck_assert(!vm_pause_requested(&p));
	/* Shutdown is not a resume. */
	ck_assert_uint_eq(cycles_now(), 0);

	/* For good: a later request parks nobody, and waiting for parked
	 * threads that will never come returns (on this thread: a park that
	 * blocked would hang the test into Check's timeout). */
	vm_pause_request(&p);
	vm_pause_park(&p);
	ck_assert_uint_eq(parked_now(), 0);
	vm_pause_wait_parked(&p, NTHREADS);
	uint32_t ms = 10;
	guest_cycle(&ms);
	ck_assert_uint_eq(returned_now(), 2);
	ck_assert_uint_eq(parked_now(), 0);
}
END_TEST

START_TEST(test_shutdown_releases_guest_cycle)
{
	pthread_t t;
	uint32_t ms = 50;
	start(&t, guest_cycle, &ms);
	wait_guest_request();
	vm_pause_wait_parked(&p, 1);
	vm_pause_shutdown(&p);
	join(t);
	ck_assert_uint_eq(returned_now(), 1);
	ck_assert_uint_eq(parked_now(), 0);
	ck_assert_uint_eq(cycles_now(), 0);
}
END_TEST

START_TEST(test_guest_cycle_returns_after_resume)
{
	pthread_t t;
	uint32_t ms = 5;
	start(&t, guest_cycle, &ms);
	/* The request wakes the main loop (the event fd) and the asking
	 * thread counts as parked. */
	wait_guest_request();
	vm_pause_wait_parked(&p, 1);
	ck_assert_uint_eq(parked_now(), 1);
	/* The main loop takes the request, once. */
	ck_assert_uint_eq(vm_pause_take_guest_request(&p), 5);
	ck_assert_uint_eq(vm_pause_take_guest_request(&p), 0);
	/* No resume yet: still parked. */
	ck_assert_uint_eq(returned_now(), 0);

	/* main_loop.c's guest_pause_cycle: pause all, (sleep), resume all. */
	vm_pause_request(&p);
	vm_pause_wait_parked(&p, 1);
	ck_assert_uint_eq(returned_now(), 0);
	vm_pause_resume(&p);
	join(t);
	ck_assert_uint_eq(returned_now(), 1);
	ck_assert_uint_eq(parked_now(), 0);
	ck_assert_uint_eq(cycles_now(), 1);
}
END_TEST

START_TEST(test_guest_cycle_with_another_vcpu)
{
	/* vCPU 0's guest asks for a cycle while vCPU 1 runs: the main loop's
	 * pause parks vCPU 1 too, and counts both. */
	pthread_t asker, runner;
	uint32_t ms = 7;
	start(&runner, spin_and_park, NULL);
	start(&asker, guest_cycle, &ms);
	wait_guest_request();
	ck_assert_uint_eq(vm_pause_take_guest_request(&p), 7);
	vm_pause_request(&p);
	vm_pause_wait_parked(&p, 2);
	ck_assert_uint_eq(parked_now(), 2);
	ck_assert_uint_eq(returned_now(), 0);
	vm_pause_resume(&p);
	join(asker);
	ck_assert_uint_eq(returned_now(), 1);
	__atomic_store_n(&stop_spinning, 1, __ATOMIC_RELEASE);
	join(runner);
	ck_assert_uint_eq(returned_now(), 2);
	ck_assert_uint_eq(parked_now(), 0);
	ck_assert_uint_eq(cycles_now(), 1);
}
END_TEST

START_TEST(test_guest_cycle_zero_ms)
{
	/* A request for 0 ms is still a request: the main loop sees 1 ms
	 * (0 means "none"). */
	pthread_t t;
	uint32_t ms = 0;
	start(&t, guest_cycle, &ms);
	wait_guest_request();
	vm_pause_wait_parked(&p, 1);
	ck_assert_uint_eq(vm_pause_take_guest_request(&p), 1);
	vm_pause_resume(&p);
	join(t);
	ck_assert_uint_eq(returned_now(), 1);
}
END_TEST

Suite *vm_pause_suite(void)
{
	Suite *s = suite_create("vm_pause");
	TCase *tc = tcase_create("threads");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_init_state);
	tcase_add_test(tc, test_park_without_request_returns);
	tcase_add_test(tc, test_request_parks_both_until_resume);
	tcase_add_test(tc, test_repeated_cycles_with_running_threads);
	tcase_add_test(tc, test_shutdown_releases_for_good);
	tcase_add_test(tc, test_shutdown_releases_guest_cycle);
	tcase_add_test(tc, test_guest_cycle_returns_after_resume);
	tcase_add_test(tc, test_guest_cycle_with_another_vcpu);
	tcase_add_test(tc, test_guest_cycle_zero_ms);
	suite_add_tcase(s, tc);
	return s;
}
