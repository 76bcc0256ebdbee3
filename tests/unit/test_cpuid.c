/* cpuid: per-vCPU identity in the guest's CPUID table (Intel SDM vol. 2A, CPUID). */
#include <linux/kvm.h>
#include <stdlib.h>
#include <string.h>

#include "../../cpu/cpuid.h"
#include "suites.h"

#define NENT 6

static struct kvm_cpuid2 *base;

static void setup(void)
{
	base = calloc(1, sizeof(*base) + NENT * sizeof(struct kvm_cpuid_entry2));
	ck_assert_ptr_nonnull(base);
	base->nent = NENT;
	struct kvm_cpuid_entry2 *e = base->entries;
	e[0] = (struct kvm_cpuid_entry2){ .function = 0, .eax = 0xd, .ebx = 0x756e6547 };
	/* Leaf 1: EBX[31:24] initial APIC ID (0xAA here), [23:16] logical
	 * processor count, [15:8] CLFLUSH size, [7:0] brand index. */
	e[1] = (struct kvm_cpuid_entry2){ .function = 1, .eax = 0x000806ec, .ebx = 0xaabbccdd,
					  .ecx = 0x7ffafbff, .edx = 0xbfebfbff };
	/* Leaf 4 is indexed by ECX (cache level): index matters. */
	e[2] = (struct kvm_cpuid_entry2){ .function = 4, .index = 0,
					  .flags = KVM_CPUID_FLAG_SIGNIFCANT_INDEX, .eax = 0x40 };
	e[3] = (struct kvm_cpuid_entry2){ .function = 4, .index = 1,
					  .flags = KVM_CPUID_FLAG_SIGNIFCANT_INDEX, .eax = 0x41 };
	e[4] = (struct kvm_cpuid_entry2){ .function = 4, .index = 2,
					  .flags = KVM_CPUID_FLAG_SIGNIFCANT_INDEX, .eax = 0x42 };
	e[5] = (struct kvm_cpuid_entry2){ .function = 0x80000000u, .eax = 0x80000008u };
}

static void teardown(void)
{
	free(base);
}

static size_t table_bytes(const struct kvm_cpuid2 *c)
{
	return sizeof(*c) + c->nent * sizeof(c->entries[0]);
}

/* A model for `cpus` CPUs in the given shape (0 = derive), Intel, with
 * the default caches (the base table has no usable leaf 4 cache entry). */
static struct cpu_model model_for(unsigned cpus, unsigned sockets, unsigned cores,
				  unsigned threads)
{
	struct cpu_model m;
	memset(&m, 0, sizeof(m));
	m.vendor = CPU_VENDOR_INTEL;
	struct topology_request req = { cpus, sockets, cores, threads };
	char err[128];
	ck_assert_msg(topology_resolve(&req, &m.topo, err, sizeof(err)) == 0, "%s", err);
	cache_model_from_host(&m.caches, base);
	struct cache_overrides none;
	memset(&none, 0, sizeof(none));
	ck_assert_int_eq(cache_model_configure(&m.caches, &none, false, err, sizeof(err)), 0);
	return m;
}

START_TEST(test_apic_id_in_leaf1)
{
	/* 8 CPUs, one socket of 8 single-thread cores: APIC ID = core number
	 * (no SMT bits), so vCPU 5 has APIC ID 5. */
	struct cpu_model m = model_for(8, 1, 8, 1);
	struct kvm_cpuid2 *c = cpuid_for_vcpu(base, &m, 5);
	ck_assert_ptr_nonnull(c);
	struct kvm_cpuid_entry2 *l1 = cpuid_find(c, 1, 0);
	ck_assert_ptr_nonnull(l1);
	/* EBX[31:24] initial APIC ID = 5 (SDM vol. 2A, CPUID 01H);
	 * EBX[23:16] addressable logical processor IDs in the package: 8 cores
	 * need 3 APIC ID bits, 1 << 3 = 8; EBX[15:0] (CLFLUSH size, brand)
	 * stay KVM's 0xccdd. */
	ck_assert_uint_eq(l1->ebx, 0x0508ccdd);
	/* ECX bit 31: "hypervisor present", reserved for hypervisors to set. */
	ck_assert_uint_eq(l1->ecx & 0x80000000u, 0x80000000u);
	/* The other ECX bits and EAX are KVM's, unchanged. */
	ck_assert_uint_eq(l1->ecx & 0x7fffffffu, 0x7ffafbff);
	ck_assert_uint_eq(l1->eax, 0x000806ec);
	/* EDX bit 28 (HTT): EBX[23:16] is meaningful, more than one ID. */
	ck_assert_uint_eq(l1->edx & (1u << 28), 1u << 28);
	/* Leaf 0BH EDX: the x2APIC ID, the same 5 (SDM vol. 2A, CPUID 0BH). */
	struct kvm_cpuid_entry2 *xt = cpuid_find(c, 0xb, 0);
	ck_assert_ptr_nonnull(xt);
	ck_assert_uint_eq(xt->edx, 5);
	free(c);
}
END_TEST

