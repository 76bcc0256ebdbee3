/* What every vCPU is told about itself: the vendor, the topology and the
 * caches. Built once from the config and the host's CPUID; read by the
 * CPUID writer and the FDT writer. */
#ifndef CPU_CPU_MODEL_H
#define CPU_CPU_MODEL_H

#include <stdbool.h>

#include "cache.h"
#include "topology.h"

enum cpu_vendor { CPU_VENDOR_INTEL, CPU_VENDOR_AMD };

struct cpu_model {
	enum cpu_vendor vendor;
	struct topology topo;
	struct cache_model caches;
	bool kvmclock; /* offer kvmclock's CPUID feature bits (as KVM supports them) */
	bool cross_vendor; /* the guest's vendor is not the host's (cpuid_kvm.c: why it matters) */
};

/* "GenuineIntel" / "AuthenticAMD" */
const char *cpu_vendor_string(enum cpu_vendor vendor);

#endif
