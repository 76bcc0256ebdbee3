/* cache: the one cache model both vendors' CPUID leaves and the FDT are
 * written from. Host facts come from the hand-made tables (host_tables.h). */
#include <stdlib.h>
#include <string.h>

#include "../../cpu/cache.h"
#include "host_tables.h"
#include "suites.h"

static struct kvm_cpuid2 *host;

static void teardown(void)
{
	free(host);
	host = NULL;
}

static void assert_cache(const struct cache_desc *c, unsigned level, enum cache_type type,
			 uint32_t size, uint32_t ways, uint32_t line, enum cache_scope scope)
{
	ck_assert_uint_eq(c->level, level);
	ck_assert_int_eq(c->type, type);
	ck_assert_uint_eq(c->size, size);
	ck_assert_uint_eq(c->ways, ways);
	ck_assert_uint_eq(c->line, line);
	ck_assert_int_eq(c->scope, scope);
}

/* The defaults: L1d/L1i 32 KiB 8-way, L2 512 KiB 8-way, L3 16 MiB 16-way,
 * 64-byte lines; L1/L2 per core, L3 per socket. */
static void assert_defaults(const struct cache_model *m)
{
	assert_cache(&m->cache[CACHE_L1D], 1, CACHE_DATA, 32 << 10, 8, 64, CACHE_PER_CORE);
	assert_cache(&m->cache[CACHE_L1I], 1, CACHE_INSTRUCTION, 32 << 10, 8, 64, CACHE_PER_CORE);
	assert_cache(&m->cache[CACHE_L2], 2, CACHE_UNIFIED, 512 << 10, 8, 64, CACHE_PER_CORE);
	assert_cache(&m->cache[CACHE_L3], 3, CACHE_UNIFIED, 16 << 20, 16, 64, CACHE_PER_SOCKET);
}

/* size == ways * line * sets exactly, for every level. */
static void assert_whole_sets(const struct cache_model *m)
{
	for (int i = 0; i < CACHE_COUNT; i++) {
		const struct cache_desc *c = &m->cache[i];
		ck_assert_msg(c->ways && c->line, "cache %d: ways %u line %u", i, c->ways, c->line);
		ck_assert_msg((uint64_t)cache_sets(c) * c->ways * c->line == c->size,
			      "cache %d: %u sets x %u ways x %u B != %u B", i, cache_sets(c), c->ways,
			      c->line, c->size);
	}
}

static struct topology topo(unsigned sockets, unsigned cores, unsigned threads)
{
	struct topology_request req = { sockets * cores * threads, sockets, cores, threads };
	struct topology t;
	char err[128];
	ck_assert_msg(topology_resolve(&req, &t, err, sizeof(err)) == 0, "%s", err);
	return t;
}

/* ---- from the host ---- */

START_TEST(test_intel_leaf4)
{
	/* Leaf 4 (SDM: size = (W+1)(P+1)(L+1)(S+1)): L1d 64*1*12*64 = 48 KiB,
	 * L1i 64*8*64 = 32 KiB, L2 64*8*2048 = 1 MiB, L3 64*15*32768 = 30 MiB. */
	host = unit_intel_host();
	struct cache_model m;
	memset(&m, 0xa5, sizeof(m));
	cache_model_from_host(&m, host);
	assert_cache(&m.cache[CACHE_L1D], 1, CACHE_DATA, 48 << 10, 12, 64, CACHE_PER_CORE);
	assert_cache(&m.cache[CACHE_L1I], 1, CACHE_INSTRUCTION, 32 << 10, 8, 64, CACHE_PER_CORE);
	assert_cache(&m.cache[CACHE_L2], 2, CACHE_UNIFIED, 1 << 20, 8, 64, CACHE_PER_CORE);
	assert_cache(&m.cache[CACHE_L3], 3, CACHE_UNIFIED, 30 << 20, 15, 64, CACHE_PER_SOCKET);
	/* sets = size / (ways * line): 49152/768 = 64, 32768/512 = 64,
	 * 1048576/512 = 2048, 31457280/960 = 32768. */
	ck_assert_uint_eq(cache_sets(&m.cache[CACHE_L1D]), 64);
	ck_assert_uint_eq(cache_sets(&m.cache[CACHE_L1I]), 64);
	ck_assert_uint_eq(cache_sets(&m.cache[CACHE_L2]), 2048);
	ck_assert_uint_eq(cache_sets(&m.cache[CACHE_L3]), 32768);
	/* Reading the host decides nothing about exposing the L3. */
	ck_assert(!m.have_l3);
}
END_TEST