START_TEST(test_apic_id_zero)
{
	struct cpu_model m = model_for(1, 0, 0, 0);
	struct kvm_cpuid2 *c = cpuid_for_vcpu(base, &m, 0);
	ck_assert_ptr_nonnull(c);
	/* APIC ID 0 must clear the 0xaa KVM left in EBX[31:24]; one CPU: one
	 * addressable ID, EBX[23:16] = 1, and HTT clear. */
	struct kvm_cpuid_entry2 *l1 = cpuid_find(c, 1, 0);
	ck_assert_uint_eq(l1->ebx, 0x0001ccdd);
	ck_assert_uint_eq(l1->edx & (1u << 28), 0);
	free(c);
}
END_TEST

START_TEST(test_apic_id_sparse)
{
	/* 2 sockets x 3 cores: the core field needs ceil(log2 3) = 2 bits, so
	 * socket 1 starts at APIC ID 1 << 2 = 4, and vCPU 3 (socket 1, core 0)
	 * has APIC ID 4, not 3. EBX[23:16] = 1 << 2 = 4. */
	struct cpu_model m = model_for(6, 2, 3, 1);
	struct kvm_cpuid2 *c = cpuid_for_vcpu(base, &m, 3);
	ck_assert_ptr_nonnull(c);
	ck_assert_uint_eq(cpuid_find(c, 1, 0)->ebx, 0x0404ccdd);
	free(c);
}
END_TEST

START_TEST(test_base_not_modified)
{
	size_t bytes = table_bytes(base);
	void *copy = malloc(bytes);
	ck_assert_ptr_nonnull(copy);
	memcpy(copy, base, bytes);
	struct cpu_model m = model_for(4, 0, 0, 0);
	struct kvm_cpuid2 *c = cpuid_for_vcpu(base, &m, 3);
	ck_assert_ptr_nonnull(c);
	ck_assert_ptr_ne(c, base);
	ck_assert_mem_eq(base, copy, bytes);
	/* The copy still has KVM's leaves it does not rewrite. */
	struct kvm_cpuid_entry2 *ext = cpuid_find(c, 0x80000000u, 0);
	ck_assert_ptr_nonnull(ext);
	free(c);
	free(copy);
}
END_TEST

START_TEST(test_find_significant_index)
{
	/* Indexed leaf: the index picks the entry. */
	ck_assert_ptr_eq(cpuid_find(base, 4, 0), &base->entries[2]);
	ck_assert_ptr_eq(cpuid_find(base, 4, 1), &base->entries[3]);
	ck_assert_ptr_eq(cpuid_find(base, 4, 2), &base->entries[4]);
	ck_assert_ptr_null(cpuid_find(base, 4, 3));
	/* Not indexed: any index finds the one entry. */
	ck_assert_ptr_eq(cpuid_find(base, 1, 0), &base->entries[1]);
	ck_assert_ptr_eq(cpuid_find(base, 1, 7), &base->entries[1]);
	ck_assert_ptr_eq(cpuid_find(base, 0x80000000u, 0), &base->entries[5]);
	/* Absent leaves. */
	ck_assert_ptr_null(cpuid_find(base, 7, 0));
	ck_assert_ptr_null(cpuid_find(base, 0x40000000u, 0));
}
END_TEST

/* A table of the base's entries with `spare` entries of room, tracked the
 * way cpuid_set expects (the padding field counts the spare entries). */
static struct kvm_cpuid2 *with_room(unsigned spare)
{
	struct kvm_cpuid2 *c = calloc(1, table_bytes(base) + spare * sizeof(base->entries[0]));
	ck_assert_ptr_nonnull(c);
	memcpy(c, base, table_bytes(base));
	c->padding = spare;
	return c;
}

