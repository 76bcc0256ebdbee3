/* topology: --smp resolution and the APIC IDs a PC gives sockets x cores x
 * threads (Intel SDM vol. 3A 9.4.3/9.9 "hierarchical mapping of CPUID
 * extended topology to APIC IDs": each level's field is ceil(log2(count))
 * bits wide, SMT lowest, then core, then package). */
#include "../../cpu/topology.h"
#include "suites.h"

/* Resolve {cpus, sockets, cores, threads} (0 = not given); fail the test on error. */
static struct topology resolve(unsigned cpus, unsigned sockets, unsigned cores, unsigned threads)
{
	struct topology_request req = { cpus, sockets, cores, threads };
	struct topology t;
	char err[160] = "";
	ck_assert_msg(topology_resolve(&req, &t, err, sizeof(err)) == 0, "%u/%u/%u/%u: %s", cpus,
		      sockets, cores, threads, err);
	return t;
}

static void assert_shape(const struct topology *t, unsigned cpus, unsigned sockets, unsigned cores,
			 unsigned threads)
{
	ck_assert_uint_eq(t->cpus, cpus);
	ck_assert_uint_eq(t->sockets, sockets);
	ck_assert_uint_eq(t->cores, cores);
	ck_assert_uint_eq(t->threads, threads);
}

/* The request must be refused with a reason. */
static void assert_rejected(unsigned cpus, unsigned sockets, unsigned cores, unsigned threads)
{
	struct topology_request req = { cpus, sockets, cores, threads };
	struct topology t;
	char err[160] = "";
	ck_assert_msg(topology_resolve(&req, &t, err, sizeof(err)) == -1,
		      "%u/%u/%u/%u accepted", cpus, sockets, cores, threads);
	ck_assert_msg(err[0] != '\0', "%u/%u/%u/%u: no reason given", cpus, sockets, cores,
		      threads);
}

/* ---- resolution ---- */

START_TEST(test_resolve_nothing_given)
{
	/* No counts at all: threads default 1, sockets 1, cores = cpus/threads
	 * where cpus is the product of what is given (nothing: 1). */
	struct topology t = resolve(0, 0, 0, 0);
	assert_shape(&t, 1, 1, 1, 1);
}
END_TEST

START_TEST(test_resolve_cpus_only)
{
	/* cpus=4: sockets and cores both missing -> sockets 1, cores 4/1 = 4. */
	struct topology t = resolve(4, 0, 0, 0);
	assert_shape(&t, 4, 1, 4, 1);
	/* cpus=1 -> 1s1c1t. */
	t = resolve(1, 0, 0, 0);
	assert_shape(&t, 1, 1, 1, 1);
	/* cpus=3 -> 1s3c1t. */
	t = resolve(3, 0, 0, 0);
	assert_shape(&t, 3, 1, 3, 1);
}
END_TEST

START_TEST(test_resolve_cpus_and_threads)
{
	/* cpus=8, threads=2: sockets 1, cores 8/2 = 4. */
	struct topology t = resolve(8, 0, 0, 2);
	assert_shape(&t, 8, 1, 4, 2);
	/* cpus=4, threads=2: 1s2c2t. */
	t = resolve(4, 0, 0, 2);
	assert_shape(&t, 4, 1, 2, 2);
}
END_TEST

START_TEST(test_resolve_derive_cores)
{
	/* cpus=8, sockets=2: cores = 8 / (2 * 1) = 4. */
	struct topology t = resolve(8, 2, 0, 0);
	assert_shape(&t, 8, 2, 4, 1);
	/* cpus=8, sockets=2, threads=2: cores = 8 / (2 * 2) = 2 -> 2s2c2t. */
	t = resolve(8, 2, 0, 2);
	assert_shape(&t, 8, 2, 2, 2);
	/* cpus=4, sockets=2: 2s2c1t. */
	t = resolve(4, 2, 0, 0);
	assert_shape(&t, 4, 2, 2, 1);
}
END_TEST

START_TEST(test_resolve_derive_sockets)
{
	/* cpus=8, cores=2: sockets = 8 / (2 * 1) = 4. */
	struct topology t = resolve(8, 0, 2, 0);
	assert_shape(&t, 8, 4, 2, 1);
	/* cpus=8, cores=2, threads=2: sockets = 8 / 4 = 2. */
	t = resolve(8, 0, 2, 2);
	assert_shape(&t, 8, 2, 2, 2);
	/* cpus=6, cores=3: 2s3c1t. */
	t = resolve(6, 0, 3, 0);
	assert_shape(&t, 6, 2, 3, 1);
}
END_TEST

