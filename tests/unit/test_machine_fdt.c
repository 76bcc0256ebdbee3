/* machine and machine_fdt: the machine model decided from the config and
 * the host's CPUID (vendor, topology, caches, the L3 choice and its caveat),
 * and the FDT written from it, read back with libfdt. Host facts are
 * host_tables.h's. */
#include <libfdt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../vmm/layout.h"
#include "../../vmm/machine.h"
#include "../../vmm/machine_fdt.h"
#include "host_tables.h"
#include "suites.h"

#define FDT_BUF (256 * 1024)

static struct kvm_cpuid2 *host;
static void *fdt;

static void teardown(void)
{
	free(host);
	host = NULL;
	free(fdt);
	fdt = NULL;
}

static struct vm_config config(unsigned cpus, unsigned sockets, unsigned cores, unsigned threads,
			       enum l3_mode l3, enum vendor_choice vendor)
{
	struct vm_config cfg;
	config_init(&cfg);
	cfg.smp = (struct topology_request){ cpus, sockets, cores, threads };
	cfg.l3 = l3;
	cfg.vendor = vendor;
	return cfg;
}

static struct machine build(const struct vm_config *cfg)
{
	struct machine m;
	memset(&m, 0, sizeof(m));
	char err[CONFIG_ERR_MAX] = "";
	ck_assert_msg(machine_build(&m, cfg, host, err, sizeof(err)) == 0, "%s", err);
	return m;
}

static void assert_cache(const struct cache_desc *c, uint32_t size, uint32_t ways, uint32_t line)
{
	ck_assert_uint_eq(c->size, size);
	ck_assert_uint_eq(c->ways, ways);
	ck_assert_uint_eq(c->line, line);
}

/* ======================= machine_build ======================= */

START_TEST(test_build_intel_host)
{
	host = unit_intel_host();
	struct vm_config cfg = config(8, 2, 2, 2, L3_AUTO, VENDOR_HOST);
	cfg.mem_size = 512 * MiB;
	struct machine m = build(&cfg);
	/* Leaf 0 EBX "Genu": Intel. */
	ck_assert_int_eq(m.cpu.vendor, CPU_VENDOR_INTEL);
	ck_assert_uint_eq(m.mem_size, 512 * MiB);
	ck_assert_uint_eq(m.cpu.topo.sockets, 2);
	ck_assert_uint_eq(m.cpu.topo.cores, 2);
	ck_assert_uint_eq(m.cpu.topo.threads, 2);
	/* --l3-cache auto: off, and remembered as auto's choice. */
	ck_assert(!m.cpu.caches.have_l3);
	ck_assert(m.l3_auto);
	/* Leaf 4 of an Intel host: 48K 12w, 32K 8w, 1M 8w, 30M 15w, 64 B. */
	assert_cache(&m.cpu.caches.cache[CACHE_L1D], 48 << 10, 12, 64);
	assert_cache(&m.cpu.caches.cache[CACHE_L1I], 32 << 10, 8, 64);
	assert_cache(&m.cpu.caches.cache[CACHE_L2], 1 << 20, 8, 64);
	assert_cache(&m.cpu.caches.cache[CACHE_L3], 30 << 20, 15, 64);
}
END_TEST

START_TEST(test_build_amd_host)
{
	host = unit_amd_host();
	struct vm_config cfg = config(4, 0, 0, 0, L3_ON, VENDOR_HOST);
	struct machine m = build(&cfg);
	/* Leaf 0 EBX "Auth": AMD. */
	ck_assert_int_eq(m.cpu.vendor, CPU_VENDOR_AMD);
	/* cpus=4 alone: 1s4c1t. */
	ck_assert_uint_eq(m.cpu.topo.sockets, 1);
	ck_assert_uint_eq(m.cpu.topo.cores, 4);
	ck_assert_uint_eq(m.cpu.topo.threads, 1);
	/* L3 on, chosen by the user. */
	ck_assert(m.cpu.caches.have_l3);
	ck_assert(!m.l3_auto);
	/* 0x8000001D of an AMD host: 32K 8w, 64K 4w, 1M 8w, 32M 16w. */
	assert_cache(&m.cpu.caches.cache[CACHE_L1D], 32 << 10, 8, 64);
	assert_cache(&m.cpu.caches.cache[CACHE_L1I], 64 << 10, 4, 64);
	assert_cache(&m.cpu.caches.cache[CACHE_L2], 1 << 20, 8, 64);
	assert_cache(&m.cpu.caches.cache[CACHE_L3], 32 << 20, 16, 64);
}
END_TEST

