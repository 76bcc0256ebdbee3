/* cpuid leaves: every vendor, topology and cache field cpuid_for_vcpu writes,
 * for both encodings, against values worked out by hand from the Intel SDM
 * vol. 2A (CPUID 00H, 01H, 02H, 04H, 0BH, 1FH, 80000000H-80000008H) and the
 * AMD APM vol. 3 appendix E (Fn0000_0001, Fn8000_0000/1/5/6/8/1D/1E).
 *
 * The host tables are host_tables.h's. Register layouts used below:
 *  01H EBX: [31:24] initial APIC ID, [23:16] addressable logical IDs per
 *      package = 1 << package_shift, [15:0] host's (CLFLUSH 8, brand 0 = 0x0800).
 *  04H / 8000001DH EAX: type | level << 5 | 1 << 8 (self-init) | sharing << 14
 *      [| cores << 26, leaf 4 only]; EBX (line-1) | (ways-1) << 22; ECX sets-1.
 *      Base EAX: L1d 0x121, L1i 0x122, L2 0x143, L3 0x163.
 *  0BH / 1FH: subleaf 0 {smt_bits, threads, 0x100, x2apic}, subleaf 1
 *      {package_shift, threads*cores, 0x201, x2apic}, subleaf 2 {0, 0, 2, x2apic}.
 *
 * Intel host caches: L1d 48K 12w: EBX 63 | 11<<22 = 0x02c0003f, ECX 63;
 *  L1i 32K 8w: 0x01c0003f, 63; L2 1M 8w: 0x01c0003f, 2047 = 0x7ff;
 *  L3 30M 15w: 63 | 14<<22 = 0x0380003f, 32767 = 0x7fff.
 * AMD host caches: L1d 32K 8w: 0x01c0003f, 63; L1i 64K 4w: 63 | 3<<22 =
 *  0x00c0003f, 255; L2 1M 8w: 0x01c0003f, 0x7ff; L3 32M 16w: 63 | 15<<22 =
 *  0x03c0003f, 0x7fff. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../cpu/cpuid.h"
#include "host_tables.h"
#include "suites.h"

#define IDX KVM_CPUID_FLAG_SIGNIFCANT_INDEX

/* Everything a test allocates, freed by the teardown. */
static void *allocated[64];
static unsigned nallocated;

static void *track(void *p)
{
	ck_assert_ptr_nonnull(p);
	ck_assert_uint_lt(nallocated, sizeof(allocated) / sizeof(allocated[0]));
	allocated[nallocated++] = p;
	return p;
}

static void teardown(void)
{
	while (nallocated)
		free(allocated[--nallocated]);
}

static struct kvm_cpuid2 *intel_host(void)
{
	return track(unit_intel_host());
}

static struct kvm_cpuid2 *amd_host(void)
{
	return track(unit_amd_host());
}

/* The model for sockets x cores x threads with `host`'s caches. */
static struct cpu_model model(struct kvm_cpuid2 *host, enum cpu_vendor vendor, unsigned sockets,
			      unsigned cores, unsigned threads, bool l3)
{
	struct cpu_model m;
	memset(&m, 0, sizeof(m));
	m.vendor = vendor;
	struct topology_request req = { sockets * cores * threads, sockets, cores, threads };
	char err[128] = "";
	ck_assert_msg(topology_resolve(&req, &m.topo, err, sizeof(err)) == 0, "%s", err);
	cache_model_from_host(&m.caches, host);
	struct cache_overrides none;
	memset(&none, 0, sizeof(none));
	ck_assert_msg(cache_model_configure(&m.caches, &none, l3, err, sizeof(err)) == 0, "%s", err);
	return m;
}

static struct kvm_cpuid2 *vcpu(struct kvm_cpuid2 *host, const struct cpu_model *m, unsigned index)
{
	return track(cpuid_for_vcpu(host, m, index));
}

/* How many entries answer (function, index). */
static unsigned count(struct kvm_cpuid2 *c, uint32_t function, uint32_t index)
{
	unsigned n = 0;
	for (uint32_t i = 0; i < c->nent; i++) {
		struct kvm_cpuid_entry2 *e = &c->entries[i];
		if (e->function == function && (!(e->flags & IDX) || e->index == index))
			n++;
	}
	return n;
}

/* The one entry for (function, index); fails if absent or duplicated. */
static struct kvm_cpuid_entry2 *get(struct kvm_cpuid2 *c, uint32_t function, uint32_t index,
				    int line)
{
	unsigned n = count(c, function, index);
	ck_assert_msg(n == 1, "line %d: %u entries for %#x.%u, expected 1", line, n, function,
		      index);
	return unit_cpuid_get(c, function, index);
}
#define GET(c, f, i) get((c), (f), (i), __LINE__)

static void leaf_eq(struct kvm_cpuid2 *c, uint32_t function, uint32_t index, uint32_t eax,
		    uint32_t ebx, uint32_t ecx, uint32_t edx, int line)
{
	struct kvm_cpuid_entry2 *e = get(c, function, index, line);
	ck_assert_msg(e->eax == eax && e->ebx == ebx && e->ecx == ecx && e->edx == edx,
		      "line %d: %#x.%u = %08x %08x %08x %08x, expected %08x %08x %08x %08x", line,
		      function, index, e->eax, e->ebx, e->ecx, e->edx, eax, ebx, ecx, edx);
}
#define LEAF(c, f, i, a, b, cc, d) leaf_eq((c), (f), (i), (a), (b), (cc), (d), __LINE__)

#define ABSENT(c, f, i)                                                                   \
	ck_assert_msg(unit_cpuid_get((c), (f), (i)) == NULL, "%#x.%u present", (unsigned)(f), \
		      (unsigned)(i))

/* No (function, index) answered by two entries anywhere in the table. */
static void assert_no_duplicates(struct kvm_cpuid2 *c)
{
	for (uint32_t i = 0; i < c->nent; i++) {
		struct kvm_cpuid_entry2 *e = &c->entries[i];
		ck_assert_msg(count(c, e->function, e->index) == 1, "%#x.%u answered twice",
			      e->function, e->index);
	}
}

/* 0BH and 1FH (identical, both vendors) for one vCPU. */
static void x2apic_leaves(struct kvm_cpuid2 *c, unsigned smt_bits, unsigned threads,
			  unsigned shift, unsigned per_socket, uint32_t x2apic, int line)
{
	static const uint32_t leaves[] = { 0xb, 0x1f };
	for (unsigned i = 0; i < 2; i++) {
		leaf_eq(c, leaves[i], 0, smt_bits, threads, 0x100, x2apic, line);
		leaf_eq(c, leaves[i], 1, shift, per_socket, 0x201, x2apic, line);
		leaf_eq(c, leaves[i], 2, 0, 0, 2, x2apic, line);
		/* The host's 0x1F had a die level and a subleaf 3: gone. */
		ck_assert_msg(unit_cpuid_get(c, leaves[i], 3) == NULL, "line %d: %#x.3 present",
			      line, leaves[i]);
	}
}
#define X2APIC(c, smt, thr, shift, per, id) x2apic_leaves((c), (smt), (thr), (shift), (per), (id), __LINE__)

