/* The machine model: what the guest will be told, decided once from the
 * config and the host's facts, before anything is created in KVM. */
#include "machine.h"

#include "../cpu/cpuid.h"

/* --l3-cache auto: off. The 2017 measurements behind QEMU's own default
 * (seed 000) found the L3 costs mostly idle, overcommitted VMs far more
 * IPIs and HLT exits (400K vs 200 IPI/s, 15% fewer VMs per host) than it
 * gains busy ones; "on" pays off with dedicated vCPUs, which vmm cannot
 * know yet. */
static bool l3_auto_choice(void)
{
	return false;
}

int machine_build(struct machine *m, const struct vm_config *cfg, struct kvm_cpuid2 *host,
		  char *err, size_t errlen)
{
	m->mem_size = cfg->mem_size;
	m->cpu.kvmclock = !cfg->kvmclock_off;
	if (topology_resolve(&cfg->smp, &m->cpu.topo, err, errlen) < 0)
		return -1;
	switch (cfg->vendor) {
	case VENDOR_INTEL:
		m->cpu.vendor = CPU_VENDOR_INTEL;
		break;
	case VENDOR_AMD:
		m->cpu.vendor = CPU_VENDOR_AMD;
		break;
	default:
		m->cpu.vendor = cpuid_vendor(host);
		break;
	}
	m->cpu.cross_vendor = m->cpu.vendor != cpuid_vendor(host);
	m->l3_auto = cfg->l3 == L3_AUTO;
	bool l3 = m->l3_auto ? l3_auto_choice() : cfg->l3 == L3_ON;
	cache_model_from_host(&m->cpu.caches, host);
	return cache_model_configure(&m->cpu.caches, &cfg->cache_sizes, l3, err, errlen);
}

/* CPUID.01H:EAX family and model, with the extended fields (SDM vol. 2A 3.2). */
static void family_model(struct kvm_cpuid2 *host, unsigned *family, unsigned *model)
{
	struct kvm_cpuid_entry2 *e = cpuid_find(host, 1, 0);
	uint32_t eax = e ? e->eax : 0;
	*family = (eax >> 8) & 0xf;
	*model = (eax >> 4) & 0xf;
	if (*family == 0xf) {
		*family += (eax >> 20) & 0xff;
		*model |= ((eax >> 16) & 0xf) << 4;
	}
}

const char *machine_l3_caveat(const struct machine *m, struct kvm_cpuid2 *host)
{
	const struct topology *t = &m->cpu.topo;
	if (m->cpu.caches.have_l3 || m->cpu.vendor != CPU_VENDOR_AMD)
		return NULL;
	unsigned family, model;
	family_model(host, &family, &model);
	/* Linux (cacheinfo_amd_init_llc_id) ignores the cache leaves here and
	 * groups CPUs by APIC ID bits 3 and up: cores (of any socket) share a
	 * group unless each core spans 8 IDs. Before 17h it groups by node, our
	 * socket: only cores of one socket share. */
	if (family == 0x17 && model <= 0x1f && t->sockets * t->cores > 1 && t->smt_bits < 3)
		return "l3-cache off: a Linux guest on AMD family 17h models 00h-1Fh takes APIC ID >> 3 "
		       "as its LLC, so up to 8 APIC IDs still share one (use --cpu-vendor intel)";
	if (family < 0x17 && t->cores > 1)
		return "l3-cache off: a Linux guest on AMD families before 17h takes the node as its LLC, "
		       "so the cores of a socket still share one (use --cpu-vendor intel)";
	return NULL;
}