START_TEST(test_resolve_derive_cpus)
{
	/* cpus missing: the product of the rest, 2 * 3 * 2 = 12. */
	struct topology t = resolve(0, 2, 3, 2);
	assert_shape(&t, 12, 2, 3, 2);
	/* Only threads=2: 1 * 1 * 2 = 2 cpus, 1s1c2t. */
	t = resolve(0, 0, 0, 2);
	assert_shape(&t, 2, 1, 1, 2);
	/* sockets=2, threads=2 (cores missing too): cpus 2*1*2 = 4, cores
	 * 4 / (2*2) = 1. */
	t = resolve(0, 2, 0, 2);
	assert_shape(&t, 4, 2, 1, 2);
}
END_TEST

START_TEST(test_resolve_all_given)
{
	struct topology t = resolve(8, 2, 2, 2);
	assert_shape(&t, 8, 2, 2, 2);
	t = resolve(6, 2, 3, 1);
	assert_shape(&t, 6, 2, 3, 1);
}
END_TEST

START_TEST(test_resolve_product_mismatch)
{
	/* 2 * 2 * 1 = 4, not 8. */
	assert_rejected(8, 2, 2, 1);
	/* 2 * 2 * 2 = 8, not 6. */
	assert_rejected(6, 2, 2, 2);
	/* 1 * 1 * 1 = 1, not 2. */
	assert_rejected(2, 1, 1, 1);
	/* More than asked: 2 * 4 * 1 = 8, not 4. */
	assert_rejected(4, 2, 4, 1);
}
END_TEST

START_TEST(test_resolve_not_divisible)
{
	/* 6 cpus into 4 sockets: 6 % 4 != 0. */
	assert_rejected(6, 4, 0, 0);
	/* 6 cpus into cores of 4: 6 % 4 != 0. */
	assert_rejected(6, 0, 4, 0);
	/* 5 cpus into threads of 2: 5 % 2 != 0. */
	assert_rejected(5, 0, 0, 2);
	/* 7 cpus, 2 sockets of 2-thread cores: 7 % 4 != 0. */
	assert_rejected(7, 2, 0, 2);
	/* 12 cpus, cores=5, threads=2: 12 % 10 != 0. */
	assert_rejected(12, 0, 5, 2);
	/* Fewer cpus than one socket holds: 2 cpus, cores=4: 2 % 4 != 0. */
	assert_rejected(2, 0, 4, 0);
}
END_TEST

START_TEST(test_resolve_overflow_rejected)
{
	/* cpus missing and 4096^3 = 2^36 does not fit in 32 bits: whatever
	 * the arithmetic wraps to, it is not the product, so it must fail. */
	assert_rejected(0, 4096, 4096, 4096);
	/* 4096 * 4096 * 257 = 4311744512 > 2^32. */
	assert_rejected(0, 4096, 4096, 257);
}
END_TEST

/* ---- field widths ---- */

START_TEST(test_bits)
{
	/* ceil(log2 n). */
	ck_assert_uint_eq(topology_bits(1), 0);
	ck_assert_uint_eq(topology_bits(2), 1);
	ck_assert_uint_eq(topology_bits(3), 2);
	ck_assert_uint_eq(topology_bits(4), 2);
	ck_assert_uint_eq(topology_bits(5), 3);
	ck_assert_uint_eq(topology_bits(6), 3);
	ck_assert_uint_eq(topology_bits(8), 3);
	ck_assert_uint_eq(topology_bits(9), 4);
	ck_assert_uint_eq(topology_bits(255), 8);
	ck_assert_uint_eq(topology_bits(256), 8);
	ck_assert_uint_eq(topology_bits(257), 9);
	ck_assert_uint_eq(topology_bits(4096), 12);
}
END_TEST

START_TEST(test_field_widths)
{
	/* 1s1c1t: 1 thread -> 0 SMT bits; 1 core -> 0 core bits; shift 0. */
	struct topology t = resolve(1, 1, 1, 1);
	ck_assert_uint_eq(t.smt_bits, 0);
	ck_assert_uint_eq(t.core_bits, 0);
	ck_assert_uint_eq(topology_package_shift(&t), 0);
	ck_assert_uint_eq(topology_cpus_per_socket(&t), 1);
	/* 1s4c1t: core bits ceil(log2 4) = 2; shift 0 + 2 = 2; 4 per socket. */
	t = resolve(4, 1, 4, 1);
	ck_assert_uint_eq(t.smt_bits, 0);
	ck_assert_uint_eq(t.core_bits, 2);
	ck_assert_uint_eq(topology_package_shift(&t), 2);
	ck_assert_uint_eq(topology_cpus_per_socket(&t), 4);
	/* 1s3c1t: core bits ceil(log2 3) = 2; shift 2; 3 per socket. */
	t = resolve(3, 1, 3, 1);
	ck_assert_uint_eq(t.core_bits, 2);
	ck_assert_uint_eq(topology_package_shift(&t), 2);
	ck_assert_uint_eq(topology_cpus_per_socket(&t), 3);
	/* 2s2c2t: SMT bits 1, core bits 1, shift 2; 4 per socket. */
	t = resolve(8, 2, 2, 2);
	ck_assert_uint_eq(t.smt_bits, 1);
	ck_assert_uint_eq(t.core_bits, 1);
	ck_assert_uint_eq(topology_package_shift(&t), 2);
	ck_assert_uint_eq(topology_cpus_per_socket(&t), 4);
	/* 2s2c1t: SMT bits 0, core bits 1, shift 1; 2 per socket. */
	t = resolve(4, 2, 2, 1);
	ck_assert_uint_eq(t.smt_bits, 0);
	ck_assert_uint_eq(t.core_bits, 1);
	ck_assert_uint_eq(topology_package_shift(&t), 1);
	ck_assert_uint_eq(topology_cpus_per_socket(&t), 2);
	/* 1s2c3t: SMT bits ceil(log2 3) = 2, core bits 1, shift 3. */
	t = resolve(6, 1, 2, 3);
	ck_assert_uint_eq(t.smt_bits, 2);
	ck_assert_uint_eq(t.core_bits, 1);
	ck_assert_uint_eq(topology_package_shift(&t), 3);
	ck_assert_uint_eq(topology_cpus_per_socket(&t), 6);
}
END_TEST