/* ======================= Intel ======================= */

/* Leaf 4 for the Intel host's caches, with the given EAX per subleaf
 * (eax[3] == 0: no L3). */
static void intel_leaf4(struct kvm_cpuid2 *c, const uint32_t eax[4], int line)
{
	leaf_eq(c, 4, 0, eax[0], 0x02c0003f, 0x3f, 0, line);
	leaf_eq(c, 4, 1, eax[1], 0x01c0003f, 0x3f, 0, line);
	leaf_eq(c, 4, 2, eax[2], 0x01c0003f, 0x7ff, 0, line);
	unsigned end = 3;
	if (eax[3]) {
		leaf_eq(c, 4, 3, eax[3], 0x0380003f, 0x7fff, 0, line);
		end = 4;
	}
	/* Then type 0, and nothing after it. */
	leaf_eq(c, 4, end, 0, 0, 0, 0, line);
	ck_assert_msg(unit_cpuid_get(c, 4, end + 1) == NULL, "line %d: leaf 4.%u present", line,
		      end + 1);
	for (unsigned i = 0; i <= end; i++)
		ck_assert_msg(GET(c, 4, i)->flags & IDX, "line %d: leaf 4.%u not indexed", line, i);
}
#define INTEL_LEAF4(c, ...) intel_leaf4((c), (const uint32_t[4]){ __VA_ARGS__ }, __LINE__)

/* What every Intel table has whatever the topology. */
static void intel_common(struct kvm_cpuid2 *c, int line)
{
	struct kvm_cpuid_entry2 *e = get(c, 0, 0, line);
	/* Leaf 0: the host's max 0x20 is >= 0x1F; "GenuineIntel". */
	ck_assert_uint_ge(e->eax, 0x1f);
	ck_assert_msg(e->ebx == INTEL_EBX && e->edx == INTEL_EDX && e->ecx == INTEL_ECX,
		      "line %d: vendor %08x %08x %08x", line, e->ebx, e->edx, e->ecx);
	/* Leaf 2: AL = 1, descriptor FFh "use leaf 4", nothing else. */
	leaf_eq(c, 2, 0, 0x0000ff01, 0, 0, 0, line);
	/* 0x80000000: max extended leaf 0x80000008. */
	ck_assert_uint_eq(get(c, 0x80000000u, 0, line)->eax, 0x80000008u);
	/* 0x80000001 ECX: host 0x00400123 without TopoExt (bit 22) and
	 * CmpLegacy (bit 1) = 0x00000121; EDX the host's. */
	e = get(c, 0x80000001u, 0, line);
	ck_assert_uint_eq(e->ecx, 0x00000121);
	ck_assert_uint_eq(e->edx, INTEL_EXT1_EDX);
	/* 0x80000006 ECX: L2 1024 KiB << 16 = 0x04000000 | 6 << 12 | 64 =
	 * 0x04006040; EDX 0. */
	e = get(c, 0x80000006u, 0, line);
	ck_assert_uint_eq(e->ecx, 0x04006040);
	ck_assert_uint_eq(e->edx, 0);
	/* No AMD cache or topology leaves. */
	for (uint32_t i = 0; i < 8; i++)
		ck_assert_msg(unit_cpuid_get(c, 0x8000001du, i) == NULL, "line %d: 0x8000001D.%u",
			      line, i);
	ck_assert_msg(unit_cpuid_get(c, 0x8000001eu, 0) == NULL, "line %d: 0x8000001E", line);
	assert_no_duplicates(c);
}
#define INTEL_COMMON(c) intel_common((c), __LINE__)

/* Leaf 1 with the Intel host's EAX/ECX/EDX. */
static void intel_leaf1(struct kvm_cpuid2 *c, uint32_t ebx, bool htt, int line)
{
	leaf_eq(c, 1, 0, INTEL_LEAF1_EAX, ebx, INTEL_LEAF1_ECX | 0x80000000u,
		htt ? INTEL_LEAF1_EDX : INTEL_LEAF1_EDX & ~(1u << 28), line);
}
#define INTEL_LEAF1(c, ebx, htt) intel_leaf1((c), (ebx), (htt), __LINE__)

START_TEST(test_intel_1s1c1t)
{
	struct kvm_cpuid2 *h = intel_host();
	struct cpu_model m = model(h, CPU_VENDOR_INTEL, 1, 1, 1, true);
	struct kvm_cpuid2 *c = vcpu(h, &m, 0);
	INTEL_COMMON(c);
	/* APIC ID 0; 1 << 0 = 1 addressable ID -> EBX 0x00010800, HTT clear
	 * (host EDX 0xbfebfbff -> 0xafebfbff). */
	INTEL_LEAF1(c, 0x00010800, false);
	/* No sharing, no cores field: the base EAX values. */
	INTEL_LEAF4(c, 0x121, 0x122, 0x143, 0x163);
	/* smt 0, 1 thread; shift 0, 1 per socket; x2APIC 0. */
	X2APIC(c, 0, 1, 0, 1, 0);
}
END_TEST

START_TEST(test_intel_1s4c1t_l3_on)
{
	struct kvm_cpuid2 *h = intel_host();
	struct cpu_model m = model(h, CPU_VENDOR_INTEL, 1, 4, 1, true);
	struct kvm_cpuid2 *c = vcpu(h, &m, 3);
	INTEL_COMMON(c);
	/* 1s4c1t: core bits 2, shift 2. vCPU 3 = core 3 -> APIC 3;
	 * EBX (3 << 24) | (4 << 16) | 0x0800 = 0x03040800, HTT set. */
	INTEL_LEAF1(c, 0x03040800, true);
	/* EAX[31:26] (1 << 2) - 1 = 3 -> 0x0c000000; per-core sharing
	 * (1 << 0) - 1 = 0; L3 (1 << 2) - 1 = 3 -> 0xc000. */
	INTEL_LEAF4(c, 0x0c000121, 0x0c000122, 0x0c000143, 0x0c00c163);
	X2APIC(c, 0, 1, 2, 4, 3);
}
END_TEST

START_TEST(test_intel_1s4c1t_l3_off)
{
	struct kvm_cpuid2 *h = intel_host();
	struct cpu_model m = model(h, CPU_VENDOR_INTEL, 1, 4, 1, false);
	struct kvm_cpuid2 *c = vcpu(h, &m, 1);
	INTEL_COMMON(c);
	/* vCPU 1 -> APIC 1: EBX 0x01040800. */
	INTEL_LEAF1(c, 0x01040800, true);
	/* L1d, L1i, L2 as with the L3, then type 0 at subleaf 3. */
	INTEL_LEAF4(c, 0x0c000121, 0x0c000122, 0x0c000143, 0);
}
END_TEST