START_TEST(test_build_forced_vendor)
{
	/* --cpu-vendor intel on the AMD host: Intel, but the host's caches are
	 * still read the AMD way (0x8000001D: the 64K 4-way L1i). */
	host = unit_amd_host();
	struct vm_config cfg = config(2, 0, 0, 0, L3_OFF, VENDOR_INTEL);
	struct machine m = build(&cfg);
	ck_assert_int_eq(m.cpu.vendor, CPU_VENDOR_INTEL);
	assert_cache(&m.cpu.caches.cache[CACHE_L1I], 64 << 10, 4, 64);
	ck_assert(!m.cpu.caches.have_l3);
	ck_assert(!m.l3_auto);
	free(host);
	/* --cpu-vendor amd on the Intel host: leaf 4's 48K 12-way L1d. */
	host = unit_intel_host();
	cfg = config(2, 0, 0, 0, L3_AUTO, VENDOR_AMD);
	m = build(&cfg);
	ck_assert_int_eq(m.cpu.vendor, CPU_VENDOR_AMD);
	assert_cache(&m.cpu.caches.cache[CACHE_L1D], 48 << 10, 12, 64);
	ck_assert(!m.cpu.caches.have_l3);
	ck_assert(m.l3_auto);
}
END_TEST

START_TEST(test_build_hygon_host)
{
	/* "HygonGenuine" follows AMD (cpuid_vendor): AMD's encodings, and the
	 * host's caches from its 0x8000001D like any AMD host. */
	host = unit_amd_host();
	struct kvm_cpuid_entry2 *e = unit_cpuid_get(host, 0, 0);
	e->ebx = HYGON_EBX;
	e->edx = HYGON_EDX;
	e->ecx = HYGON_ECX;
	struct vm_config cfg = config(2, 0, 0, 0, L3_ON, VENDOR_HOST);
	struct machine m = build(&cfg);
	ck_assert_int_eq(m.cpu.vendor, CPU_VENDOR_AMD);
	assert_cache(&m.cpu.caches.cache[CACHE_L1I], 64 << 10, 4, 64);
	assert_cache(&m.cpu.caches.cache[CACHE_L3], 32 << 20, 16, 64);
}
END_TEST

START_TEST(test_build_amd_legacy_and_defaults)
{
	/* An AMD host without 0x8000001D: sizes from 0x80000005/6 (16K L1d and
	 * L1i, 512K L2, 16M L3). */
	host = unit_amd_host();
	unit_cpuid_drop(host, 0x8000001d);
	struct vm_config cfg = config(1, 0, 0, 0, L3_ON, VENDOR_HOST);
	struct machine m = build(&cfg);
	ck_assert_uint_eq(m.cpu.caches.cache[CACHE_L1D].size, 16 << 10);
	ck_assert_uint_eq(m.cpu.caches.cache[CACHE_L1I].size, 16 << 10);
	ck_assert_uint_eq(m.cpu.caches.cache[CACHE_L2].size, 512 << 10);
	ck_assert_uint_eq(m.cpu.caches.cache[CACHE_L3].size, 16 << 20);
	/* And without those either: the fixed defaults. */
	unit_cpuid_drop(host, 0x80000005);
	unit_cpuid_drop(host, 0x80000006);
	m = build(&cfg);
	assert_cache(&m.cpu.caches.cache[CACHE_L1D], 32 << 10, 8, 64);
	assert_cache(&m.cpu.caches.cache[CACHE_L1I], 32 << 10, 8, 64);
	assert_cache(&m.cpu.caches.cache[CACHE_L2], 512 << 10, 8, 64);
	assert_cache(&m.cpu.caches.cache[CACHE_L3], 16 << 20, 16, 64);
}
END_TEST

START_TEST(test_build_overrides)
{
	host = unit_intel_host();
	struct vm_config cfg = config(2, 0, 0, 0, L3_ON, VENDOR_HOST);
	cfg.cache_sizes.size[CACHE_L2] = 256 << 10;
	cfg.cache_sizes.size[CACHE_L3] = 8 << 20;
	struct machine m = build(&cfg);
	/* 256 KiB over 8 ways x 64 B = 512 sets; 8 MiB over 15 x 64 = 960 does
	 * not divide, so only the size is pinned, with whole sets. */
	assert_cache(&m.cpu.caches.cache[CACHE_L2], 256 << 10, 8, 64);
	const struct cache_desc *l3 = &m.cpu.caches.cache[CACHE_L3];
	ck_assert_uint_eq(l3->size, 8 << 20);
	ck_assert_uint_eq((uint64_t)cache_sets(l3) * l3->ways * l3->line, 8 << 20);
	/* Untouched levels stay the host's. */
	assert_cache(&m.cpu.caches.cache[CACHE_L1D], 48 << 10, 12, 64);
}
END_TEST

