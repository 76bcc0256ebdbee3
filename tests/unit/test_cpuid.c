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
	suite_add_tcase(s, tc);
	return s;
}