START_TEST(test_intel_2s2c2t)
{
	struct kvm_cpuid2 *h = intel_host();
	struct cpu_model m = model(h, CPU_VENDOR_INTEL, 2, 2, 2, true);
	/* vCPU 5 = socket 1, core 0, thread 1 -> APIC (1<<2)|(0<<1)|1 = 5;
	 * 1 << 2 = 4 IDs per package: EBX 0x05040800. */
	struct kvm_cpuid2 *c = vcpu(h, &m, 5);
	INTEL_COMMON(c);
	INTEL_LEAF1(c, 0x05040800, true);
	/* cores (1 << 1) - 1 = 1 -> 0x04000000; per core (1 << 1) - 1 = 1 ->
	 * 0x4000; L3 (1 << 2) - 1 = 3 -> 0xc000. */
	INTEL_LEAF4(c, 0x04004121, 0x04004122, 0x04004143, 0x0400c163);
	/* smt 1, 2 threads; shift 2, 4 per socket; x2APIC 5. */
	X2APIC(c, 1, 2, 2, 4, 5);
	/* vCPU 6 = socket 1, core 1, thread 0 -> APIC 4|2|0 = 6. */
	c = vcpu(h, &m, 6);
	INTEL_LEAF1(c, 0x06040800, true);
	X2APIC(c, 1, 2, 2, 4, 6);
}
END_TEST

START_TEST(test_intel_1s3c1t)
{
	struct kvm_cpuid2 *h = intel_host();
	struct cpu_model m = model(h, CPU_VENDOR_INTEL, 1, 3, 1, true);
	struct kvm_cpuid2 *c = vcpu(h, &m, 2);
	INTEL_COMMON(c);
	/* Core bits ceil(log2 3) = 2, shift 2: 4 IDs; vCPU 2 -> APIC 2:
	 * EBX 0x02040800. */
	INTEL_LEAF1(c, 0x02040800, true);
	/* Addressable IDs, rounded up to the field: cores (1 << 2) - 1 = 3 ->
	 * 0x0c000000; L3 (1 << 2) - 1 = 3 -> 0xc000, though only 3 CPUs share. */
	INTEL_LEAF4(c, 0x0c000121, 0x0c000122, 0x0c000143, 0x0c00c163);
	/* Level 1: shift 2, 3 logical processors (the real count, SDM 0BH EBX). */
	X2APIC(c, 0, 1, 2, 3, 2);
}
END_TEST

START_TEST(test_intel_1s2c2t)
{
	struct kvm_cpuid2 *h = intel_host();
	struct cpu_model m = model(h, CPU_VENDOR_INTEL, 1, 2, 2, true);
	/* vCPU 3 = core 1, thread 1 -> APIC (1<<1)|1 = 3: EBX 0x03040800. */
	struct kvm_cpuid2 *c = vcpu(h, &m, 3);
	INTEL_COMMON(c);
	INTEL_LEAF1(c, 0x03040800, true);
	/* As 2s2c2t per socket. */
	INTEL_LEAF4(c, 0x04004121, 0x04004122, 0x04004143, 0x0400c163);
	X2APIC(c, 1, 2, 2, 4, 3);
}
END_TEST

START_TEST(test_intel_2s2c1t)
{
	struct kvm_cpuid2 *h = intel_host();
	struct cpu_model m = model(h, CPU_VENDOR_INTEL, 2, 2, 1, true);
	/* Core bits 1, shift 1: 2 IDs. vCPU 3 = socket 1, core 1 -> APIC
	 * (1<<1)|1 = 3: EBX (3 << 24) | (2 << 16) | 0x0800 = 0x03020800. */
	struct kvm_cpuid2 *c = vcpu(h, &m, 3);
	INTEL_COMMON(c);
	INTEL_LEAF1(c, 0x03020800, true);
	/* cores (1 << 1) - 1 = 1 -> 0x04000000; per core 0; L3 (1 << 1) - 1 =
	 * 1 -> 0x4000. */
	INTEL_LEAF4(c, 0x04000121, 0x04000122, 0x04000143, 0x04004163);
	X2APIC(c, 0, 1, 1, 2, 3);
}
END_TEST

START_TEST(test_intel_2s3c2t)
{
	struct kvm_cpuid2 *h = intel_host();
	struct cpu_model m = model(h, CPU_VENDOR_INTEL, 2, 3, 2, true);
	/* smt 1, core ceil(log2 3) = 2, shift 3: 8 IDs. vCPU 11 = socket 1,
	 * core 2, thread 1 -> APIC (1<<3)|(2<<1)|1 = 13: EBX 0x0d080800. */
	struct kvm_cpuid2 *c = vcpu(h, &m, 11);
	INTEL_COMMON(c);
	INTEL_LEAF1(c, 0x0d080800, true);
	/* cores (1 << 2) - 1 = 3 -> 0x0c000000; per core (1 << 1) - 1 = 1 ->
	 * 0x4000; L3 (1 << 3) - 1 = 7 -> 0x1c000. */
	INTEL_LEAF4(c, 0x0c004121, 0x0c004122, 0x0c004143, 0x0c01c163);
	X2APIC(c, 1, 2, 3, 6, 13);
}
END_TEST

START_TEST(test_intel_1s2c3t)
{
	struct kvm_cpuid2 *h = intel_host();
	struct cpu_model m = model(h, CPU_VENDOR_INTEL, 1, 2, 3, true);
	/* smt ceil(log2 3) = 2, core 1, shift 3. vCPU 5 = core 1, thread 2 ->
	 * APIC (1<<2)|2 = 6: EBX 0x06080800. */
	struct kvm_cpuid2 *c = vcpu(h, &m, 5);
	INTEL_COMMON(c);
	INTEL_LEAF1(c, 0x06080800, true);
	/* cores (1 << 1) - 1 = 1 -> 0x04000000; per core (1 << 2) - 1 = 3 ->
	 * 0xc000; L3 (1 << 3) - 1 = 7 -> 0x1c000. */
	INTEL_LEAF4(c, 0x0400c121, 0x0400c122, 0x0400c143, 0x0401c163);
	X2APIC(c, 2, 3, 3, 6, 6);
}
END_TEST