START_TEST(test_build_errors)
{
	host = unit_intel_host();
	struct machine m;
	char err[CONFIG_ERR_MAX];
	/* 2 * 2 * 1 != 8. */
	struct vm_config cfg = config(8, 2, 2, 1, L3_AUTO, VENDOR_HOST);
	err[0] = '\0';
	ck_assert_int_eq(machine_build(&m, &cfg, host, err, sizeof(err)), -1);
	ck_assert(err[0] != '\0');
	/* 6 cpus in 4 sockets. */
	cfg = config(6, 4, 0, 0, L3_AUTO, VENDOR_HOST);
	err[0] = '\0';
	ck_assert_int_eq(machine_build(&m, &cfg, host, err, sizeof(err)), -1);
	ck_assert(err[0] != '\0');
	/* A cache size that is not a power of two. */
	cfg = config(2, 0, 0, 0, L3_AUTO, VENDOR_HOST);
	cfg.cache_sizes.size[CACHE_L1D] = 48 << 10;
	err[0] = '\0';
	ck_assert_int_eq(machine_build(&m, &cfg, host, err, sizeof(err)), -1);
	ck_assert(err[0] != '\0');
}
END_TEST

/* ======================= machine_l3_caveat ======================= */

/* The caveat for the AMD host with leaf 1 EAX = `eax`. */
static const char *caveat(uint32_t eax, enum vendor_choice vendor, enum l3_mode l3)
{
	free(host);
	host = unit_amd_host();
	unit_cpuid_get(host, 1, 0)->eax = eax;
	struct vm_config cfg = config(4, 0, 0, 0, l3, vendor);
	struct machine m = build(&cfg);
	return machine_l3_caveat(&m, host);
}

/* Leaf 1 EAX: family = base [11:8] + extended [27:20] when base is 0xF;
 * model = base [7:4] | extended [19:16] << 4 (SDM vol. 2A 3.2 / APM E.3.2). */
#define FMS(fam_ext, model_ext, model, stepping)                                        \
	(((uint32_t)(fam_ext) << 20) | ((uint32_t)(model_ext) << 16) | (0xfu << 8) |     \
	 ((uint32_t)(model) << 4) | (stepping))

START_TEST(test_caveat_zen1)
{
	/* Family 0xF + 8 = 17h. Model 01h (Naples): EAX 0x00800f12. */
	ck_assert_ptr_nonnull(caveat(FMS(8, 0, 1, 2), VENDOR_HOST, L3_OFF));
	/* Auto is off too. */
	ck_assert_ptr_nonnull(caveat(FMS(8, 0, 1, 2), VENDOR_HOST, L3_AUTO));
	/* Model 08h (Zen+), 11h, 18h, and the last of the range, 1Fh. */
	ck_assert_ptr_nonnull(caveat(FMS(8, 0, 8, 2), VENDOR_AMD, L3_OFF));
	ck_assert_ptr_nonnull(caveat(FMS(8, 1, 1, 0), VENDOR_HOST, L3_OFF));
	ck_assert_ptr_nonnull(caveat(FMS(8, 1, 8, 1), VENDOR_HOST, L3_OFF));
	ck_assert_ptr_nonnull(caveat(FMS(8, 1, 0xf, 0), VENDOR_HOST, L3_OFF));
}
END_TEST

START_TEST(test_caveat_older_families)
{
	/* 10h (0xF + 1), 15h (0xF + 6), 16h (0xF + 7): before 17h. */
	ck_assert_ptr_nonnull(caveat(FMS(1, 0, 4, 2), VENDOR_HOST, L3_OFF));
	ck_assert_ptr_nonnull(caveat(FMS(6, 0, 1, 2), VENDOR_HOST, L3_OFF));
	ck_assert_ptr_nonnull(caveat(FMS(7, 3, 0, 1), VENDOR_HOST, L3_OFF));
	/* Family 0Fh itself (K8, extended family 0). */
	ck_assert_ptr_nonnull(caveat(FMS(0, 4, 3, 2), VENDOR_HOST, L3_OFF));
}
END_TEST