START_TEST(test_set_appends_with_index_flag)
{
	/* The leaves whose output depends on ECX (SDM vol. 2A: 04H, 07H, 0BH,
	 * 0DH, 1FH; APM: 8000001DH) are appended with SIGNIFCANT_INDEX. */
	static const uint32_t indexed[] = { 4, 7, 0xb, 0xd, 0x1f, 0x8000001du };
	/* Plain leaves are not: KVM would then match them only at index 0. */
	static const uint32_t plain[] = { 2, 0x80000001u, 0x80000005u, 0x80000006u, 0x8000001eu,
					  0x40000000u };
	unsigned n = sizeof(indexed) / sizeof(indexed[0]) + sizeof(plain) / sizeof(plain[0]);
	struct kvm_cpuid2 *c = with_room(n);
	uint32_t nent = c->nent;
	for (unsigned i = 0; i < sizeof(indexed) / sizeof(indexed[0]); i++) {
		/* Index 5: none of these is in the base at index 5. */
		struct kvm_cpuid_entry2 *e = cpuid_set(c, indexed[i], 5, 1, 2, 3, 4);
		ck_assert_ptr_nonnull(e);
		ck_assert_uint_eq(e->function, indexed[i]);
		ck_assert_uint_eq(e->index, 5);
		ck_assert_uint_eq(e->flags, KVM_CPUID_FLAG_SIGNIFCANT_INDEX);
		ck_assert(e->eax == 1 && e->ebx == 2 && e->ecx == 3 && e->edx == 4);
		ck_assert_uint_eq(c->nent, ++nent);
		/* Found again at its index, and not at another. */
		ck_assert_ptr_eq(cpuid_find(c, indexed[i], 5), e);
		ck_assert_ptr_ne(cpuid_find(c, indexed[i], 6), e);
	}
	for (unsigned i = 0; i < sizeof(plain) / sizeof(plain[0]); i++) {
		struct kvm_cpuid_entry2 *e = cpuid_set(c, plain[i], 0, 5, 6, 7, 8);
		ck_assert_ptr_nonnull(e);
		ck_assert_uint_eq(e->function, plain[i]);
		ck_assert_uint_eq(e->flags, 0);
		ck_assert_uint_eq(c->nent, ++nent);
	}
	/* The room is used up: one more new entry does not fit. */
	ck_assert_ptr_null(cpuid_set(c, 0x40000001u, 0, 0, 0, 0, 0));
	ck_assert_uint_eq(c->nent, nent);
	free(c);
}
END_TEST

START_TEST(test_set_replaces_in_place)
{
	struct kvm_cpuid2 *c = with_room(0);
	/* An existing plain leaf: same entry, same count, new registers. */
	struct kvm_cpuid_entry2 *e = cpuid_set(c, 1, 0, 0x11, 0x22, 0x33, 0x44);
	ck_assert_ptr_eq(e, &c->entries[1]);
	ck_assert_uint_eq(c->nent, NENT);
	ck_assert(e->eax == 0x11 && e->ebx == 0x22 && e->ecx == 0x33 && e->edx == 0x44);
	/* An existing indexed subleaf: leaf 4 index 1 is entries[3]; the flag stays. */
	e = cpuid_set(c, 4, 1, 9, 9, 9, 9);
	ck_assert_ptr_eq(e, &c->entries[3]);
	ck_assert_uint_eq(e->flags, KVM_CPUID_FLAG_SIGNIFCANT_INDEX);
	ck_assert_uint_eq(c->nent, NENT);
	/* A new subleaf without room: NULL, nothing written. */
	ck_assert_ptr_null(cpuid_set(c, 4, 3, 0, 0, 0, 0));
	ck_assert_uint_eq(c->nent, NENT);
	free(c);
}
END_TEST

START_TEST(test_remove)
{
	struct kvm_cpuid2 *c = with_room(0);
	/* Leaf 4's three subleaves go; the rest keep their order. */
	cpuid_remove(c, 4);
	ck_assert_uint_eq(c->nent, NENT - 3);
	ck_assert_uint_eq(c->entries[0].function, 0);
	ck_assert_uint_eq(c->entries[1].function, 1);
	ck_assert_uint_eq(c->entries[2].function, 0x80000000u);
	ck_assert_ptr_null(cpuid_find(c, 4, 0));
	/* Removing what is not there changes nothing. */
	cpuid_remove(c, 0x8000001du);
	ck_assert_uint_eq(c->nent, NENT - 3);
	/* The freed entries are room for new ones. */
	ck_assert_ptr_nonnull(cpuid_set(c, 0xb, 0, 0, 1, 0x100, 0));
	ck_assert_ptr_nonnull(cpuid_set(c, 0xb, 1, 0, 1, 0x201, 0));
	ck_assert_ptr_nonnull(cpuid_set(c, 0xb, 2, 0, 0, 2, 0));
	ck_assert_uint_eq(c->nent, NENT);
	free(c);
}
END_TEST