START_TEST(test_amd_8000001d)
{
	/* 0x8000001D, same layout: L1d 64*8*64 = 32 KiB, L1i 64*4*256 = 64 KiB,
	 * L2 64*8*2048 = 1 MiB, L3 64*16*32768 = 32 MiB. */
	host = unit_amd_host();
	struct cache_model m;
	cache_model_from_host(&m, host);
	assert_cache(&m.cache[CACHE_L1D], 1, CACHE_DATA, 32 << 10, 8, 64, CACHE_PER_CORE);
	assert_cache(&m.cache[CACHE_L1I], 1, CACHE_INSTRUCTION, 64 << 10, 4, 64, CACHE_PER_CORE);
	assert_cache(&m.cache[CACHE_L2], 2, CACHE_UNIFIED, 1 << 20, 8, 64, CACHE_PER_CORE);
	assert_cache(&m.cache[CACHE_L3], 3, CACHE_UNIFIED, 32 << 20, 16, 64, CACHE_PER_SOCKET);
	ck_assert_uint_eq(cache_sets(&m.cache[CACHE_L1I]), 256);
	ck_assert_uint_eq(cache_sets(&m.cache[CACHE_L3]), 32768);
	ck_assert(!m.have_l3);
}
END_TEST

START_TEST(test_amd_legacy_sizes)
{
	/* No 0x8000001D: 0x80000005 ECX[31:24] L1d = 0x10 = 16 KiB, EDX[31:24]
	 * L1i 16 KiB; 0x80000006 ECX[31:16] L2 = 0x200 = 512 KiB, EDX[31:18]
	 * L3 = 0x20 units of 512 KiB = 16 MiB (APM vol. 3 E.4.4/E.4.5). */
	host = unit_amd_host();
	unit_cpuid_drop(host, 0x8000001d);
	struct cache_model m;
	cache_model_from_host(&m, host);
	ck_assert_uint_eq(m.cache[CACHE_L1D].size, 16 << 10);
	ck_assert_uint_eq(m.cache[CACHE_L1I].size, 16 << 10);
	ck_assert_uint_eq(m.cache[CACHE_L2].size, 512 << 10);
	ck_assert_uint_eq(m.cache[CACHE_L3].size, 16 << 20);
	/* All four say line size 64 in [7:0]. */
	for (int i = 0; i < CACHE_COUNT; i++)
		ck_assert_uint_eq(m.cache[i].line, 64);
	assert_whole_sets(&m);
}
END_TEST

START_TEST(test_amd_legacy_ways)
{
	/* The same leaves carry the associativity: 0x80000005 ECX/EDX[23:16] =
	 * 4 (L1d, L1i 4-way, given as a plain count), 0x80000006 ECX[15:12] = 6
	 * (L2 8 ways) and EDX[15:12] = 8 (L3 16 ways) (APM Table E-4). So the
	 * L1d is 16 KiB / (4 x 64) = 64 sets. */
	host = unit_amd_host();
	unit_cpuid_drop(host, 0x8000001d);
	struct cache_model m;
	cache_model_from_host(&m, host);
	ck_assert_uint_eq(m.cache[CACHE_L1D].ways, 4);
	ck_assert_uint_eq(m.cache[CACHE_L1I].ways, 4);
	ck_assert_uint_eq(m.cache[CACHE_L2].ways, 8);
	ck_assert_uint_eq(m.cache[CACHE_L3].ways, 16);
	ck_assert_uint_eq(cache_sets(&m.cache[CACHE_L1D]), 64);
}
END_TEST