START_TEST(test_caveat_not_needed)
{
	/* Family 17h model 20h (first past the range), 31h (Rome), 71h. */
	ck_assert_ptr_null(caveat(FMS(8, 2, 0, 1), VENDOR_HOST, L3_OFF));
	ck_assert_ptr_null(caveat(FMS(8, 3, 1, 0), VENDOR_HOST, L3_OFF));
	ck_assert_ptr_null(caveat(FMS(8, 7, 1, 0), VENDOR_HOST, L3_OFF));
	/* Family 18h (0xF + 9), 19h (0xF + 0xA, the host table's 0x00a20f10),
	 * 1Ah (0xF + 0xB). */
	ck_assert_ptr_null(caveat(FMS(9, 0, 0, 2), VENDOR_HOST, L3_OFF));
	ck_assert_ptr_null(caveat(0x00a20f10, VENDOR_HOST, L3_OFF));
	ck_assert_ptr_null(caveat(FMS(0xb, 0, 2, 0), VENDOR_HOST, L3_OFF));
	/* The L3 on: nothing to warn about, whatever the family. */
	ck_assert_ptr_null(caveat(FMS(8, 0, 1, 2), VENDOR_HOST, L3_ON));
	ck_assert_ptr_null(caveat(FMS(6, 0, 1, 2), VENDOR_HOST, L3_ON));
	/* An Intel guest: Linux reads leaf 4, no caveat. */
	ck_assert_ptr_null(caveat(FMS(8, 0, 1, 2), VENDOR_INTEL, L3_OFF));
	ck_assert_ptr_null(caveat(FMS(6, 0, 1, 2), VENDOR_INTEL, L3_OFF));
}
END_TEST

START_TEST(test_caveat_single_core_sockets)
{
	/* 4s1c1t on family 17h model 01h with the L3 off: APIC IDs 0-3 (no SMT
	 * or core bits), so Linux's APIC ID >> 3 puts all four sockets' CPUs in
	 * one LLC: the caveat applies (the L3 is off, family 17h model <= 1Fh). */
	free(host);
	host = unit_amd_host();
	unit_cpuid_get(host, 1, 0)->eax = FMS(8, 0, 1, 2);
	struct vm_config cfg = config(4, 4, 1, 1, L3_OFF, VENDOR_HOST);
	struct machine m = build(&cfg);
	ck_assert_ptr_nonnull(machine_l3_caveat(&m, host));
}
END_TEST

START_TEST(test_caveat_amd_guest_on_intel_host)
{
	/* --cpu-vendor amd on an Intel host keeps the host's family 6 in leaf 1:
	 * an AMD family before 17h to the guest, so the caveat applies. */
	host = unit_intel_host();
	struct vm_config cfg = config(4, 0, 0, 0, L3_OFF, VENDOR_AMD);
	struct machine m = build(&cfg);
	ck_assert_ptr_nonnull(machine_l3_caveat(&m, host));
	/* And not for the Intel guest on the same host. */
	cfg = config(4, 0, 0, 0, L3_OFF, VENDOR_HOST);
	m = build(&cfg);
	ck_assert_ptr_null(machine_l3_caveat(&m, host));
}
END_TEST

/* ======================= machine_fdt_build ======================= */

static uint8_t ram_stub[1]; /* guest_mem_layout only does address arithmetic */

/* The FDT for the given shape on the current host. */
static struct machine build_fdt(unsigned sockets, unsigned cores, unsigned threads,
				enum l3_mode l3, enum vendor_choice vendor, uint64_t mem_size)
{
	struct vm_config cfg = config(sockets * cores * threads, sockets, cores, threads, l3,
				      vendor);
	cfg.mem_size = mem_size;
	struct machine m = build(&cfg);
	struct guest_mem mem;
	ck_assert(guest_mem_layout(&mem, ram_stub, mem_size));
	fdt = malloc(FDT_BUF);
	ck_assert_ptr_nonnull(fdt);
	int size = machine_fdt_build(&m, &mem, fdt, FDT_BUF);
	ck_assert_int_gt(size, 0);
	ck_assert_int_eq(fdt_check_header(fdt), 0);
	ck_assert_int_eq((int)fdt_totalsize(fdt), size);
	return m;
}

static int node(const char *path)
{
	int off = fdt_path_offset(fdt, path);
	ck_assert_msg(off >= 0, "%s: %s", path, fdt_strerror(off));
	return off;
}

static uint32_t prop_u32(int off, const char *name)
{
	int len = 0;
	const fdt32_t *p = fdt_getprop(fdt, off, name, &len);
	ck_assert_msg(p != NULL, "%s/%s missing", fdt_get_name(fdt, off, NULL), name);
	ck_assert_msg(len == 4, "%s/%s: %d bytes", fdt_get_name(fdt, off, NULL), name, len);
	return fdt32_to_cpu(*p);
}

static void prop_str(int off, const char *name, const char *want)
{
	int len = 0;
	const char *p = fdt_getprop(fdt, off, name, &len);
	ck_assert_msg(p != NULL, "%s missing", name);
	ck_assert_int_eq(len, (int)strlen(want) + 1);
	ck_assert_str_eq(p, want);
}