START_TEST(test_vendor_from_leaf0)
{
	struct kvm_cpuid2 *c = with_room(0);
	/* EBX "Genu" (0x756e6547): Intel. */
	ck_assert_int_eq(cpuid_vendor(c), CPU_VENDOR_INTEL);
	/* EBX "Auth" (0x68747541): AMD. */
	c->entries[0].ebx = 0x68747541;
	ck_assert_int_eq(cpuid_vendor(c), CPU_VENDOR_AMD);
	/* EBX "Hygo" (0x6f677948), HygonGenuine: AMD's encodings. */
	c->entries[0].ebx = 0x6f677948;
	ck_assert_int_eq(cpuid_vendor(c), CPU_VENDOR_AMD);
	/* No leaf 0: Intel. */
	cpuid_remove(c, 0);
	ck_assert_int_eq(cpuid_vendor(c), CPU_VENDOR_INTEL);
	free(c);
	ck_assert_str_eq(cpu_vendor_string(CPU_VENDOR_INTEL), "GenuineIntel");
	ck_assert_str_eq(cpu_vendor_string(CPU_VENDOR_AMD), "AuthenticAMD");
}
END_TEST

START_TEST(test_vcpu_table_is_closed)
{
	/* cpuid.h: a finished table has no spare room (padding 0, what
	 * KVM_SET_CPUID2 is handed); appending to it must fail, not overrun. */
	struct cpu_model m = model_for(2, 1, 2, 1);
	struct kvm_cpuid2 *c = cpuid_for_vcpu(base, &m, 1);
	ck_assert_ptr_nonnull(c);
	uint32_t nent = c->nent;
	ck_assert_uint_eq(c->padding, 0);
	ck_assert_ptr_null(cpuid_set(c, 0x40000100u, 0, 1, 2, 3, 4));
	ck_assert_uint_eq(c->nent, nent);
	free(c);
}
END_TEST

/* 0x40000001 EAX after cpuid_write_kvm (Documentation/virt/kvm/x86/cpuid.rst):
 * bit 7 PV_UNHALT, 11 PV_SEND_IPI and 13 PV_SCHED_YIELD are hypercalls,
 * which a guest of the other vendor would issue with the wrong instruction. */
static uint32_t kvm_features_after(bool cross_vendor, bool kvmclock)
{
	struct kvm_cpuid2 *c = calloc(1, sizeof(*c) + sizeof(struct kvm_cpuid_entry2));
	ck_assert_ptr_nonnull(c);
	c->nent = 1;
	c->entries[0] = (struct kvm_cpuid_entry2){ .function = 0x40000001u, .eax = 0x01ffffffu };
	struct cpu_model m = { .kvmclock = kvmclock, .cross_vendor = cross_vendor };
	cpuid_write_kvm(c, &m);
	uint32_t eax = c->entries[0].eax;
	free(c);
	return eax;
}

START_TEST(test_kvm_features_cross_vendor)
{
	const uint32_t hypercalls = (1u << 7) | (1u << 11) | (1u << 13);
	const uint32_t clock = (1u << 0) | (1u << 3) | (1u << 24);
	ck_assert_uint_eq(kvm_features_after(false, true), 0x01ffffffu);
	ck_assert_uint_eq(kvm_features_after(true, true), 0x01ffffffu & ~hypercalls);
	ck_assert_uint_eq(kvm_features_after(false, false), 0x01ffffffu & ~clock);
	ck_assert_uint_eq(kvm_features_after(true, false), 0x01ffffffu & ~(clock | hypercalls));
}
END_TEST

Suite *cpuid_suite(void)
{
	Suite *s = suite_create("cpuid");
	TCase *tc = tcase_create("core");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_apic_id_in_leaf1);
	tcase_add_test(tc, test_apic_id_zero);
	tcase_add_test(tc, test_apic_id_sparse);
	tcase_add_test(tc, test_base_not_modified);
	tcase_add_test(tc, test_find_significant_index);
	tcase_add_test(tc, test_set_appends_with_index_flag);
	tcase_add_test(tc, test_set_replaces_in_place);
	tcase_add_test(tc, test_remove);
	tcase_add_test(tc, test_vendor_from_leaf0);
	tcase_add_test(tc, test_vcpu_table_is_closed);
	tcase_add_test(tc, test_kvm_features_cross_vendor);
	suite_add_tcase(s, tc);
	return s;
}
