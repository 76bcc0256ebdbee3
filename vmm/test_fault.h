/* Deliberate bugs, compiled only into the test build (build/vmm-testfaults),
 * so the suite can show that a test fails when the bug it exists to catch
 * is present. The product binary has no way to turn them on. */
#ifndef VMM_TEST_FAULT_H
#define VMM_TEST_FAULT_H

#include <stdbool.h>

enum test_fault {
	TEST_FAULT_L3_SHARING, /* CPUID says the L3 is shared by one core's threads only */
	TEST_FAULT_STALE_KVMCLOCK_MSR, /* kvmclock keeps the first system-time MSR it read */
	TEST_FAULT_SECCOMP_VCPU, /* a vCPU thread makes a forbidden ioctl once its filter is on */
	TEST_FAULT_COUNT,
};

#ifdef VMM_TEST_FAULTS
bool test_fault_active(enum test_fault fault);
/* "l3-sharing", ...; false if unknown. */
bool test_fault_enable(const char *name);
#else
static inline bool test_fault_active(enum test_fault fault)
{
	(void)fault;
	return false;
}
#endif

#endif