/* ---- positions and APIC IDs ---- */

/* Every vCPU's APIC ID, in vCPU index order, equals ids[]. */
static void assert_apic_ids(const struct topology *t, const uint32_t *ids, unsigned n)
{
	ck_assert_uint_eq(t->cpus, n);
	for (unsigned i = 0; i < n; i++)
		ck_assert_msg(topology_apic_id(t, i) == ids[i], "vCPU %u: APIC ID %u, expected %u", i,
			      topology_apic_id(t, i), ids[i]);
}

START_TEST(test_apic_1s1c1t)
{
	/* One CPU: socket 0, core 0, thread 0 -> APIC ID 0. */
	struct topology t = resolve(1, 1, 1, 1);
	static const uint32_t ids[] = { 0 };
	assert_apic_ids(&t, ids, 1);
}
END_TEST

START_TEST(test_apic_1s3c1t)
{
	/* No SMT bits, 2 core bits: vCPU i = core i -> APIC ID i: 0, 1, 2. */
	struct topology t = resolve(3, 1, 3, 1);
	static const uint32_t ids[] = { 0, 1, 2 };
	assert_apic_ids(&t, ids, 3);
}
END_TEST

START_TEST(test_apic_1s4c1t)
{
	/* 2 core bits, all four used: 0, 1, 2, 3. */
	struct topology t = resolve(4, 1, 4, 1);
	static const uint32_t ids[] = { 0, 1, 2, 3 };
	assert_apic_ids(&t, ids, 4);
}
END_TEST

START_TEST(test_apic_2s3c1t)
{
	/* 2 core bits, package shift 2: socket 0 cores 0-2 -> 0, 1, 2; socket 1
	 * -> (1<<2)|0..2 = 4, 5, 6 (3 is never used). */
	struct topology t = resolve(6, 2, 3, 1);
	static const uint32_t ids[] = { 0, 1, 2, 4, 5, 6 };
	assert_apic_ids(&t, ids, 6);
}
END_TEST

START_TEST(test_apic_2s2c2t)
{
	/* SMT bit 0, core bit 1, socket from bit 2: dense, 0..7, and vCPU i
	 * (socket-major, then core, then thread) has ID i. */
	struct topology t = resolve(8, 2, 2, 2);
	static const uint32_t ids[] = { 0, 1, 2, 3, 4, 5, 6, 7 };
	assert_apic_ids(&t, ids, 8);
}
END_TEST

START_TEST(test_apic_1s2c2t)
{
	/* SMT bit 0, core bit 1: 0, 1, 2, 3. */
	struct topology t = resolve(4, 1, 2, 2);
	static const uint32_t ids[] = { 0, 1, 2, 3 };
	assert_apic_ids(&t, ids, 4);
}
END_TEST

START_TEST(test_apic_2s2c1t)
{
	/* No SMT bits, core bit 0, socket from bit 1: 0, 1, 2, 3. */
	struct topology t = resolve(4, 2, 2, 1);
	static const uint32_t ids[] = { 0, 1, 2, 3 };
	assert_apic_ids(&t, ids, 4);
}
END_TEST

START_TEST(test_apic_1s2c3t)
{
	/* 3 threads need 2 SMT bits: core 0 threads 0-2 -> 0, 1, 2; core 1 ->
	 * (1<<2)|0..2 = 4, 5, 6. */
	struct topology t = resolve(6, 1, 2, 3);
	static const uint32_t ids[] = { 0, 1, 2, 4, 5, 6 };
	assert_apic_ids(&t, ids, 6);
}
END_TEST