static bool has_prop(int off, const char *name)
{
	return fdt_getprop(fdt, off, name, NULL) != NULL;
}

/* Nodes anywhere in the tree whose name starts with `prefix`. */
static unsigned count_nodes(const char *prefix)
{
	unsigned n = 0;
	for (int off = fdt_next_node(fdt, -1, NULL); off >= 0; off = fdt_next_node(fdt, off, NULL))
		if (strncmp(fdt_get_name(fdt, off, NULL), prefix, strlen(prefix)) == 0)
			n++;
	return n;
}

/* The node next-level-cache of `off` points at, by phandle. */
static int next_level(int off)
{
	uint32_t ph = prop_u32(off, "next-level-cache");
	int target = fdt_node_offset_by_phandle(fdt, ph);
	ck_assert_msg(target >= 0, "phandle %u: %s", ph, fdt_strerror(target));
	return target;
}

/* Host cache facts for the FDT, per level: size, line, sets. */
struct fdt_caches {
	uint32_t size[CACHE_COUNT], line[CACHE_COUNT], sets[CACHE_COUNT];
};

/* Intel host: L1d 48K / 64 B / 64 sets, L1i 32K / 64 / 64, L2 1M / 64 /
 * 2048, L3 30M / 64 / 32768. */
static const struct fdt_caches intel_caches = {
	{ 48 << 10, 32 << 10, 1 << 20, 30 << 20 }, { 64, 64, 64, 64 }, { 64, 64, 2048, 32768 }
};
/* AMD host: L1d 32K / 64 / 64, L1i 64K / 64 / 256, L2 1M / 64 / 2048,
 * L3 32M / 64 / 32768. */
static const struct fdt_caches amd_caches = {
	{ 32 << 10, 64 << 10, 1 << 20, 32 << 20 }, { 64, 64, 64, 64 }, { 64, 256, 2048, 32768 }
};

/* Everything about the CPUs and caches, for vCPUs with the given APIC IDs
 * and (socket, core, thread) positions. */
static void check_cpus(unsigned sockets, unsigned cores, unsigned threads, bool l3,
		       const uint32_t *apic, const unsigned (*pos)[3], const struct fdt_caches *k)
{
	unsigned cpus = sockets * cores * threads;
	int cpus_off = node("/cpus");
	ck_assert_uint_eq(prop_u32(cpus_off, "vmm,sockets"), sockets);
	ck_assert_uint_eq(prop_u32(cpus_off, "vmm,cores"), cores);
	ck_assert_uint_eq(prop_u32(cpus_off, "vmm,threads"), threads);
	/* One cpu node per vCPU, one L2 per core, one L3 per socket if on. */
	ck_assert_uint_eq(count_nodes("cpu@"), cpus);
	ck_assert_uint_eq(count_nodes("l2-cache-"), sockets * cores);
	ck_assert_uint_eq(count_nodes("l3-cache-"), l3 ? sockets : 0);
	for (unsigned i = 0; i < cpus; i++) {
		char path[64], name[40];
		snprintf(path, sizeof(path), "/cpus/cpu@%x", apic[i]);
		int off = node(path);
		ck_assert_uint_eq(prop_u32(off, "reg"), apic[i]);
		ck_assert_uint_eq(prop_u32(off, "vmm,socket"), pos[i][0]);
		ck_assert_uint_eq(prop_u32(off, "vmm,core"), pos[i][1]);
		ck_assert_uint_eq(prop_u32(off, "vmm,thread"), pos[i][2]);
		ck_assert_uint_eq(prop_u32(off, "d-cache-size"), k->size[CACHE_L1D]);
		ck_assert_uint_eq(prop_u32(off, "d-cache-line-size"), k->line[CACHE_L1D]);
		ck_assert_uint_eq(prop_u32(off, "d-cache-sets"), k->sets[CACHE_L1D]);
		ck_assert_uint_eq(prop_u32(off, "i-cache-size"), k->size[CACHE_L1I]);
		ck_assert_uint_eq(prop_u32(off, "i-cache-line-size"), k->line[CACHE_L1I]);
		ck_assert_uint_eq(prop_u32(off, "i-cache-sets"), k->sets[CACHE_L1I]);
		/* Its core's L2. */
		int l2 = next_level(off);
		snprintf(name, sizeof(name), "l2-cache-%u-%u", pos[i][0], pos[i][1]);
		ck_assert_str_eq(fdt_get_name(fdt, l2, NULL), name);
		ck_assert_uint_eq(prop_u32(l2, "cache-level"), 2);
		ck_assert(has_prop(l2, "cache-unified"));
		ck_assert_uint_eq(prop_u32(l2, "cache-size"), k->size[CACHE_L2]);
		ck_assert_uint_eq(prop_u32(l2, "cache-line-size"), k->line[CACHE_L2]);
		ck_assert_uint_eq(prop_u32(l2, "cache-sets"), k->sets[CACHE_L2]);
		if (!l3) {
			ck_assert_msg(!has_prop(l2, "next-level-cache"), "%s -> L3 with the L3 off",
				      name);
			continue;
		}
		/* Its socket's L3. */
		int l3_off = next_level(l2);
		snprintf(name, sizeof(name), "l3-cache-%u", pos[i][0]);
		ck_assert_str_eq(fdt_get_name(fdt, l3_off, NULL), name);
		ck_assert_uint_eq(prop_u32(l3_off, "cache-level"), 3);
		ck_assert(has_prop(l3_off, "cache-unified"));
		ck_assert_uint_eq(prop_u32(l3_off, "cache-size"), k->size[CACHE_L3]);
		ck_assert_uint_eq(prop_u32(l3_off, "cache-line-size"), k->line[CACHE_L3]);
		ck_assert_uint_eq(prop_u32(l3_off, "cache-sets"), k->sets[CACHE_L3]);
	}
}

