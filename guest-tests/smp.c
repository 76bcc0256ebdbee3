/* smp: brings up `cpus` CPUs (a parameter; 1 if nobody says) with
 * INIT-SIPI-SIPI; each checks in with its x2APIC ID, which must match the
 * initial APIC ID CPUID reports; then each runs a function sent by IPI.
 * Reports cpus_up=<CPUs that arrived>. */
#include "libguest.h"

#define BOOT_TIMEOUT_MS 2000
#define STRAGGLER_MS 100 /* after the last expected CPU: does anyone else come? */

struct arrival {
	uint32_t x2apic_id;  /* MSR 0x802 */
	uint32_t cpuid_id;   /* CPUID's initial APIC ID */
	uint32_t index;      /* the runtime's CPU index */
};

static struct arrival arrivals[MAX_CPUS];
static volatile uint32_t narrived;

/* CPUID.0BH:EDX when leaf 0xB exists (subleaf 0 EBX != 0), else
 * CPUID.01H:EBX[31:24]. */
static uint32_t cpuid_initial_apic_id(void)
{
	if (cpuid(0).a >= 0xb) {
		struct cpuid b = cpuid_count(0xb, 0);
		if (b.b)
			return b.d;
	}
	return cpuid(1).b >> 24;
}

static void check_in(void)
{
	uint32_t slot = atomic_inc(&narrived);
	if (slot < MAX_CPUS)
		arrivals[slot] = (struct arrival){ (uint32_t)rdmsr(X2APIC_ID),
						   cpuid_initial_apic_id(), smp_id() };
}

static void whoami(void *data)
{
	*(volatile uint32_t *)data = apic_id();
}

static bool ids_distinct(unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		for (unsigned j = i + 1; j < n; j++)
			if (arrivals[i].x2apic_id == arrivals[j].x2apic_id)
				return false;
	return true;
}

int main(void)
{
	uint64_t want = testdev_param("cpus", 1);
	if (!report(want >= 1 && want <= MAX_CPUS, "cpus=%lu is within 1..%u", want, MAX_CPUS))
		return report_summary();

	check_in(); /* the BSP */
	smp_boot((unsigned)want, check_in, BOOT_TIMEOUT_MS);
	mdelay(STRAGGLER_MS);
	unsigned n = atomic_read(&narrived);
	unsigned stored = n < MAX_CPUS ? n : MAX_CPUS;

	unsigned matching = 0;
	for (unsigned i = 0; i < stored; i++) {
		const struct arrival *a = &arrivals[i];
		printf("smp: CPU %u: x2APIC ID %u, CPUID initial APIC ID %u\n", a->index,
		       a->x2apic_id, a->cpuid_id);
		matching += a->x2apic_id == a->cpuid_id;
	}
	unsigned started = smp_cpus_started(); /* counts CPUs past MAX_CPUS too */
	report(n == want && started == want, "CPUs arrived: %u (%u started), expected %lu", n,
	       started, want);
	report(ids_distinct(stored), "x2APIC IDs are distinct");
	report(matching == stored, "x2APIC ID equals CPUID's initial APIC ID on %u of %u CPUs",
	       matching, stored);

	/* Each AP runs a function sent by a fixed IPI to its APIC ID. */
	unsigned answered = 0;
	for (unsigned i = 1; i < smp_cpus_online(); i++) {
		volatile uint32_t id = ~0u;
		if (on_cpu(i, whoami, (void *)&id) && id == smp_cpu(i)->apic_id)
			answered++;
	}
	report(answered == smp_cpus_online() - 1, "%u of %u APs ran a function sent by IPI",
	       answered, smp_cpus_online() - 1);

	testdev_result("cpus_up", n);
	return report_summary();
}