START_TEST(test_apic_2s3c2t)
{
	/* SMT bit 0, core bits 1-2 (3 cores), socket from bit 3. Socket 0:
	 * core c thread h -> (c<<1)|h = 0,1, 2,3, 4,5; socket 1: 8 + the same =
	 * 8,9, 10,11, 12,13. */
	struct topology t = resolve(12, 2, 3, 2);
	static const uint32_t ids[] = { 0, 1, 2, 3, 4, 5, 8, 9, 10, 11, 12, 13 };
	assert_apic_ids(&t, ids, 12);
}
END_TEST

START_TEST(test_apic_4s1c1t)
{
	/* No SMT and no core bits: the socket is the whole ID, 0..3. */
	struct topology t = resolve(4, 4, 1, 1);
	static const uint32_t ids[] = { 0, 1, 2, 3 };
	assert_apic_ids(&t, ids, 4);
}
END_TEST

static void assert_position(const struct topology *t, unsigned index, unsigned socket,
			    unsigned core, unsigned thread)
{
	struct cpu_position p = topology_position(t, index);
	ck_assert_msg(p.socket == socket && p.core == core && p.thread == thread,
		      "vCPU %u: s%u c%u t%u, expected s%u c%u t%u", index, p.socket, p.core,
		      p.thread, socket, core, thread);
}

START_TEST(test_positions)
{
	/* Socket-major, then core, then thread. 2s2c2t: vCPU 5 = 4 (socket 1)
	 * + 1 -> core 0, thread 1; vCPU 6 -> socket 1, core 1, thread 0. */
	struct topology t = resolve(8, 2, 2, 2);
	assert_position(&t, 0, 0, 0, 0);
	assert_position(&t, 1, 0, 0, 1);
	assert_position(&t, 2, 0, 1, 0);
	assert_position(&t, 3, 0, 1, 1);
	assert_position(&t, 5, 1, 0, 1);
	assert_position(&t, 6, 1, 1, 0);
	assert_position(&t, 7, 1, 1, 1);
	/* 2s3c1t: vCPU 3 = socket 1 core 0; vCPU 5 = socket 1 core 2. */
	t = resolve(6, 2, 3, 1);
	assert_position(&t, 2, 0, 2, 0);
	assert_position(&t, 3, 1, 0, 0);
	assert_position(&t, 5, 1, 2, 0);
	/* 1s2c3t: vCPU 4 = core 1 (4 / 3), thread 1 (4 % 3). */
	t = resolve(6, 1, 2, 3);
	assert_position(&t, 4, 0, 1, 1);
	/* 2s2c1t: vCPU 3 = socket 1, core 1. */
	t = resolve(4, 2, 2, 1);
	assert_position(&t, 3, 1, 1, 0);
	/* 2s3c2t: vCPU 11 = socket 1 (11 / 6), core 2 ((11 / 2) % 3), thread 1. */
	t = resolve(12, 2, 3, 2);
	assert_position(&t, 11, 1, 2, 1);
	/* and its APIC ID (1<<3)|(2<<1)|1 = 13. */
	ck_assert_uint_eq(topology_apic_id(&t, 11), 13);
}
END_TEST

Suite *topology_suite(void)
{
	Suite *s = suite_create("topology");
	TCase *tc = tcase_create("resolve");
	tcase_add_test(tc, test_resolve_nothing_given);
	tcase_add_test(tc, test_resolve_cpus_only);
	tcase_add_test(tc, test_resolve_cpus_and_threads);
	tcase_add_test(tc, test_resolve_derive_cores);
	tcase_add_test(tc, test_resolve_derive_sockets);
	tcase_add_test(tc, test_resolve_derive_cpus);
	tcase_add_test(tc, test_resolve_all_given);
	tcase_add_test(tc, test_resolve_product_mismatch);
	tcase_add_test(tc, test_resolve_not_divisible);
	tcase_add_test(tc, test_resolve_overflow_rejected);
	suite_add_tcase(s, tc);
	tc = tcase_create("apic_ids");
	tcase_add_test(tc, test_bits);
	tcase_add_test(tc, test_field_widths);
	tcase_add_test(tc, test_apic_1s1c1t);
	tcase_add_test(tc, test_apic_1s3c1t);
	tcase_add_test(tc, test_apic_1s4c1t);
	tcase_add_test(tc, test_apic_2s3c1t);
	tcase_add_test(tc, test_apic_2s2c2t);
	tcase_add_test(tc, test_apic_1s2c2t);
	tcase_add_test(tc, test_apic_2s2c1t);
	tcase_add_test(tc, test_apic_1s2c3t);
	tcase_add_test(tc, test_apic_2s3c2t);
	tcase_add_test(tc, test_apic_4s1c1t);
	tcase_add_test(tc, test_positions);
	suite_add_tcase(s, tc);
	return s;
}