START_TEST(test_intel_on_amd_host)
{
	/* --cpu-vendor intel on the AMD host: the Intel encoding of the AMD
	 * host's caches, and none of AMD's leaves. */
	struct kvm_cpuid2 *h = amd_host();
	struct cpu_model m = model(h, CPU_VENDOR_INTEL, 1, 4, 1, true);
	struct kvm_cpuid2 *c = vcpu(h, &m, 2);
	/* Leaf 0: the host's max 0x10 raised to 0x1F; "GenuineIntel". */
	LEAF(c, 0, 0, 0x1f, INTEL_EBX, INTEL_ECX, INTEL_EDX);
	/* 0x80000000 EAX 0x80000008 (the host said 0x80000023). */
	ck_assert_uint_eq(GET(c, 0x80000000u, 0)->eax, 0x80000008u);
	/* The AMD-only leaves 0x8000001D/1E are gone (the rest above 0x80000008:
	 * test_intel_on_amd_host_nothing_above). */
	for (uint32_t i = 0; i < 8; i++)
		ABSENT(c, 0x8000001du, i);
	ABSENT(c, 0x8000001eu, 0);
	/* 0x80000001 ECX: host 0x00000123 without CmpLegacy = 0x00000121. */
	ck_assert_uint_eq(GET(c, 0x80000001u, 0)->ecx, 0x00000121);
	/* Leaf 4 from the AMD host's caches; 1s4c1t: cores 3 << 26, L3 3 << 14.
	 * L1d 32K 8w: 0x01c0003f/63; L1i 64K 4w: 0x00c0003f/255; L2 1M 8w;
	 * L3 32M 16w: 0x03c0003f/0x7fff. */
	LEAF(c, 4, 0, 0x0c000121, 0x01c0003f, 0x3f, 0);
	LEAF(c, 4, 1, 0x0c000122, 0x00c0003f, 0xff, 0);
	LEAF(c, 4, 2, 0x0c000143, 0x01c0003f, 0x7ff, 0);
	LEAF(c, 4, 3, 0x0c00c163, 0x03c0003f, 0x7fff, 0);
	LEAF(c, 4, 4, 0, 0, 0, 0);
	LEAF(c, 2, 0, 0x0000ff01, 0, 0, 0);
	/* 0x80000006 ECX 1024 KiB << 16 | 6 << 12 | 64 = 0x04006040, EDX 0. */
	struct kvm_cpuid_entry2 *e = GET(c, 0x80000006u, 0);
	ck_assert_uint_eq(e->ecx, 0x04006040);
	ck_assert_uint_eq(e->edx, 0);
	X2APIC(c, 0, 1, 2, 4, 2);
	assert_no_duplicates(c);
}
END_TEST

START_TEST(test_intel_on_amd_host_nothing_above)
{
	/* 0x80000000 EAX = 0x80000008 "with nothing above": none of the AMD
	 * host's 0x8000001D, 0x8000001E, 0x80000021, 0x80000022 may remain (KVM
	 * answers from an entry it has even above the stated maximum). */
	struct kvm_cpuid2 *h = amd_host();
	struct cpu_model m = model(h, CPU_VENDOR_INTEL, 1, 4, 1, true);
	struct kvm_cpuid2 *c = vcpu(h, &m, 0);
	for (uint32_t f = 0x80000009u; f <= 0x800000ffu; f++)
		for (uint32_t i = 0; i < 8; i++)
			ck_assert_msg(unit_cpuid_get(c, f, i) == NULL, "%#x.%u present above 0x80000008",
				      f, i);
}
END_TEST

/* ======================= AMD ======================= */

/* 0x8000001D for the AMD host's caches, with the given EAX per subleaf
 * (eax[3] == 0: no L3). */
static void amd_8000001d(struct kvm_cpuid2 *c, const uint32_t eax[4], int line)
{
	struct kvm_cpuid_entry2 *e;
	static const uint32_t ebx[4] = { 0x01c0003f, 0x00c0003f, 0x01c0003f, 0x03c0003f };
	static const uint32_t ecx[4] = { 0x3f, 0xff, 0x7ff, 0x7fff };
	unsigned end = eax[3] ? 4 : 3;
	for (unsigned i = 0; i < end; i++) {
		e = get(c, 0x8000001du, i, line);
		ck_assert_msg(e->eax == eax[i] && e->ebx == ebx[i] && e->ecx == ecx[i],
			      "line %d: 0x8000001D.%u = %08x %08x %08x, expected %08x %08x %08x", line,
			      i, e->eax, e->ebx, e->ecx, eax[i], ebx[i], ecx[i]);
		ck_assert_msg(e->flags & IDX, "line %d: 0x8000001D.%u not indexed", line, i);
	}
	leaf_eq(c, 0x8000001du, end, 0, 0, 0, 0, line);
	ck_assert_msg(unit_cpuid_get(c, 0x8000001du, end + 1) == NULL,
		      "line %d: 0x8000001D.%u present", line, end + 1);
}
#define AMD_1D(c, ...) amd_8000001d((c), (const uint32_t[4]){ __VA_ARGS__ }, __LINE__)

/* What every AMD table (on the AMD host) has whatever the topology. */
static void amd_common(struct kvm_cpuid2 *c, bool l3, int line)
{
	struct kvm_cpuid_entry2 *e = get(c, 0, 0, line);
	/* Leaf 0: max >= 0x1F (the host's 0x10 is raised), "AuthenticAMD". */
	ck_assert_uint_ge(e->eax, 0x1f);
	ck_assert_msg(e->ebx == AMD_EBX && e->edx == AMD_EDX && e->ecx == AMD_ECX,
		      "line %d: vendor %08x %08x %08x", line, e->ebx, e->edx, e->ecx);
	/* 0x80000000: max >= 0x8000001E and the vendor again. */
	e = get(c, 0x80000000u, 0, line);
	ck_assert_uint_ge(e->eax, 0x8000001eu);
	ck_assert_msg(e->ebx == AMD_EBX && e->edx == AMD_EDX && e->ecx == AMD_ECX,
		      "line %d: ext vendor %08x %08x %08x", line, e->ebx, e->edx, e->ecx);
	/* 0x80000005: EAX/EBX the host's TLBs; ECX L1d 32 KiB << 24 | 8 ways
	 * << 16 | 1 << 8 | 64 = 0x20080140; EDX L1i 64 << 24 | 4 << 16 | 1 << 8
	 * | 64 = 0x40040140. */
	leaf_eq(c, 0x80000005u, 0, AMD_EXT5_EAX, AMD_EXT5_EBX, 0x20080140, 0x40040140, line);
	/* 0x80000006 ECX: L2 1024 KiB << 16 = 0x04000000 | code(8 ways) 6 << 12
	 * | 1 << 8 | 64 = 0x04006140. EDX with the L3: 32 MiB / 512 KiB = 64 ->
	 * 64 << 18 = 0x01000000 | code(16 ways) 8 << 12 | 1 << 8 | 64 =
	 * 0x01008140; without: the line size alone, 0x40. */
	leaf_eq(c, 0x80000006u, 0, AMD_EXT6_EAX, AMD_EXT6_EBX, 0x04006140, l3 ? 0x01008140 : 0x40,
		line);
	/* No leaf 4 on AMD. */
	for (uint32_t i = 0; i < 8; i++)
		ck_assert_msg(unit_cpuid_get(c, 4, i) == NULL, "line %d: leaf 4.%u present", line, i);
	/* 0x8000001E and 0x8000001D are plain and indexed respectively. */
	ck_assert_msg(!(get(c, 0x8000001eu, 0, line)->flags & IDX), "line %d: 1E indexed", line);
	assert_no_duplicates(c);
}
#define AMD_COMMON(c, l3) amd_common((c), (l3), __LINE__)

