/* The guest side of kvmclock (see pvclock.h). */
#include "pvclock.h"

#include "processor.h"
#include "smp.h"
#include "string.h"
#include "testdev.h"

#define CPUID_01_ECX_HYPERVISOR (1u << 31)

void kvmclock_cpuid(struct kvmclock_cpuid *out)
{
	memset(out, 0, sizeof(*out));
	/* Without the hypervisor bit, leaf 0x40000000 is not a hypervisor's
	 * (Intel CPUs answer it with their highest basic leaf). */
	if (!(cpuid(1).c & CPUID_01_ECX_HYPERVISOR))
		return;
	struct cpuid sig = cpuid(KVM_CPUID_SIGNATURE);
	memcpy(out->signature + 0, &sig.b, 4);
	memcpy(out->signature + 4, &sig.c, 4);
	memcpy(out->signature + 8, &sig.d, 4);
	out->signature[12] = '\0';
	out->max_leaf = sig.a;
	static const char kvm[] = "KVMKVMKVM\0\0\0"; /* 12 bytes, and the literal's NUL */
	out->kvm = !memcmp(out->signature, kvm, sizeof(kvm) - 1);
	if (!out->kvm)
		return;
	/* KVM's own leaves say 0 for "highest leaf" in old versions: the
	 * features leaf exists then too (cpuid.rst). */
	if (out->max_leaf && out->max_leaf < KVM_CPUID_FEATURES)
		return;
	out->features = cpuid(KVM_CPUID_FEATURES).a;
	if (out->features & KVM_FEATURE_CLOCKSOURCE2)
		out->msr = MSR_KVM_SYSTEM_TIME_NEW;
	else if (out->features & KVM_FEATURE_CLOCKSOURCE)
		out->msr = MSR_KVM_SYSTEM_TIME;
}

uint64_t pvclock_scale_delta(uint64_t delta, uint32_t mul, int8_t shift)
{
	if (shift < 0)
		delta >>= -shift;
	else
		delta <<= shift;
	return (uint64_t)(((unsigned __int128)delta * mul) >> 32);
}

uint64_t pvclock_read_ns(const volatile struct pvclock_vcpu_time_info *p, uint8_t *flags)
{
	uint32_t version;
	uint64_t ns;
	uint8_t f;
	do {
		version = p->version;
		barrier(); /* x86 keeps loads in order; the compiler must too */
		uint64_t tsc = rdtsc_ordered();
		uint64_t stamp = p->tsc_timestamp;
		uint64_t system_time = p->system_time;
		uint32_t mul = p->tsc_to_system_mul;
		int8_t shift = p->tsc_shift;
		f = p->flags;
		/* As Linux: the TSC is never behind the stamp KVM took on this
		 * vCPU before entering it, so the difference does not wrap. */
		ns = system_time + pvclock_scale_delta(tsc - stamp, mul, shift);
		barrier();
	} while ((version & 1) || version != p->version);
	if (flags)
		*flags = f;
	return ns;
}

uint32_t testdev_pause(uint32_t ms)
{
	static const char name[] = "pause";
	bool irq = irq_save(); /* the per-CPU message is shared with interrupt handlers */
	volatile struct testdev_msg *m = &this_cpu()->msg;
	m->op = TESTDEV_OP_PAUSE;
	m->status = TESTDEV_NO_VMM;
	m->value = ms;
	for (size_t i = 0; i < TESTDEV_NAME_MAX; i++)
		m->name[i] = i < sizeof(name) ? name[i] : '\0';
	outl(TESTDEV_MSG_PORT, (uint32_t)(uintptr_t)m);
	uint32_t status = m->status;
	irq_restore(irq);
	return status;
}
