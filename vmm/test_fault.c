/* Deliberate bugs, compiled only into the test build (build/vmm-testfaults),
 * so the suite can show that a test fails when the bug it exists to catch
 * is present. The product binary has no way to turn them on. */
#include "test_fault.h"

#ifdef VMM_TEST_FAULTS
#include <string.h>

static const char *const fault_names[TEST_FAULT_COUNT] = {
	[TEST_FAULT_L3_SHARING] = "l3-sharing",
	[TEST_FAULT_STALE_KVMCLOCK_MSR] = "stale-kvmclock-msr",
	[TEST_FAULT_SECCOMP_VCPU] = "seccomp-vcpu",
};
static bool active[TEST_FAULT_COUNT];

bool test_fault_active(enum test_fault fault)
{
	return active[fault];
}

bool test_fault_enable(const char *name)
{
	for (int i = 0; i < TEST_FAULT_COUNT; i++) {
		if (strcmp(name, fault_names[i]) == 0) {
			active[i] = true;
			return true;
		}
	}
	return false;
}
#else
/* ISO C forbids an empty translation unit. */
typedef int test_fault_unused;
#endif