/* 0x80000001 ECX/EDX, 0x80000008 ECX (EAX kept), 0x8000001E for one vCPU. */
static void amd_topo(struct kvm_cpuid2 *c, uint32_t ext1_ecx, uint32_t ext8_ecx, uint32_t e_eax,
		     uint32_t e_ebx, uint32_t e_ecx, int line)
{
	struct kvm_cpuid_entry2 *e = get(c, 0x80000001u, 0, line);
	ck_assert_msg(e->ecx == ext1_ecx && e->edx == AMD_EXT1_EDX,
		      "line %d: 0x80000001 ECX %08x EDX %08x, expected %08x %08x", line, e->ecx,
		      e->edx, ext1_ecx, AMD_EXT1_EDX);
	e = get(c, 0x80000008u, 0, line);
	ck_assert_msg(e->ecx == ext8_ecx && e->eax == AMD_EXT8_EAX,
		      "line %d: 0x80000008 EAX %08x ECX %08x, expected %08x %08x", line, e->eax,
		      e->ecx, AMD_EXT8_EAX, ext8_ecx);
	e = get(c, 0x8000001eu, 0, line);
	ck_assert_msg(e->eax == e_eax && e->ebx == e_ebx && e->ecx == e_ecx,
		      "line %d: 0x8000001E = %08x %08x %08x, expected %08x %08x %08x", line, e->eax,
		      e->ebx, e->ecx, e_eax, e_ebx, e_ecx);
}
#define AMD_TOPO(c, e1, e8, a, b, cc) amd_topo((c), (e1), (e8), (a), (b), (cc), __LINE__)

/* Leaf 1 on AMD: the APIC ID in EBX[31:24], HTT iff more than one thread
 * per socket (APM E.3.2), hypervisor bit; EAX the host's. */
static void amd_leaf1(struct kvm_cpuid2 *c, uint32_t apic, bool htt, int line)
{
	struct kvm_cpuid_entry2 *e = get(c, 1, 0, line);
	ck_assert_msg(e->ebx >> 24 == apic, "line %d: APIC ID %u, expected %u", line, e->ebx >> 24,
		      apic);
	ck_assert_uint_eq(e->eax, AMD_LEAF1_EAX);
	ck_assert_uint_eq(e->ecx, AMD_LEAF1_ECX | 0x80000000u);
	ck_assert_uint_eq(e->edx, htt ? AMD_LEAF1_EDX : AMD_LEAF1_EDX & ~(1u << 28));
}
#define AMD_LEAF1(c, apic, htt) amd_leaf1((c), (apic), (htt), __LINE__)

/* 0x80000001 ECX: host 0x00000123 | TopoExt (1 << 22) = 0x00400123;
 * CmpLegacy (bit 1) cleared for one thread per socket -> 0x00400121.
 * 0x80000008 ECX: host 0x00037a0f keeps 0x00030a00 outside [15:12] and [7:0]. */
#define EXT1_MULTI 0x00400123u
#define EXT1_SINGLE 0x00400121u

START_TEST(test_amd_1s1c1t)
{
	struct kvm_cpuid2 *h = amd_host();
	struct cpu_model m = model(h, CPU_VENDOR_AMD, 1, 1, 1, true);
	struct kvm_cpuid2 *c = vcpu(h, &m, 0);
	AMD_COMMON(c, true);
	AMD_LEAF1(c, 0, false);
	/* Everything shared by 1 CPU: sharing - 1 = 0. */
	AMD_1D(c, 0x121, 0x122, 0x143, 0x163);
	/* NC 0, ApicIdSize 0 -> 0x00030a00; 1E: APIC 0, core 0, threads-1 0,
	 * node 0. */
	AMD_TOPO(c, EXT1_SINGLE, 0x00030a00, 0, 0, 0);
	X2APIC(c, 0, 1, 0, 1, 0);
}
END_TEST

START_TEST(test_amd_1s4c1t_l3_on)
{
	struct kvm_cpuid2 *h = amd_host();
	struct cpu_model m = model(h, CPU_VENDOR_AMD, 1, 4, 1, true);
	struct kvm_cpuid2 *c = vcpu(h, &m, 3);
	AMD_COMMON(c, true);
	AMD_LEAF1(c, 3, true);
	/* Per core: 1 thread -> 0. L3: 4 CPUs -> 3 << 14 = 0xc000. */
	AMD_1D(c, 0x121, 0x122, 0x143, 0xc163);
	/* NC 4 - 1 = 3, ApicIdSize 2 -> 0x00032a03; 1E: APIC 3, core 3,
	 * 1 thread -> EBX 3, node 0. */
	AMD_TOPO(c, EXT1_MULTI, 0x00032a03, 3, 3, 0);
	X2APIC(c, 0, 1, 2, 4, 3);
}
END_TEST

START_TEST(test_amd_1s4c1t_l3_off)
{
	struct kvm_cpuid2 *h = amd_host();
	struct cpu_model m = model(h, CPU_VENDOR_AMD, 1, 4, 1, false);
	struct kvm_cpuid2 *c = vcpu(h, &m, 2);
	/* 0x80000006 EDX = 0x40 (checked in AMD_COMMON). */
	AMD_COMMON(c, false);
	/* L1d, L1i, L2, then type 0 at subleaf 3. */
	AMD_1D(c, 0x121, 0x122, 0x143, 0);
	AMD_TOPO(c, EXT1_MULTI, 0x00032a03, 2, 2, 0);
}
END_TEST

START_TEST(test_amd_2s2c2t)
{
	struct kvm_cpuid2 *h = amd_host();
	struct cpu_model m = model(h, CPU_VENDOR_AMD, 2, 2, 2, true);
	/* vCPU 5 = socket 1, core 0, thread 1 -> APIC 5. */
	struct kvm_cpuid2 *c = vcpu(h, &m, 5);
	AMD_COMMON(c, true);
	AMD_LEAF1(c, 5, true);
	/* Per core: 2 threads -> 1 << 14 = 0x4000; L3: 4 -> 3 << 14 = 0xc000. */
	AMD_1D(c, 0x4121, 0x4122, 0x4143, 0xc163);
	/* NC 3, ApicIdSize 2; 1E: EAX 5, EBX core 0 | (2-1) << 8 = 0x100, node 1. */
	AMD_TOPO(c, EXT1_MULTI, 0x00032a03, 5, 0x100, 1);
	X2APIC(c, 1, 2, 2, 4, 5);
	/* vCPU 6 = socket 1, core 1, thread 0 -> APIC 6; EBX 1 | 0x100. */
	c = vcpu(h, &m, 6);
	AMD_TOPO(c, EXT1_MULTI, 0x00032a03, 6, 0x101, 1);
	/* vCPU 1 = socket 0, core 0, thread 1 -> APIC 1, EBX 0x100, node 0. */
	c = vcpu(h, &m, 1);
	AMD_TOPO(c, EXT1_MULTI, 0x00032a03, 1, 0x100, 0);
}
END_TEST