static void check_root(const char *vendor, const char *l3)
{
	int root = node("/");
	ck_assert_uint_eq(prop_u32(root, "#address-cells"), 2);
	ck_assert_uint_eq(prop_u32(root, "#size-cells"), 2);
	prop_str(root, "vmm,cpu-vendor", vendor);
	prop_str(root, "vmm,l3-cache", l3);
}

/* memory@0 reg: (address, size) pairs of two cells each. */
static void check_memory(const uint64_t *regions, unsigned n)
{
	int off = node("/memory@0");
	prop_str(off, "device_type", "memory");
	int len = 0;
	const fdt64_t *reg = fdt_getprop(fdt, off, "reg", &len);
	ck_assert_ptr_nonnull(reg);
	ck_assert_int_eq(len, (int)(n * 2 * sizeof(fdt64_t)));
	for (unsigned i = 0; i < 2 * n; i++)
		ck_assert_msg(fdt64_to_cpu(reg[i]) == regions[i], "reg[%u] = %#llx, expected %#llx",
			      i, (unsigned long long)fdt64_to_cpu(reg[i]),
			      (unsigned long long)regions[i]);
}

START_TEST(test_fdt_1s1c1t)
{
	host = unit_intel_host();
	build_fdt(1, 1, 1, L3_ON, VENDOR_HOST, 256 * MiB);
	check_root("GenuineIntel", "on");
	static const uint32_t apic[] = { 0 };
	static const unsigned pos[][3] = { { 0, 0, 0 } };
	check_cpus(1, 1, 1, true, apic, pos, &intel_caches);
	/* 256 MiB: one region at 0. */
	static const uint64_t mem[] = { 0, 256 * MiB };
	check_memory(mem, 1);
}
END_TEST

START_TEST(test_fdt_1s4c1t_l3_on)
{
	host = unit_intel_host();
	build_fdt(1, 4, 1, L3_ON, VENDOR_HOST, 256 * MiB);
	check_root("GenuineIntel", "on");
	/* Core bits 2: APIC ID = core. */
	static const uint32_t apic[] = { 0, 1, 2, 3 };
	static const unsigned pos[][3] = { { 0, 0, 0 }, { 0, 1, 0 }, { 0, 2, 0 }, { 0, 3, 0 } };
	check_cpus(1, 4, 1, true, apic, pos, &intel_caches);
}
END_TEST

START_TEST(test_fdt_1s4c1t_l3_off)
{
	host = unit_intel_host();
	build_fdt(1, 4, 1, L3_OFF, VENDOR_HOST, 256 * MiB);
	check_root("GenuineIntel", "off");
	static const uint32_t apic[] = { 0, 1, 2, 3 };
	static const unsigned pos[][3] = { { 0, 0, 0 }, { 0, 1, 0 }, { 0, 2, 0 }, { 0, 3, 0 } };
	check_cpus(1, 4, 1, false, apic, pos, &intel_caches);
}
END_TEST

