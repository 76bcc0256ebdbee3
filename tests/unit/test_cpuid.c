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

START_TEST(test_apic_id_in_leaf1)
{
	struct kvm_cpuid2 *c = cpuid_for_vcpu(base, 5);
	ck_assert_ptr_nonnull(c);
	struct kvm_cpuid_entry2 *l1 = cpuid_find(c, 1, 0);
	ck_assert_ptr_nonnull(l1);
	/* Bits 31:24 become 5, bits 23:0 (0xbbccdd) stay. */
	ck_assert_uint_eq(l1->ebx, 0x05bbccdd);
	/* ECX bit 31: "hypervisor present", reserved for hypervisors to set. */
	ck_assert_uint_eq(l1->ecx & 0x80000000u, 0x80000000u);
	/* The other ECX bits and the other registers are KVM's, unchanged. */
	ck_assert_uint_eq(l1->ecx & 0x7fffffffu, 0x7ffafbff);
	ck_assert_uint_eq(l1->eax, 0x000806ec);
	ck_assert_uint_eq(l1->edx, 0xbfebfbff);
	free(c);
}
END_TEST

START_TEST(test_apic_id_zero_and_wide)
{
	struct kvm_cpuid2 *c = cpuid_for_vcpu(base, 0);
	ck_assert_ptr_nonnull(c);
	/* APIC ID 0 must clear the 0xaa KVM left there. */
	ck_assert_uint_eq(cpuid_find(c, 1, 0)->ebx, 0x00bbccdd);
	free(c);
	/* The field is 8 bits: 0x1ff keeps its low byte and cannot spill
	 * into bits 23:16. */
	c = cpuid_for_vcpu(base, 0x1ff);
	ck_assert_ptr_nonnull(c);
	ck_assert_uint_eq(cpuid_find(c, 1, 0)->ebx, 0xffbbccdd);
	free(c);
}
END_TEST

START_TEST(test_base_not_modified)
{
	size_t bytes = table_bytes(base);
	void *copy = malloc(bytes);
	ck_assert_ptr_nonnull(copy);
	memcpy(copy, base, bytes);
	struct kvm_cpuid2 *c = cpuid_for_vcpu(base, 3);
	ck_assert_ptr_nonnull(c);
	ck_assert_ptr_ne(c, base);
	ck_assert_mem_eq(base, copy, bytes);
	/* The copy is the whole table, leaf 1 aside. */
	ck_assert_uint_eq(c->nent, NENT);
	ck_assert_mem_eq(&c->entries[2], &base->entries[2], (NENT - 2) * sizeof(c->entries[0]));
	ck_assert_mem_eq(&c->entries[0], &base->entries[0], sizeof(c->entries[0]));
	free(c);
	free(copy);
}
END_TEST

START_TEST(test_no_leaf1)
{
	base->entries[1].function = 2; /* no leaf 1 at all */
	struct kvm_cpuid2 *c = cpuid_for_vcpu(base, 5);
	ck_assert_ptr_nonnull(c);
	ck_assert_mem_eq(c, base, table_bytes(base));
	free(c);
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
	tcase_add_test(tc, test_apic_id_zero_and_wide);
	tcase_add_test(tc, test_base_not_modified);
	tcase_add_test(tc, test_no_leaf1);
	tcase_add_test(tc, test_find_significant_index);
	suite_add_tcase(s, tc);
	return s;
}
