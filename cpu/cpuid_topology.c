/* CPUID topology leaves, per vCPU: 0x1 (APIC ID, logical count, HTT),
 * 0xB and 0x1F (x2APIC levels), and AMD's 0x80000001 (CmpLegacy, TopoExt),
 * 0x80000008 ECX (NC, ApicIdSize) and 0x8000001E (extended APIC ID, core,
 * node). Every field comes from the topology model. */
#include "cpuid.h"

/* CPUID.01H (SDM vol. 2A, Table 3-8 and 3-10/3-11). */
#define LEAF1_EBX_APIC_ID_SHIFT 24
#define LEAF1_EBX_LOGICAL_SHIFT 16
#define LEAF1_ECX_HYPERVISOR (1u << 31) /* reserved for hypervisor use */
#define LEAF1_EDX_HTT (1u << 28)

/* CPUID.0BH/1FH ECX[15:8] level types (SDM vol. 2A, CPUID 0BH). */
#define TOPO_LEVEL_INVALID 0
#define TOPO_LEVEL_SMT 1
#define TOPO_LEVEL_CORE 2

/* CPUID.80000001H:ECX (APM vol. 3, E.4.2). */
#define EXT1_ECX_CMP_LEGACY (1u << 1)
#define EXT1_ECX_TOPOEXT (1u << 22)

static void write_leaf1(struct kvm_cpuid2 *c, const struct topology *t, uint32_t apic_id)
{
	struct kvm_cpuid_entry2 *e = cpuid_find(c, 1, 0);
	if (!e)
		return;
	/* EBX[23:16]: addressable IDs for logical processors in the package;
	 * the APIC ID space one package spans, 1 << package_shift (max 255). */
	unsigned logical = 1u << topology_package_shift(t);
	if (logical > 255)
		logical = 255;
	e->ebx = (e->ebx & 0x0000ffffu) | ((apic_id & 0xffu) << LEAF1_EBX_APIC_ID_SHIFT) |
		 (logical << LEAF1_EBX_LOGICAL_SHIFT);
	e->ecx |= LEAF1_ECX_HYPERVISOR;
	if (logical > 1)
		e->edx |= LEAF1_EDX_HTT;
	else
		e->edx &= ~LEAF1_EDX_HTT;
}

/* Subleaf 0 is the SMT level, 1 the core level, 2 ends the list. EAX[4:0]
 * is the shift that removes this level's bits from the x2APIC ID; EBX the
 * logical processors at this level; EDX the x2APIC ID. */
static void write_extended_topology(struct kvm_cpuid2 *c, uint32_t leaf, const struct topology *t,
				    uint32_t apic_id)
{
	cpuid_remove(c, leaf);
	cpuid_set(c, leaf, 0, t->smt_bits, t->threads, 0 | (TOPO_LEVEL_SMT << 8), apic_id);
	cpuid_set(c, leaf, 1, topology_package_shift(t), t->threads * t->cores,
		  1 | (TOPO_LEVEL_CORE << 8), apic_id);
	cpuid_set(c, leaf, 2, 0, 0, 2 | (TOPO_LEVEL_INVALID << 8), apic_id);
}

static void write_amd_topology(struct kvm_cpuid2 *c, const struct topology *t, unsigned index,
			       uint32_t apic_id)
{
	struct cpu_position pos = topology_position(t, index);
	struct kvm_cpuid_entry2 *e = cpuid_find(c, 0x80000001, 0);
	if (e) {
		/* TopoExt: 0x8000001D/1E describe the topology (nothing in the CPU
		 * depends on it, so it is ours to set whatever KVM lists). */
		e->ecx |= EXT1_ECX_TOPOEXT;
		if (topology_cpus_per_socket(t) > 1)
			e->ecx |= EXT1_ECX_CMP_LEGACY;
		else
			e->ecx &= ~EXT1_ECX_CMP_LEGACY;
	}
	/* 0x80000008 ECX[7:0] NC: threads in the package - 1; [15:12]
	 * ApicIdSize: APIC ID bits that number them (APM vol. 3, E.4.7). */
	e = cpuid_find(c, 0x80000008, 0);
	if (e)
		e->ecx = (e->ecx & ~0xf0ffu) | ((topology_cpus_per_socket(t) - 1) & 0xff) |
			 ((topology_package_shift(t) & 0xf) << 12);
	/* 0x8000001E: EAX extended APIC ID; EBX[7:0] core ID, [15:8] threads
	 * per core - 1; ECX[7:0] node ID, [10:8] nodes per socket - 1: one
	 * node per socket (APM vol. 3, E.4.16). */
	cpuid_set(c, 0x8000001e, 0, apic_id, (pos.core & 0xff) | ((t->threads - 1) << 8),
		  pos.socket & 0xff, 0);
}

void cpuid_write_topology(struct kvm_cpuid2 *c, const struct cpu_model *model, unsigned index)
{
	const struct topology *t = &model->topo;
	uint32_t apic_id = topology_apic_id(t, index);
	write_leaf1(c, t, apic_id);
	write_extended_topology(c, 0xb, t, apic_id);
	write_extended_topology(c, 0x1f, t, apic_id);
	if (model->vendor == CPU_VENDOR_AMD) {
		write_amd_topology(c, t, index, apic_id);
	} else {
		/* Intel reserves these; left with AMD values they would mislead. */
		struct kvm_cpuid_entry2 *e = cpuid_find(c, 0x80000001, 0);
		if (e)
			e->ecx &= ~(EXT1_ECX_TOPOEXT | EXT1_ECX_CMP_LEGACY);
		e = cpuid_find(c, 0x80000008, 0);
		if (e)
			e->ecx = 0;
	}
}