START_TEST(test_amd_no_cache_leaves)
{
	/* Neither 0x8000001D nor 0x80000005/6: the fixed defaults. */
	host = unit_amd_host();
	unit_cpuid_drop(host, 0x8000001d);
	unit_cpuid_drop(host, 0x80000005);
	unit_cpuid_drop(host, 0x80000006);
	struct cache_model m;
	cache_model_from_host(&m, host);
	assert_defaults(&m);
	ck_assert(!m.have_l3);
}
END_TEST

START_TEST(test_intel_no_leaf4)
{
	host = unit_intel_host();
	unit_cpuid_drop(host, 4);
	struct cache_model m;
	cache_model_from_host(&m, host);
	assert_defaults(&m);
}
END_TEST

START_TEST(test_empty_table)
{
	/* No leaf 0 at all: nothing to read, the defaults. */
	host = unit_cpuid_table(NULL, 0);
	struct cache_model m;
	cache_model_from_host(&m, host);
	assert_defaults(&m);
	ck_assert(!m.have_l3);
}
END_TEST

START_TEST(test_intel_leaf4_without_l3)
{
	/* A host whose leaf 4 ends after the L2 (type 0 at subleaf 3): L1d/L2
	 * from the host, the L3 the default 16 MiB 16-way. */
	static const struct kvm_cpuid_entry2 e[] = {
		{ .function = 0, .eax = 0x16, .ebx = INTEL_EBX, .ecx = INTEL_ECX, .edx = INTEL_EDX },
		/* L1d: line 64, 2 partitions, 4 ways, 64 sets: EBX 63 | 1 << 12 |
		 * 3 << 22 = 0x00c0103f; 64 x 2 x 4 x 64 = 32 KiB. */
		{ .function = 4, .index = 0, .flags = KVM_CPUID_FLAG_SIGNIFCANT_INDEX, .eax = 0x121,
		  .ebx = 0x00c0103f, .ecx = 0x3f },
		/* L2 256 KiB = 64 x 4 x 1024: EBX 63 | 3 << 22. */
		{ .function = 4, .index = 1, .flags = KVM_CPUID_FLAG_SIGNIFCANT_INDEX, .eax = 0x143,
		  .ebx = 0x00c0003f, .ecx = 0x3ff },
		{ .function = 4, .index = 2, .flags = KVM_CPUID_FLAG_SIGNIFCANT_INDEX },
	};
	host = unit_cpuid_table(e, 4);
	struct cache_model m;
	cache_model_from_host(&m, host);
	ck_assert_uint_eq(m.cache[CACHE_L1D].size, 32 << 10);
	ck_assert_uint_eq(m.cache[CACHE_L1D].line, 64);
	/* No L1i in the leaf: the default 32 KiB 8-way. */
	assert_cache(&m.cache[CACHE_L1I], 1, CACHE_INSTRUCTION, 32 << 10, 8, 64, CACHE_PER_CORE);
	assert_cache(&m.cache[CACHE_L2], 2, CACHE_UNIFIED, 256 << 10, 4, 64, CACHE_PER_CORE);
	assert_cache(&m.cache[CACHE_L3], 3, CACHE_UNIFIED, 16 << 20, 16, 64, CACHE_PER_SOCKET);
	assert_whole_sets(&m);
}
END_TEST

/* ---- configuration ---- */

static struct cache_model intel_model(void)
{
	host = unit_intel_host();
	struct cache_model m;
	cache_model_from_host(&m, host);
	return m;
}

