/* kvmclock-hostile: a guest that points its kvmclock MSR where the VMM must
 * not follow: outside RAM on the BSP, at a misaligned address on the second
 * CPU, across a page boundary on the third. The VMM must treat those
 * kvmclocks as inactive, warn once per vCPU, and keep the VM running across
 * two pauses; the suite checks the warnings. */
#include "libguest.h"
#include "pvclock.h"

/* One page of records, so the addresses below stay inside our own image. */
static uint8_t records[2 * 4096] __attribute__((aligned(4096)));

static uint64_t bad_msr_for(unsigned cpu, uint64_t mem)
{
	switch (cpu) {
	case 0:
		return (mem + 0x100000) | KVM_SYSTEM_TIME_ENABLE; /* beyond the end of RAM */
	case 1:
		return ((uintptr_t)records + 2) | KVM_SYSTEM_TIME_ENABLE; /* not 4-byte aligned */
	default:
		return ((uintptr_t)records + 4096 - 16) | KVM_SYSTEM_TIME_ENABLE; /* spans 2 pages */
	}
}

static uint64_t ram_size;

static void point_msr_badly(void *arg)
{
	(void)arg;
	wrmsr(MSR_KVM_SYSTEM_TIME_NEW, bad_msr_for(this_cpu()->index, ram_size));
}

int main(void)
{
	struct kvmclock_cpuid kc;
	kvmclock_cpuid(&kc);
	if (!kc.kvm || !(kc.features & KVM_FEATURE_CLOCKSOURCE2)) {
		report_skip("KVM offers no kvmclock");
		return report_summary();
	}
	unsigned cpus = (unsigned)testdev_param("cpus", 1);
	ram_size = testdev_param("mem", 64ull << 20);
	smp_boot(cpus, NULL, 2000);
	for (unsigned i = 1; i < smp_cpus_online(); i++)
		on_cpu(i, point_msr_badly, NULL);
	point_msr_badly(NULL);
	/* Twice: the warning must come once per vCPU, not once per pause. */
	report(testdev_pause(50) == TESTDEV_OK, "first pause with hostile kvmclock MSRs");
	report(testdev_pause(50) == TESTDEV_OK, "second pause with hostile kvmclock MSRs");
	testdev_result("cpus_checked", smp_cpus_online());
	return report_summary();
}