START_TEST(test_amd_1s3c1t)
{
	struct kvm_cpuid2 *h = amd_host();
	struct cpu_model m = model(h, CPU_VENDOR_AMD, 1, 3, 1, true);
	struct kvm_cpuid2 *c = vcpu(h, &m, 2);
	AMD_COMMON(c, true);
	AMD_LEAF1(c, 2, true);
	/* The L3 is shared by exactly 3 CPUs: 3 - 1 = 2 -> 0x8000 (not the 4
	 * APIC IDs the package spans). */
	AMD_1D(c, 0x121, 0x122, 0x143, 0x8163);
	/* NC 3 - 1 = 2, ApicIdSize ceil(log2 3) = 2 -> 0x00032a02; 1E: APIC 2,
	 * core 2, node 0. */
	AMD_TOPO(c, EXT1_MULTI, 0x00032a02, 2, 2, 0);
	X2APIC(c, 0, 1, 2, 3, 2);
}
END_TEST

START_TEST(test_amd_1s2c2t)
{
	struct kvm_cpuid2 *h = amd_host();
	struct cpu_model m = model(h, CPU_VENDOR_AMD, 1, 2, 2, true);
	/* vCPU 3 = core 1, thread 1 -> APIC 3. */
	struct kvm_cpuid2 *c = vcpu(h, &m, 3);
	AMD_COMMON(c, true);
	AMD_LEAF1(c, 3, true);
	AMD_1D(c, 0x4121, 0x4122, 0x4143, 0xc163);
	/* 1E: EBX core 1 | 1 << 8 = 0x101. */
	AMD_TOPO(c, EXT1_MULTI, 0x00032a03, 3, 0x101, 0);
	X2APIC(c, 1, 2, 2, 4, 3);
}
END_TEST

START_TEST(test_amd_2s2c1t)
{
	struct kvm_cpuid2 *h = amd_host();
	struct cpu_model m = model(h, CPU_VENDOR_AMD, 2, 2, 1, true);
	/* vCPU 3 = socket 1, core 1 -> APIC (1<<1)|1 = 3. */
	struct kvm_cpuid2 *c = vcpu(h, &m, 3);
	AMD_COMMON(c, true);
	AMD_LEAF1(c, 3, true);
	/* Per core 0; L3: 2 CPUs -> 1 << 14 = 0x4000. */
	AMD_1D(c, 0x121, 0x122, 0x143, 0x4163);
	/* NC 1, ApicIdSize 1 -> 0x00031a01; 1E: APIC 3, core 1, node 1. */
	AMD_TOPO(c, EXT1_MULTI, 0x00031a01, 3, 1, 1);
	X2APIC(c, 0, 1, 1, 2, 3);
}
END_TEST

START_TEST(test_amd_2s3c1t)
{
	struct kvm_cpuid2 *h = amd_host();
	struct cpu_model m = model(h, CPU_VENDOR_AMD, 2, 3, 1, false);
	/* vCPU 3 = socket 1, core 0 -> APIC 1 << 2 = 4. */
	struct kvm_cpuid2 *c = vcpu(h, &m, 3);
	AMD_COMMON(c, false);
	AMD_LEAF1(c, 4, true);
	AMD_1D(c, 0x121, 0x122, 0x143, 0);
	/* NC 2, ApicIdSize 2 -> 0x00032a02; 1E: APIC 4, core 0, node 1. */
	AMD_TOPO(c, EXT1_MULTI, 0x00032a02, 4, 0, 1);
	X2APIC(c, 0, 1, 2, 3, 4);
}
END_TEST

START_TEST(test_amd_2s3c2t)
{
	struct kvm_cpuid2 *h = amd_host();
	struct cpu_model m = model(h, CPU_VENDOR_AMD, 2, 3, 2, true);
	/* vCPU 11 = socket 1, core 2, thread 1 -> APIC 8|4|1 = 13. */
	struct kvm_cpuid2 *c = vcpu(h, &m, 11);
	AMD_COMMON(c, true);
	AMD_LEAF1(c, 13, true);
	/* Per core 2 -> 0x4000; L3 6 CPUs -> 5 << 14 = 0x14000 (not the 8 IDs). */
	AMD_1D(c, 0x4121, 0x4122, 0x4143, 0x14163);
	/* NC 5, ApicIdSize 3 -> 0x00033a05; 1E: EBX 2 | 1 << 8 = 0x102, node 1. */
	AMD_TOPO(c, EXT1_MULTI, 0x00033a05, 13, 0x102, 1);
	X2APIC(c, 1, 2, 3, 6, 13);
}
END_TEST

START_TEST(test_amd_1s2c3t)
{
	struct kvm_cpuid2 *h = amd_host();
	struct cpu_model m = model(h, CPU_VENDOR_AMD, 1, 2, 3, true);
	/* vCPU 5 = core 1, thread 2 -> APIC (1<<2)|2 = 6. */
	struct kvm_cpuid2 *c = vcpu(h, &m, 5);
	AMD_COMMON(c, true);
	AMD_LEAF1(c, 6, true);
	/* Per core 3 threads -> 2 << 14 = 0x8000; L3 6 -> 0x14000. */
	AMD_1D(c, 0x8121, 0x8122, 0x8143, 0x14163);
	/* NC 5, ApicIdSize 3; 1E: EBX core 1 | (3-1) << 8 = 0x201. */
	AMD_TOPO(c, EXT1_MULTI, 0x00033a05, 6, 0x201, 0);
	X2APIC(c, 2, 3, 3, 6, 6);
}
END_TEST

START_TEST(test_amd_on_intel_host)
{
	/* --cpu-vendor amd on the Intel host: the AMD encoding of the Intel
	 * host's caches (48K 12w, 32K 8w, 1M 8w, 30M 15w). */
	struct kvm_cpuid2 *h = intel_host();
	struct cpu_model m = model(h, CPU_VENDOR_AMD, 2, 2, 2, true);
	struct kvm_cpuid2 *c = vcpu(h, &m, 7);
	/* Leaf 0 "AuthenticAMD", max 0x20 kept (>= 0x1F). */
	LEAF(c, 0, 0, 0x20, AMD_EBX, AMD_ECX, AMD_EDX);
	/* 0x80000000: the host's 0x80000008 raised to >= 0x8000001E, vendor. */
	struct kvm_cpuid_entry2 *e = GET(c, 0x80000000u, 0);
	ck_assert_uint_ge(e->eax, 0x8000001eu);
	ck_assert_msg(e->ebx == AMD_EBX && e->edx == AMD_EDX && e->ecx == AMD_ECX, "ext vendor");
	/* 0x80000005: EAX/EBX the host's (0); ECX 48 << 24 | 12 << 16 | 1 << 8
	 * | 64 = 0x300c0140; EDX 32 << 24 | 8 << 16 | 0x140 = 0x20080140. */
	LEAF(c, 0x80000005u, 0, 0, 0, 0x300c0140, 0x20080140);
	/* 0x80000006: ECX 1024 << 16 | 6 << 12 | 0x140 = 0x04006140; EDX 30 MiB
	 * = 60 units -> 60 << 18 = 0x00f00000, 15 ways has no code -> 9 << 12,
	 * | 0x140 = 0x00f09140. */
	e = GET(c, 0x80000006u, 0);
	ck_assert_uint_eq(e->ecx, 0x04006140);
	ck_assert_uint_eq(e->edx, 0x00f09140);
	/* 0x8000001D: per core 2 threads -> 0x4000; L3 4 -> 0xc000. EBX/ECX
	 * from the Intel host's caches. */
	static const uint32_t d_eax[] = { 0x4121, 0x4122, 0x4143, 0xc163 };
	static const uint32_t d_ebx[] = { 0x02c0003f, 0x01c0003f, 0x01c0003f, 0x0380003f };
	static const uint32_t d_ecx[] = { 0x3f, 0x3f, 0x7ff, 0x7fff };
	for (uint32_t i = 0; i < 4; i++) {
		e = GET(c, 0x8000001du, i);
		ck_assert_msg(e->eax == d_eax[i] && e->ebx == d_ebx[i] && e->ecx == d_ecx[i],
			      "0x8000001D.%u = %08x %08x %08x", i, e->eax, e->ebx, e->ecx);
	}
	LEAF(c, 0x8000001du, 4, 0, 0, 0, 0);
	/* No leaf 4 (the host had five subleaves), no leaf-2 descriptors
	 * pointing at it. */
	for (uint32_t i = 0; i < 8; i++)
		ABSENT(c, 4, i);
	/* 0x80000001 ECX: host 0x00400123 keeps TopoExt and CmpLegacy (8
	 * threads, 4 per socket). */
	ck_assert_uint_eq(GET(c, 0x80000001u, 0)->ecx, 0x00400123);
	/* 0x80000008 ECX: host 0 -> NC 3 | ApicIdSize 2 << 12 = 0x2003. */
	ck_assert_uint_eq(GET(c, 0x80000008u, 0)->ecx, 0x00002003);
	/* vCPU 7 = socket 1, core 1, thread 1 -> APIC 7; 1E EBX 1 | 1 << 8. */
	LEAF(c, 0x8000001eu, 0, 7, 0x101, 1, 0);
	X2APIC(c, 1, 2, 2, 4, 7);
	assert_no_duplicates(c);
}
END_TEST