START_TEST(test_configure_l3_choice)
{
	struct cache_model m = intel_model();
	struct cache_overrides none;
	memset(&none, 0, sizeof(none));
	char err[128] = "";
	ck_assert_int_eq(cache_model_configure(&m, &none, false, err, sizeof(err)), 0);
	ck_assert(!m.have_l3);
	/* L1d, L1i, L2. */
	ck_assert_uint_eq(cache_model_count(&m), 3);
	ck_assert_int_eq(cache_model_configure(&m, &none, true, err, sizeof(err)), 0);
	ck_assert(m.have_l3);
	/* L1d, L1i, L2, L3. */
	ck_assert_uint_eq(cache_model_count(&m), 4);
	/* No overrides: the host's sizes stay. */
	ck_assert_uint_eq(m.cache[CACHE_L1D].size, 48 << 10);
	ck_assert_uint_eq(m.cache[CACHE_L3].size, 30 << 20);
}
END_TEST

START_TEST(test_configure_overrides)
{
	struct cache_model m = intel_model();
	struct cache_overrides o;
	memset(&o, 0, sizeof(o));
	o.size[CACHE_L1D] = 64 << 10;
	o.size[CACHE_L1I] = 1024;        /* the smallest allowed */
	o.size[CACHE_L2] = 256 << 10;
	o.size[CACHE_L3] = 1ull << 30;   /* the largest allowed */
	char err[128] = "";
	ck_assert_msg(cache_model_configure(&m, &o, true, err, sizeof(err)) == 0, "%s", err);
	ck_assert_uint_eq(m.cache[CACHE_L1D].size, 64 << 10);
	ck_assert_uint_eq(m.cache[CACHE_L1I].size, 1024);
	ck_assert_uint_eq(m.cache[CACHE_L2].size, 256 << 10);
	ck_assert_uint_eq(m.cache[CACHE_L3].size, 1u << 30);
	/* Lines are the host's. */
	for (int i = 0; i < CACHE_COUNT; i++)
		ck_assert_uint_eq(m.cache[i].line, 64);
	/* The L2's 8 ways x 64 B = 512 divides 256 KiB: 8 ways, 512 sets. */
	ck_assert_uint_eq(m.cache[CACHE_L2].ways, 8);
	ck_assert_uint_eq(cache_sets(&m.cache[CACHE_L2]), 512);
	/* The L1i's 8 x 64 = 512 divides 1 KiB: 8 ways, 2 sets. */
	ck_assert_uint_eq(m.cache[CACHE_L1I].ways, 8);
	ck_assert_uint_eq(cache_sets(&m.cache[CACHE_L1I]), 2);
	/* The L1d's 12 x 64 = 768 does not divide 64 KiB (65536 = 85 x 768 +
	 * 256): some other associativity, with whole sets. Which one is the
	 * model's choice; it cannot be more than the host's 12. */
	ck_assert_uint_le(m.cache[CACHE_L1D].ways, 12);
	assert_whole_sets(&m);
	ck_assert(m.have_l3);
}
END_TEST

START_TEST(test_configure_rejects)
{
	/* Not a power of two, or outside [1K, 1G]. */
	static const uint64_t bad[] = { 1, 512, 1023, 1025, 3072, 48 << 10, 1536 << 10,
					(1ull << 30) + 1, 1ull << 31, 3ull << 30 };
	for (unsigned i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		for (int level = 0; level < CACHE_COUNT; level++) {
			struct cache_model m = intel_model();
			free(host);
			host = NULL;
			struct cache_overrides o;
			memset(&o, 0, sizeof(o));
			o.size[level] = bad[i];
			char err[128] = "";
			ck_assert_msg(cache_model_configure(&m, &o, false, err, sizeof(err)) == -1,
				      "cache %d size %llu accepted", level,
				      (unsigned long long)bad[i]);
			ck_assert_msg(err[0] != '\0', "no reason for %llu", (unsigned long long)bad[i]);
		}
	}
}
END_TEST