START_TEST(test_fdt_2s2c2t)
{
	host = unit_amd_host();
	build_fdt(2, 2, 2, L3_ON, VENDOR_HOST, 256 * MiB);
	check_root("AuthenticAMD", "on");
	/* vCPU i = socket i/4, core (i/2)%2, thread i%2; APIC (s<<2)|(c<<1)|t = i. */
	static const uint32_t apic[] = { 0, 1, 2, 3, 4, 5, 6, 7 };
	static const unsigned pos[][3] = { { 0, 0, 0 }, { 0, 0, 1 }, { 0, 1, 0 }, { 0, 1, 1 },
					   { 1, 0, 0 }, { 1, 0, 1 }, { 1, 1, 0 }, { 1, 1, 1 } };
	check_cpus(2, 2, 2, true, apic, pos, &amd_caches);
	/* The two threads of a core share one L2 node; other cores do not. */
	int a = next_level(node("/cpus/cpu@4")), b = next_level(node("/cpus/cpu@5")),
	    c = next_level(node("/cpus/cpu@6")), d = next_level(node("/cpus/cpu@0"));
	ck_assert_int_eq(a, b);
	ck_assert_int_ne(a, c);
	ck_assert_int_ne(a, d);
	/* The L2s of one socket share its L3; the other socket's do not. */
	ck_assert_int_eq(next_level(a), next_level(c));
	ck_assert_int_ne(next_level(a), next_level(d));
}
END_TEST

START_TEST(test_fdt_1s3c1t)
{
	host = unit_amd_host();
	build_fdt(1, 3, 1, L3_OFF, VENDOR_HOST, 256 * MiB);
	check_root("AuthenticAMD", "off");
	static const uint32_t apic[] = { 0, 1, 2 };
	static const unsigned pos[][3] = { { 0, 0, 0 }, { 0, 1, 0 }, { 0, 2, 0 } };
	check_cpus(1, 3, 1, false, apic, pos, &amd_caches);
}
END_TEST

START_TEST(test_fdt_2s3c1t)
{
	host = unit_intel_host();
	build_fdt(2, 3, 1, L3_ON, VENDOR_AMD, 256 * MiB);
	/* Forced AMD: the vendor is the guest's. */
	check_root("AuthenticAMD", "on");
	/* Core bits 2, socket 1 from 4: cpu@0 1 2 4 5 6, no cpu@3. */
	static const uint32_t apic[] = { 0, 1, 2, 4, 5, 6 };
	static const unsigned pos[][3] = { { 0, 0, 0 }, { 0, 1, 0 }, { 0, 2, 0 },
					   { 1, 0, 0 }, { 1, 1, 0 }, { 1, 2, 0 } };
	check_cpus(2, 3, 1, true, apic, pos, &intel_caches);
	ck_assert_int_lt(fdt_path_offset(fdt, "/cpus/cpu@3"), 0);
}
END_TEST

START_TEST(test_fdt_1s2c2t)
{
	host = unit_intel_host();
	build_fdt(1, 2, 2, L3_ON, VENDOR_HOST, 256 * MiB);
	static const uint32_t apic[] = { 0, 1, 2, 3 };
	static const unsigned pos[][3] = { { 0, 0, 0 }, { 0, 0, 1 }, { 0, 1, 0 }, { 0, 1, 1 } };
	check_cpus(1, 2, 2, true, apic, pos, &intel_caches);
}
END_TEST

START_TEST(test_fdt_2s2c1t)
{
	host = unit_intel_host();
	build_fdt(2, 2, 1, L3_OFF, VENDOR_HOST, 256 * MiB);
	static const uint32_t apic[] = { 0, 1, 2, 3 };
	static const unsigned pos[][3] = { { 0, 0, 0 }, { 0, 1, 0 }, { 1, 0, 0 }, { 1, 1, 0 } };
	check_cpus(2, 2, 1, false, apic, pos, &intel_caches);
}
END_TEST

START_TEST(test_fdt_2s3c2t_hex_names)
{
	host = unit_intel_host();
	build_fdt(2, 3, 2, L3_ON, VENDOR_HOST, 256 * MiB);
	/* APIC IDs 0-5, 8-13: the node names are hex, cpu@a .. cpu@d. */
	static const uint32_t apic[] = { 0, 1, 2, 3, 4, 5, 8, 9, 10, 11, 12, 13 };
	static const unsigned pos[][3] = { { 0, 0, 0 }, { 0, 0, 1 }, { 0, 1, 0 }, { 0, 1, 1 },
					   { 0, 2, 0 }, { 0, 2, 1 }, { 1, 0, 0 }, { 1, 0, 1 },
					   { 1, 1, 0 }, { 1, 1, 1 }, { 1, 2, 0 }, { 1, 2, 1 } };
	check_cpus(2, 3, 2, true, apic, pos, &intel_caches);
	ck_assert_int_ge(fdt_path_offset(fdt, "/cpus/cpu@d"), 0);
	ck_assert_int_lt(fdt_path_offset(fdt, "/cpus/cpu@13"), 0);
}
END_TEST

