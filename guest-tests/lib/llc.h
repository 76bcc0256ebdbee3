/* The last-level cache (LLC) a CPU schedules by, derived from its own CPUID
 * as Linux 6.1 derives cpu_llc_id (arch/x86/kernel/cpu/cacheinfo.c,
 * amd.c): CPUs with the same id share the LLC (cpus_share_cache). Nothing
 * but CPUID decides it.
 *   GenuineIntel: leaf 04H; the L3's id (else the L2's) is
 *     APIC ID >> order(EAX[25:14] + 1) (init_intel_cacheinfo).
 *   AuthenticAMD / HygonGenuine: the package (APIC ID >> the core-ID width
 *     of 80000008H:ECX) unless TopoExt and an L3 in 80000006H:EDX; then
 *     family < 17h: the node (8000001EH:ECX[7:0]); family 17h models
 *     00h-1Fh: APIC ID >> 3; later: APIC ID >> order(sharing) of the last
 *     8000001DH cache (cacheinfo_amd_init_llc_id).
 *   Anything else: each CPU its own. */
#ifndef GUEST_LLC_H
#define GUEST_LLC_H

#include <stdint.h>

struct llc {
	uint32_t apic_id; /* this CPU's x2APIC ID */
	uint32_t id;      /* equal on CPUs sharing the LLC */
	uint32_t level;   /* the LLC's cache level, 0 if no cache leaf says */
	uint32_t sharing; /* CPUs sharing it by the cache leaf, 0 if not from one */
	const char *rule; /* which of the rules above decided */
};

/* Reads CPUID on the calling CPU. */
void llc_this_cpu(struct llc *out);

#endif