/* ---- sharing ---- */

static void assert_sharing(const struct topology *t, unsigned per_core, unsigned per_core_ids,
			   unsigned per_socket, unsigned per_socket_ids)
{
	struct cache_model m;
	host = unit_intel_host();
	cache_model_from_host(&m, host);
	free(host);
	host = NULL;
	for (int i = CACHE_L1D; i <= CACHE_L2; i++) {
		ck_assert_uint_eq(cache_sharing(&m.cache[i], t), per_core);
		ck_assert_uint_eq(cache_sharing_ids(&m.cache[i], t), per_core_ids);
	}
	ck_assert_uint_eq(cache_sharing(&m.cache[CACHE_L3], t), per_socket);
	ck_assert_uint_eq(cache_sharing_ids(&m.cache[CACHE_L3], t), per_socket_ids);
}

START_TEST(test_sharing)
{
	/* Per-core caches are shared by the core's threads, the L3 by the
	 * socket's threads * cores; the ID counts are 1 << smt_bits and
	 * 1 << package_shift. */
	struct topology t = topo(1, 1, 1);
	/* 1s1c1t: 1 thread, 0 bits -> 1 and 1; socket 1, shift 0 -> 1 and 1. */
	assert_sharing(&t, 1, 1, 1, 1);
	/* 1s4c1t: per core 1 and 1; socket 4, shift 2 -> 4 and 4. */
	t = topo(1, 4, 1);
	assert_sharing(&t, 1, 1, 4, 4);
	/* 1s3c1t: per core 1 and 1; socket 3 CPUs but shift 2 -> 3 and 4. */
	t = topo(1, 3, 1);
	assert_sharing(&t, 1, 1, 3, 4);
	/* 2s2c2t: per core 2 threads, 1 bit -> 2 and 2; socket 4, shift 2. */
	t = topo(2, 2, 2);
	assert_sharing(&t, 2, 2, 4, 4);
	/* 1s2c2t: the same per socket. */
	t = topo(1, 2, 2);
	assert_sharing(&t, 2, 2, 4, 4);
	/* 2s2c1t: per core 1 and 1; socket 2, shift 1 -> 2 and 2. */
	t = topo(2, 2, 1);
	assert_sharing(&t, 1, 1, 2, 2);
	/* 1s2c3t: per core 3 threads, 2 bits -> 3 and 4; socket 6, shift
	 * 2 + 1 = 3 -> 6 and 8. */
	t = topo(1, 2, 3);
	assert_sharing(&t, 3, 4, 6, 8);
	/* 2s3c2t: per core 2 and 2; socket 6, shift 1 + 2 = 3 -> 6 and 8. */
	t = topo(2, 3, 2);
	assert_sharing(&t, 2, 2, 6, 8);
}
END_TEST

Suite *cache_suite(void)
{
	Suite *s = suite_create("cache");
	TCase *tc = tcase_create("host");
	tcase_add_checked_fixture(tc, NULL, teardown);
	tcase_add_test(tc, test_intel_leaf4);
	tcase_add_test(tc, test_amd_8000001d);
	tcase_add_test(tc, test_amd_legacy_sizes);
	tcase_add_test(tc, test_amd_legacy_ways);
	tcase_add_test(tc, test_amd_no_cache_leaves);
	tcase_add_test(tc, test_intel_no_leaf4);
	tcase_add_test(tc, test_empty_table);
	tcase_add_test(tc, test_intel_leaf4_without_l3);
	suite_add_tcase(s, tc);
	tc = tcase_create("configure");
	tcase_add_checked_fixture(tc, NULL, teardown);
	tcase_add_test(tc, test_configure_l3_choice);
	tcase_add_test(tc, test_configure_overrides);
	tcase_add_test(tc, test_configure_rejects);
	tcase_add_test(tc, test_sharing);
	suite_add_tcase(s, tc);
	return s;
}