START_TEST(test_fdt_memory_above_4g)
{
	host = unit_intel_host();
	/* 4 GiB: 3 GiB below the MMIO hole at 0xC0000000, the other 1 GiB from
	 * 4 GiB. */
	build_fdt(1, 1, 1, L3_OFF, VENDOR_HOST, 4 * GiB);
	static const uint64_t four[] = { 0, 3 * GiB, 4 * GiB, 1 * GiB };
	check_memory(four, 2);
	free(fdt);
	fdt = NULL;
	/* 4 GiB + 1 GiB: 3 GiB low, 2 GiB from 4 GiB. */
	build_fdt(1, 1, 1, L3_OFF, VENDOR_HOST, 5 * GiB);
	static const uint64_t five[] = { 0, 3 * GiB, 4 * GiB, 2 * GiB };
	check_memory(five, 2);
}
END_TEST

START_TEST(test_fdt_buffer_too_small)
{
	host = unit_intel_host();
	struct machine m = build_fdt(2, 2, 2, L3_ON, VENDOR_HOST, 4 * GiB);
	int full = (int)fdt_totalsize(fdt);
	struct guest_mem mem;
	ck_assert(guest_mem_layout(&mem, ram_stub, 4 * GiB));
	/* Every size below the blob's fails; exact-size heap buffers so that a
	 * write (or read) past the end shows under ASan. */
	static const size_t sizes[] = { 1, 4, 8, 39, 40, 64, 128, 512, 1024 };
	for (unsigned i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		void *buf = calloc(1, sizes[i]);
		ck_assert_ptr_nonnull(buf);
		int rc = machine_fdt_build(&m, &mem, buf, sizes[i]);
		free(buf);
		ck_assert_msg(rc == -1, "%zu bytes: %d", sizes[i], rc);
	}
	void *buf = calloc(1, (size_t)full - 1);
	ck_assert_ptr_nonnull(buf);
	int rc = machine_fdt_build(&m, &mem, buf, (size_t)full - 1);
	free(buf);
	ck_assert_int_eq(rc, -1);
	/* Exactly the size is enough, and gives the same blob. */
	buf = calloc(1, (size_t)full);
	ck_assert_ptr_nonnull(buf);
	rc = machine_fdt_build(&m, &mem, buf, (size_t)full);
	int same = rc == full && memcmp(buf, fdt, (size_t)full) == 0;
	free(buf);
	ck_assert_int_eq(rc, full);
	ck_assert(same);
}
END_TEST

Suite *machine_fdt_suite(void)
{
	Suite *s = suite_create("machine_fdt");
	TCase *tc = tcase_create("build");
	tcase_add_checked_fixture(tc, NULL, teardown);
	tcase_add_test(tc, test_build_intel_host);
	tcase_add_test(tc, test_build_amd_host);
	tcase_add_test(tc, test_build_forced_vendor);
	tcase_add_test(tc, test_build_hygon_host);
	tcase_add_test(tc, test_build_amd_legacy_and_defaults);
	tcase_add_test(tc, test_build_overrides);
	tcase_add_test(tc, test_build_errors);
	suite_add_tcase(s, tc);
	tc = tcase_create("l3_caveat");
	tcase_add_checked_fixture(tc, NULL, teardown);
	tcase_add_test(tc, test_caveat_zen1);
	tcase_add_test(tc, test_caveat_older_families);
	tcase_add_test(tc, test_caveat_not_needed);
	tcase_add_test(tc, test_caveat_single_core_sockets);
	tcase_add_test(tc, test_caveat_amd_guest_on_intel_host);
	suite_add_tcase(s, tc);
	tc = tcase_create("fdt");
	tcase_add_checked_fixture(tc, NULL, teardown);
	tcase_add_test(tc, test_fdt_1s1c1t);
	tcase_add_test(tc, test_fdt_1s4c1t_l3_on);
	tcase_add_test(tc, test_fdt_1s4c1t_l3_off);
	tcase_add_test(tc, test_fdt_2s2c2t);
	tcase_add_test(tc, test_fdt_1s3c1t);
	tcase_add_test(tc, test_fdt_2s3c1t);
	tcase_add_test(tc, test_fdt_1s2c2t);
	tcase_add_test(tc, test_fdt_2s2c1t);
	tcase_add_test(tc, test_fdt_2s3c2t_hex_names);
	tcase_add_test(tc, test_fdt_memory_above_4g);
	tcase_add_test(tc, test_fdt_buffer_too_small);
	suite_add_tcase(s, tc);
	return s;
}