/* ---- the APM Table E-4 associativity codes ---- */

START_TEST(test_amd_assoc_codes)
{
	/* L2 of w ways x 64 B x 16 sets = w KiB, L3 of w ways x 64 B x 8192
	 * sets = w x 512 KiB (w units): ECX = w << 16 | code << 12 | 1 << 8 |
	 * 64, EDX = w << 18 | code << 12 | 1 << 8 | 64. Codes: 1->1, 2->2,
	 * 3->3 (defined as 3 ways in current APM revisions; older ones reserved
	 * it), 4->4, 6->5, 8->6, 16->8, 32->0xA, 48->0xB, 64->0xC, 96->0xD,
	 * 128->0xE, any other count -> 9 ("see 0x8000001D"). */
	static const struct { uint32_t ways, code; } t[] = {
		{ 1, 0x1 },  { 2, 0x2 },   { 3, 0x3 },   { 4, 0x4 },   { 5, 0x9 },
		{ 6, 0x5 },  { 7, 0x9 },   { 8, 0x6 },   { 12, 0x9 },  { 16, 0x8 },
		{ 20, 0x9 }, { 24, 0x9 },  { 32, 0xa },  { 48, 0xb },  { 64, 0xc },
		{ 96, 0xd }, { 128, 0xe }, { 256, 0x9 },
	};
	struct kvm_cpuid2 *h = amd_host();
	/* Every mismatch, not only the first. */
	char bad[512] = "";
	size_t used = 0;
	for (unsigned i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		struct cpu_model m = model(h, CPU_VENDOR_AMD, 1, 1, 1, true);
		uint32_t w = t[i].ways;
		m.caches.cache[CACHE_L2].ways = w;
		m.caches.cache[CACHE_L2].size = w * 64 * 16;
		m.caches.cache[CACHE_L3].ways = w;
		m.caches.cache[CACHE_L3].size = w * 64 * 8192;
		struct kvm_cpuid2 *c = cpuid_for_vcpu(h, &m, 0);
		ck_assert_ptr_nonnull(c);
		struct kvm_cpuid_entry2 *e = unit_cpuid_get(c, 0x80000006u, 0);
		ck_assert_ptr_nonnull(e);
		uint32_t ecx = w << 16 | t[i].code << 12 | 0x100 | 64;
		uint32_t edx = w << 18 | t[i].code << 12 | 0x100 | 64;
		uint32_t got_ecx = e->ecx, got_edx = e->edx;
		free(c);
		if ((got_ecx != ecx || got_edx != edx) && used < sizeof(bad))
			used += (size_t)snprintf(bad + used, sizeof(bad) - used,
						 " [%u ways: ECX %08x EDX %08x, expected %08x %08x]",
						 w, got_ecx, got_edx, ecx, edx);
	}
	ck_assert_msg(bad[0] == '\0', "associativity codes:%s", bad);
}
END_TEST

/* ---- exactness of the sharing fields ---- */

START_TEST(test_sharing_exact)
{
	/* 1s3c1t, L3 on: Intel reports the APIC ID span (4 IDs -> 3), AMD the
	 * CPUs that share (3 -> 2). Either one with the other's value is a bug;
	 * the assertions above are equalities, and here the wrong neighbours are
	 * spelled out to show they are told apart. */
	struct kvm_cpuid2 *h = amd_host();
	struct cpu_model m = model(h, CPU_VENDOR_AMD, 1, 3, 1, true);
	struct kvm_cpuid2 *c = vcpu(h, &m, 0);
	uint32_t eax = GET(c, 0x8000001du, 3)->eax;
	ck_assert_uint_eq((eax >> 14) & 0xfff, 2);
	ck_assert_uint_eq(eax, 0x8163);
	ck_assert_uint_ne(eax, 0xc163); /* 4 sharing: rounded up */
	ck_assert_uint_ne(eax, 0x4163); /* 2 sharing: off by one */
	ck_assert_uint_eq(eax >> 26, 0); /* no cores field on AMD */

	h = intel_host();
	m = model(h, CPU_VENDOR_INTEL, 1, 3, 1, true);
	c = vcpu(h, &m, 0);
	eax = GET(c, 4, 3)->eax;
	ck_assert_uint_eq((eax >> 14) & 0xfff, 3);
	ck_assert_uint_eq(eax, 0x0c00c163);
	ck_assert_uint_ne(eax, 0x0c008163); /* the CPU count, not the ID span */
	/* Per-core caches on 1s2c3t, AMD: exactly 3 threads (2), not 4 (3). */
	h = amd_host();
	m = model(h, CPU_VENDOR_AMD, 1, 2, 3, true);
	c = vcpu(h, &m, 0);
	for (uint32_t i = 0; i < 3; i++)
		ck_assert_uint_eq((GET(c, 0x8000001du, i)->eax >> 14) & 0xfff, 2);
}
END_TEST

/* ---- per vCPU identity, every vCPU ---- */

