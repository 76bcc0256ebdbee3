/* The LLC id a CPU schedules by, from its own CPUID, as Linux 6.1 (llc.h). */
#include "llc.h"

#include <stdbool.h>

#include "apic.h"
#include "cpuid.h"
#include "processor.h"
#include "string.h"
#include "topo.h"

#define MAX_SUBLEAVES 16

static void intel(struct llc *o)
{
	bool l2 = false, l3 = false;
	uint32_t l2_id = 0, l3_id = 0, l2_sharing = 0, l3_sharing = 0;
	o->rule = "CPUID.04H, no L2 or L3 listed: each CPU its own";
	o->id = o->apic_id;
	if (cpuid(0).a < 4)
		return;
	for (uint32_t n = 0; n < MAX_SUBLEAVES; n++) {
		struct cpuid_cache c = cpuid_cache(cpuid_count(4, n));
		if (!c.type)
			break;
		/* apicid & ~((1 << order(sharing)) - 1), as an id: >> order */
		uint32_t id = o->apic_id >> topo_order(c.sharing);
		if (c.level == 2) {
			l2 = true;
			l2_id = id;
			l2_sharing = c.sharing;
		} else if (c.level == 3) {
			l3 = true;
			l3_id = id;
			l3_sharing = c.sharing;
		}
	}
	if (l3) {
		o->id = l3_id;
		o->level = 3;
		o->sharing = l3_sharing;
		o->rule = "CPUID.04H: the L3";
	} else if (l2) {
		o->id = l2_id;
		o->level = 2;
		o->sharing = l2_sharing;
		o->rule = "CPUID.04H: no L3, the L2";
	}
}

static void amd(struct llc *o)
{
	uint32_t max_ext = cpuid(0x80000000).a;
	/* amd_detect_cmp: the package id, also the LLC id until below. */
	uint32_t bits = 0;
	if (max_ext >= 0x80000008) {
		uint32_t ecx = cpuid(0x80000008).c;
		bits = (ecx >> 12) & 0xf;
		if (!bits)
			bits = topo_order((ecx & 0xff) + 1);
	}
	o->id = o->apic_id >> bits;
	o->rule = "AMD: the package (no TopoExt)";
	if (max_ext < 0x8000001e || !(cpuid(0x80000001).c & CPUID_80000001_ECX_TOPOEXT))
		return;
	if (!cpuid(0x80000006).d) {
		o->rule = "AMD: the package (CPUID.80000006H:EDX = 0, no L3)";
		return;
	}
	uint32_t eax = cpuid(1).a, base = (eax >> 8) & 0xf;
	uint32_t family = base + (base == 0xf ? (eax >> 20) & 0xff : 0);
	uint32_t model = ((eax >> 4) & 0xf) | (base == 0xf ? ((eax >> 16) & 0xf) << 4 : 0);
	if (family < 0x17) {
		o->id = cpuid(0x8000001e).c & 0xff;
		o->rule = "AMD family < 17h: the node (CPUID.8000001EH:ECX[7:0])";
		return;
	}
	if (family == 0x17 && model <= 0x1f) {
		o->id = o->apic_id >> 3;
		o->rule = "AMD family 17h model 00h-1Fh: APIC ID >> 3";
		return;
	}
	/* find_num_cache_leaves() - 1: the last 8000001DH subleaf. */
	struct cpuid_cache last = { 0 };
	for (uint32_t n = 0; n < MAX_SUBLEAVES; n++) {
		struct cpuid_cache c = cpuid_cache(cpuid_count(0x8000001d, n));
		if (!c.type)
			break;
		last = c;
	}
	if (!last.type)
		return;
	o->id = o->apic_id >> topo_order(last.sharing);
	o->level = last.level;
	o->sharing = last.sharing;
	o->rule = "CPUID.8000001DH: the last cache";
}

void llc_this_cpu(struct llc *o)
{
	char vendor[13];
	memset(o, 0, sizeof(*o));
	o->apic_id = apic_id();
	cpuid_vendor(cpuid(0), vendor);
	if (!strcmp(vendor, "GenuineIntel")) {
		intel(o);
	} else if (!strcmp(vendor, "AuthenticAMD") || !strcmp(vendor, "HygonGenuine")) {
		amd(o);
	} else {
		o->id = o->apic_id;
		o->rule = "unknown vendor: each CPU its own";
	}
}