static void all_vcpus(enum cpu_vendor v, unsigned s, unsigned cr, unsigned t, const uint32_t *ids)
{
	struct kvm_cpuid2 *h = v == CPU_VENDOR_AMD ? unit_amd_host() : unit_intel_host();
	struct cpu_model m = model(h, v, s, cr, t, true);
	for (unsigned i = 0; i < s * cr * t; i++) {
		struct kvm_cpuid2 *c = cpuid_for_vcpu(h, &m, i);
		ck_assert_ptr_nonnull(c);
		uint32_t apic1 = unit_cpuid_get(c, 1, 0)->ebx >> 24;
		uint32_t b0 = unit_cpuid_get(c, 0xb, 0)->edx, b1 = unit_cpuid_get(c, 0xb, 1)->edx;
		uint32_t f0 = unit_cpuid_get(c, 0x1f, 0)->edx, f2 = unit_cpuid_get(c, 0x1f, 2)->edx;
		struct kvm_cpuid_entry2 *e1e = unit_cpuid_get(c, 0x8000001eu, 0);
		uint32_t x = e1e ? e1e->eax : ids[i];
		free(c);
		ck_assert_msg(apic1 == ids[i] && b0 == ids[i] && b1 == ids[i] && f0 == ids[i] &&
				      f2 == ids[i] && x == ids[i],
			      "vCPU %u: %u %u %u %u %u %u, expected %u", i, apic1, b0, b1, f0, f2, x,
			      ids[i]);
	}
	free(h);
}

START_TEST(test_every_vcpu_apic_id)
{
	/* Leaf 1 EBX[31:24], 0BH/1FH EDX, 0x8000001E EAX: the hand-derived IDs. */
	static const uint32_t dense8[] = { 0, 1, 2, 3, 4, 5, 6, 7 };
	/* 2s3c1t: 0,1,2 then (1<<2)|0..2. */
	static const uint32_t s2c3[] = { 0, 1, 2, 4, 5, 6 };
	/* 2s3c2t: (c<<1)|t, then 8 + the same. */
	static const uint32_t s2c3t2[] = { 0, 1, 2, 3, 4, 5, 8, 9, 10, 11, 12, 13 };
	for (int v = CPU_VENDOR_INTEL; v <= CPU_VENDOR_AMD; v++) {
		all_vcpus((enum cpu_vendor)v, 1, 1, 1, dense8);
		all_vcpus((enum cpu_vendor)v, 1, 4, 1, dense8);
		all_vcpus((enum cpu_vendor)v, 2, 2, 2, dense8);
		all_vcpus((enum cpu_vendor)v, 1, 3, 1, dense8);
		all_vcpus((enum cpu_vendor)v, 1, 2, 2, dense8);
		all_vcpus((enum cpu_vendor)v, 2, 2, 1, dense8);
		all_vcpus((enum cpu_vendor)v, 2, 3, 1, s2c3);
		all_vcpus((enum cpu_vendor)v, 2, 3, 2, s2c3t2);
	}
}
END_TEST

/* ---- the base table ---- */

START_TEST(test_base_untouched)
{
	for (int host_amd = 0; host_amd <= 1; host_amd++) {
		for (int v = CPU_VENDOR_INTEL; v <= CPU_VENDOR_AMD; v++) {
			for (int l3 = 0; l3 <= 1; l3++) {
				struct kvm_cpuid2 *h = host_amd ? amd_host() : intel_host();
				size_t bytes = sizeof(*h) + h->nent * sizeof(h->entries[0]);
				void *copy = track(malloc(bytes));
				memcpy(copy, h, bytes);
				struct cpu_model m = model(h, (enum cpu_vendor)v, 2, 2, 2, l3);
				for (unsigned i = 0; i < 8; i++)
					free(cpuid_for_vcpu(h, &m, i));
				ck_assert_mem_eq(h, copy, bytes);
			}
		}
	}
}
END_TEST

START_TEST(test_indexed_flags)
{
	/* Entries written for indexed leaves carry SIGNIFCANT_INDEX; plain
	 * leaves do not (or KVM would match them only at index 0). */
	struct kvm_cpuid2 *h = intel_host();
	struct cpu_model m = model(h, CPU_VENDOR_INTEL, 2, 2, 2, true);
	struct kvm_cpuid2 *c = vcpu(h, &m, 3);
	for (uint32_t i = 0; i < 3; i++) {
		ck_assert(GET(c, 0xb, i)->flags & IDX);
		ck_assert(GET(c, 0x1f, i)->flags & IDX);
	}
	ck_assert(!(GET(c, 2, 0)->flags & IDX));
	ck_assert(!(GET(c, 1, 0)->flags & IDX));
	ck_assert(!(GET(c, 0x80000006u, 0)->flags & IDX));
	h = amd_host();
	m = model(h, CPU_VENDOR_AMD, 2, 2, 2, true);
	c = vcpu(h, &m, 3);
	for (uint32_t i = 0; i < 5; i++)
		ck_assert(GET(c, 0x8000001du, i)->flags & IDX);
	ck_assert(!(GET(c, 0x80000005u, 0)->flags & IDX));
}
END_TEST

Suite *cpuid_leaves_suite(void)
{
	Suite *s = suite_create("cpuid_leaves");
	TCase *tc = tcase_create("intel");
	tcase_add_checked_fixture(tc, NULL, teardown);
	tcase_add_test(tc, test_intel_1s1c1t);
	tcase_add_test(tc, test_intel_1s4c1t_l3_on);
	tcase_add_test(tc, test_intel_1s4c1t_l3_off);
	tcase_add_test(tc, test_intel_2s2c2t);
	tcase_add_test(tc, test_intel_1s3c1t);
	tcase_add_test(tc, test_intel_1s2c2t);
	tcase_add_test(tc, test_intel_2s2c1t);
	tcase_add_test(tc, test_intel_2s3c2t);
	tcase_add_test(tc, test_intel_1s2c3t);
	tcase_add_test(tc, test_intel_on_amd_host);
	tcase_add_test(tc, test_intel_on_amd_host_nothing_above);
	suite_add_tcase(s, tc);
	tc = tcase_create("amd");
	tcase_add_checked_fixture(tc, NULL, teardown);
	tcase_add_test(tc, test_amd_1s1c1t);
	tcase_add_test(tc, test_amd_1s4c1t_l3_on);
	tcase_add_test(tc, test_amd_1s4c1t_l3_off);
	tcase_add_test(tc, test_amd_2s2c2t);
	tcase_add_test(tc, test_amd_1s3c1t);
	tcase_add_test(tc, test_amd_1s2c2t);
	tcase_add_test(tc, test_amd_2s2c1t);
	tcase_add_test(tc, test_amd_2s3c1t);
	tcase_add_test(tc, test_amd_2s3c2t);
	tcase_add_test(tc, test_amd_1s2c3t);
	tcase_add_test(tc, test_amd_on_intel_host);
	tcase_add_test(tc, test_amd_assoc_codes);
	suite_add_tcase(s, tc);
	tc = tcase_create("both");
	tcase_add_checked_fixture(tc, NULL, teardown);
	tcase_add_test(tc, test_sharing_exact);
	tcase_add_test(tc, test_every_vcpu_apic_id);
	tcase_add_test(tc, test_base_untouched);
	tcase_add_test(tc, test_indexed_flags);
	suite_add_tcase(s, tc);
	return s;
}
