/* cpuid-topo: on every CPU, the topology and caches CPUID describes against
 * the machine the VMM's flattened device tree describes (the expected side;
 * lib/topo.h has the schema), found through the test-device parameters
 * fdt_addr and fdt_size. Reports cpus_checked, llc_level and llc_sharing
 * (the CPUs sharing the last-level cache with CPU 0, itself included).
 *
 * References: Intel SDM vol. 2A, CPUID (leaves 01H, 04H, 0BH, 1FH); AMD APM
 * vol. 3, appendix E (Fn8000_0001, _0005, _0006, _0008, _001D, _001E).
 * Notation: CPUID.(leaf,subleaf):REG[bits]; order(n) = ceil(log2(n)). */
#include "check.h"
#include "cpuid.h"
#include "libguest.h"
#include "topo.h"

#define BOOT_TIMEOUT_MS 2000
#define STRAGGLER_MS 100 /* after the last expected CPU: does anyone else come? */
#define FDT_COPY_MAX 0x10000
#define SUBLEAVES 8 /* read of leaves 04H, 0BH, 1FH and 8000001DH */

/* What CPUID says on one CPU, read there and checked on the BSP. */
struct cpu_regs {
	uint32_t x2apic_id; /* MSR 0x802 */
	struct cpuid l0, l1, l4[SUBLEAVES], lb[SUBLEAVES], l1f[SUBLEAVES];
	struct cpuid e0, e1, e5, e6, e8, e1d[SUBLEAVES], e1e;
};

static uint8_t fdt_copy[FDT_COPY_MAX] __attribute__((aligned(8)));
static struct topo topo;
static struct cpu_regs regs[MAX_CPUS]; /* by the runtime's CPU index */
static int node_of[MAX_CPUS];	       /* regs[i] is topo.cpu[node_of[i]]'s; -1: none */
static unsigned ncpus;		       /* CPUs online */

/* From /cpus: threads per core, cores per socket, logical processors per
 * package, and the x2APIC ID's fields (SDM vol. 3A, "hierarchical mapping
 * of shared resources", and leaf 0BH): the thread in bits [smt_width-1:0],
 * the core in the core_width bits above, the package from package_shift
 * up; each field as wide as its count needs, order(count). */
static uint32_t threads, cores, per_package;
static unsigned smt_width, core_width, package_shift;
static uint32_t cache_leaf; /* 4, 0x8000001d (AMD with TopoExt) or 0: none checked */

static uint32_t mask(unsigned width)
{
	return (uint32_t)((1ULL << width) - 1);
}

static void read_cpuid(void *data)
{
	struct cpu_regs *r = data;
	r->x2apic_id = apic_id();
	r->l0 = cpuid(0);
	r->l1 = cpuid(1);
	r->e0 = cpuid(0x80000000);
	r->e1 = cpuid(0x80000001);
	r->e5 = cpuid(0x80000005);
	r->e6 = cpuid(0x80000006);
	r->e8 = cpuid(0x80000008);
	r->e1e = cpuid(0x8000001e);
	for (uint32_t n = 0; n < SUBLEAVES; n++) {
		r->l4[n] = cpuid_count(4, n);
		r->lb[n] = cpuid_count(0xb, n);
		r->l1f[n] = cpuid_count(0x1f, n);
		r->e1d[n] = cpuid_count(0x8000001d, n);
	}
}

/* Brings up `cpus` CPUs (the FDT's count if nobody says), reads CPUID on
 * each, and pairs each with the cpu node whose reg is its x2APIC ID.
 * Returns how many were paired. */
static unsigned bring_up(void)
{
	uint64_t want = testdev_param("cpus", topo.ncpus);
	smp_boot((unsigned)want, NULL, BOOT_TIMEOUT_MS);
	mdelay(STRAGGLER_MS);
	ncpus = smp_cpus_online();
	unsigned started = smp_cpus_started(), paired = 0;
	report(ncpus == topo.ncpus && started == ncpus,
	       "CPUs: %u online (%u started), %u cpu nodes", ncpus, started, topo.ncpus);
	check_begin("every CPU has a cpu node of its own, reg = its x2APIC ID");
	uint64_t seen = 0;
	for (unsigned i = 0; i < ncpus; i++) {
		node_of[i] = -1;
		check_item("CPU %u", i);
		if (!check_that(on_cpu(i, read_cpuid, &regs[i]), "not running on_cpu() calls"))
			continue;
		int k = topo_cpu_by_apic(&topo, regs[i].x2apic_id);
		if (check_that(k >= 0, "no cpu node has reg <%u>", regs[i].x2apic_id) &&
		    check_that(!(seen & (1ULL << k)), "a second CPU with x2APIC ID %u",
			       regs[i].x2apic_id)) {
			seen |= 1ULL << k;
			node_of[i] = k;
			paired++;
		}
	}
	check_end();
	return paired;
}

typedef void check_fn(const struct cpu_regs *r, const struct topo_cpu *c);

/* One report line: fn's expectations on every CPU paired with a node. */
static void check_cpus(const char *what, check_fn *fn)
{
	check_begin(what);
	for (unsigned i = 0; i < ncpus; i++)
		if (node_of[i] >= 0) {
			check_item("x2APIC ID %u", regs[i].x2apic_id);
			fn(&regs[i], &topo.cpu[node_of[i]]);
		}
	check_end();
}

static void check_vendor(const struct cpu_regs *r, const struct topo_cpu *c)
{
	(void)c;
	char v[13];
	cpuid_vendor(r->l0, v);
	check_that(!strcmp(v, topo.vendor), "CPUID.(0,0) says \"%s\", vmm,cpu-vendor \"%s\"", v,
		   topo.vendor);
}

/* CPUID.(1,0) (SDM table 3-8; APM Fn0000_0001): EBX[31:24] is the initial APIC
 * ID, the x2APIC ID's low 8 bits. EDX[28] HTT makes EBX[23:16] valid and
 * must be set when a package has more than one logical processor; EBX[23:16]
 * then counts the package's addressable logical processor IDs: at least its
 * logical processors, and its next power of two is the number of APIC IDs a
 * package spans (SDM), 1 << package_shift. */
static void check_leaf1(const struct cpu_regs *r, const struct topo_cpu *c)
{
	check_eq(r->l1.b >> 24, c->apic_id & 0xff, "CPUID.(1,0):EBX[31:24] (initial APIC ID)");
	bool htt = r->l1.d & CPUID_01_EDX_HTT;
	uint32_t ids = (r->l1.b >> 16) & 0xff;
	if (per_package > 1)
		check_that(
			htt,
			"CPUID.(1,0):EDX[28] (HTT) is clear, with %u logical processors a package",
			per_package);
	if (htt)
		check_that(ids >= per_package && topo_order(ids) == package_shift,
			   "CPUID.(1,0):EBX[23:16] is %u, expected at least %u, rounding up to %u",
			   ids, per_package, 1u << package_shift);
}

/* CPUID.0BH and 1FH (lib/cpuid.h). Expected, as the schema has no die or
 * module level: subleaf 0 SMT, shift order(threads), threads; subleaf 1
 * core, shift order(threads) + order(cores), threads * cores (SDM: "the
 * number of logical processors" at the level, here per package); subleaf 2
 * the invalid type 0 that ends the list; EDX the x2APIC ID on all three. */
static void check_ext_topology(uint32_t leaf, const struct cpuid *sub, uint32_t x2apic_id)
{
	const uint32_t type[3] = { CPUID_LEVEL_SMT, CPUID_LEVEL_CORE, CPUID_LEVEL_INVALID };
	const uint32_t shift[2] = { smt_width, package_shift }, count[2] = { threads, per_package };
	for (uint32_t n = 0; n < 3; n++) {
		struct cpuid_topo_level l = cpuid_topo_level(sub[n]);
		check_eq(l.type, type[n], "CPUID.(%XH,%u):ECX[15:8] (level type)", leaf, n);
		check_eq(l.number, n, "CPUID.(%XH,%u):ECX[7:0] (level number)", leaf, n);
		check_eq(l.x2apic_id, x2apic_id, "CPUID.(%XH,%u):EDX (x2APIC ID)", leaf, n);
		if (n < 2) {
			check_eq(l.shift, shift[n], "CPUID.(%XH,%u):EAX[4:0] (shift)", leaf, n);
			check_eq(l.count, count[n], "CPUID.(%XH,%u):EBX[15:0] (logical processors)",
				 leaf, n);
		}
	}
}

static void check_leaf_b(const struct cpu_regs *r, const struct topo_cpu *c)
{
	(void)c;
	check_ext_topology(0xb, r->lb, r->x2apic_id);
}

static void check_leaf_1f(const struct cpu_regs *r, const struct topo_cpu *c)
{
	(void)c;
	check_ext_topology(0x1f, r->l1f, r->x2apic_id);
}

/* The x2APIC ID cut at those widths is the FDT's position. */
static void check_apic_fields(const struct cpu_regs *r, const struct topo_cpu *c)
{
	uint32_t id = r->x2apic_id;
	check_eq(id & mask(smt_width), c->thread, "x2APIC ID & 0x%x (vmm,thread)", mask(smt_width));
	check_eq((id >> smt_width) & mask(core_width), c->core,
		 "(x2APIC ID >> %u) & 0x%x (vmm,core)", smt_width, mask(core_width));
	check_eq(id >> package_shift, c->socket, "x2APIC ID >> %u (vmm,socket)", package_shift);
}

/* ---- Caches ------------------------------------------------------------- */

static const struct cpuid *cache_subleaves(const struct cpu_regs *r)
{
	return cache_leaf == 4 ? r->l4 : r->e1d;
}

/* The FDT CPUs a cache descriptor groups with x2APIC ID `apic`: those whose
 * APIC IDs agree above the low order(sharing) bits. The SDM's note on
 * EAX[25:14] (its next power of two is the number of APIC IDs sharing the
 * cache), and Linux's shared_cpu_map and LLC id (arch/x86/kernel/cpu/
 * cacheinfo.c: apicid >> get_count_order(num_threads_sharing)). */
static uint64_t cpuid_sharing(uint32_t apic, uint32_t sharing)
{
	unsigned shift = topo_order(sharing);
	uint64_t set = 0;
	for (unsigned j = 0; j < topo.ncpus; j++)
		if (topo.cpu[j].apic_id >> shift == apic >> shift)
			set |= 1ULL << j;
	return set;
}

static int fdt_cache(const struct topo_cpu *c, uint32_t level, uint32_t type)
{
	for (int k = 0; k < TOPO_NCACHES; k++)
		if (c->cache[k].level == level && c->cache[k].type == type)
			return k;
	return -1;
}

/* Each of the CPU's caches in the FDT has one descriptor of its level and
 * type, with its size, line size and sets; no descriptor describes a cache
 * the FDT does not list (so with the L3 off, there is no level 3). Leaf 4's
 * EAX[31:26] + 1 rounds up to the core field's span, 1 << core_width. */
static void check_cache_params(const struct cpu_regs *r, const struct topo_cpu *c)
{
	const struct cpuid *sub = cache_subleaves(r);
	bool seen[TOPO_NCACHES] = { false };
	uint32_t n, leaf = cache_leaf;
	for (n = 0; n < SUBLEAVES; n++) {
		struct cpuid_cache d = cpuid_cache(sub[n]);
		if (!d.type)
			break;
		int k = fdt_cache(c, d.level, d.type);
		if (!check_that(k >= 0 && !seen[k],
				"CPUID.(%XH,%u): a level-%u type-%u cache the FDT lists %s", leaf,
				n, d.level, d.type, k < 0 ? "not at all" : "only once"))
			continue;
		seen[k] = true;
		const struct topo_cache *tc = &c->cache[k];
		const char *name = topo_cache_name[k];
		check_eq(d.size, tc->size, "%s size (CPUID.(%XH,%u))", name, leaf, n);
		check_eq(d.line, tc->line, "%s line size (CPUID.(%XH,%u):EBX[11:0] + 1)", name,
			 leaf, n);
		check_eq(d.sets, tc->sets, "%s sets (CPUID.(%XH,%u):ECX + 1)", name, leaf, n);
		if (leaf == 4)
			check_that(
				d.core_ids >= cores && topo_order(d.core_ids) == core_width,
				"CPUID.(4,%u):EAX[31:26] + 1 = %u, expected >= %u, rounding up to %u",
				n, d.core_ids, cores, 1u << core_width);
	}
	check_that(n < SUBLEAVES, "no type-0 subleaf of CPUID.%XH below %u", leaf, SUBLEAVES);
	for (int k = 0; k < TOPO_NCACHES; k++)
		check_that(!c->cache[k].level || seen[k],
			   "no subleaf of CPUID.%XH describes the %s", leaf, topo_cache_name[k]);
}

/* Each descriptor of a cache the FDT lists groups this CPU with exactly the
 * CPUs the FDT says share that cache. */
static void check_cache_sharing(const struct cpu_regs *r, const struct topo_cpu *c)
{
	const struct cpuid *sub = cache_subleaves(r);
	for (uint32_t n = 0; n < SUBLEAVES; n++) {
		struct cpuid_cache d = cpuid_cache(sub[n]);
		if (!d.type)
			break;
		int k = fdt_cache(c, d.level, d.type);
		if (k < 0)
			continue; /* check_cache_params says so */
		uint64_t got = cpuid_sharing(r->x2apic_id, d.sharing);
		uint64_t want = topo_sharing(&topo, (unsigned)(c - topo.cpu), k);
		char g[120], w[120];
		if (got != want)
			check_that(false,
				   "%s: CPUID.(%XH,%u):EAX[25:14] + 1 = %u groups %s, the FDT %s",
				   topo_cache_name[k], cache_leaf, n, d.sharing,
				   topo_set_string(&topo, got, g, sizeof(g)),
				   topo_set_string(&topo, want, w, sizeof(w)));
	}
}

/* AMD's legacy leaves (lib/cpuid.h): CPUID.80000005H's L1s, with the
 * sets they imply when the ways are a count (size / (ways * line size)),
 * and 80000006H's L2 and L3; no L3 in the FDT: 80000006H:EDX says size 0
 * and associativity code 0, "disabled" (APM Table E-4); its line-size field
 * may stay set (vmm keeps it so Linux does not fall back to the socket as
 * its LLC). Sizes as the leaves keep them: KiB, and 512 KiB for the L3. */
static void check_amd_cache(const char *reg, struct cpuid_amd_cache a, const struct topo_cache *tc,
			    int k)
{
	const char *name = topo_cache_name[k];
	uint32_t unit = k == TOPO_L3 ? 512 << 10 : 1 << 10;
	check_eq(a.size, tc->size / unit * unit, "%s size (CPUID.%s)", name, reg);
	check_eq(a.line, tc->line, "%s line size (CPUID.%s[7:0])", name, reg);
	if (a.ways && a.line)
		check_eq(a.size / (a.ways * a.line), tc->sets, "%s sets (size / ways / line size)",
			 name);
}

static void check_amd_legacy(const struct cpu_regs *r, const struct topo_cpu *c)
{
	const struct topo_cache *cache = c->cache;
	if (cache[TOPO_L1D].level)
		check_amd_cache("80000005H:ECX", cpuid_amd_l1(r->e5.c), &cache[TOPO_L1D], TOPO_L1D);
	if (cache[TOPO_L1I].level)
		check_amd_cache("80000005H:EDX", cpuid_amd_l1(r->e5.d), &cache[TOPO_L1I], TOPO_L1I);
	check_amd_cache("80000006H:ECX", cpuid_amd_l2(r->e6.c), &cache[TOPO_L2], TOPO_L2);
	if (cache[TOPO_L3].level)
		check_amd_cache("80000006H:EDX", cpuid_amd_l3(r->e6.d), &cache[TOPO_L3], TOPO_L3);
	else
		check_eq(r->e6.d & 0xfffff000u, 0,
			 "CPUID.80000006H:EDX[31:12] (L3 size and associativity; the FDT has none)");
}

/* ---- AMD topology --------------------------------------------------------- */

/* CPUID.80000008H:ECX (APM Fn8000_0008): [7:0] NC, logical processors per
 * package - 1; [15:12] ApicIdSize, the width of the package's part of the
 * APIC ID (Linux: x86_coreid_bits, package = APIC ID >> it); 0 means the
 * legacy width order(NC + 1). */
static void check_amd_80000008(const struct cpu_regs *r, const struct topo_cpu *c)
{
	(void)c;
	uint32_t nc = r->e8.c & 0xff, size = (r->e8.c >> 12) & 0xf;
	check_eq(nc, per_package - 1, "CPUID.80000008H:ECX[7:0] (NC)");
	check_eq(size ? size : topo_order(nc + 1), package_shift,
		 "CPUID.80000008H:ECX[15:12] (ApicIdSize, or order(NC + 1) if 0)");
}

/* CPUID.8000001EH (APM Fn8000_001E; with TopoExt): EAX the x2APIC ID; EBX[15:8]
 * threads per core - 1 (Linux takes smp_num_siblings from it); EBX[7:0] the
 * core ID. How core IDs are numbered is the VMM's choice (hardware numbers
 * them within a node, QEMU packs a CCX number in); what Linux needs of them
 * (topology_core_id, within a package) and what is checked: the threads of
 * one core have the same core ID, different cores of a socket different ones. */
static void check_amd_8000001e(const struct cpu_regs *r, const struct topo_cpu *c)
{
	uint32_t core_id = r->e1e.b & 0xff;
	check_eq(r->e1e.a, r->x2apic_id, "CPUID.8000001EH:EAX (extended APIC ID)");
	check_eq((r->e1e.b >> 8) & 0xff, threads - 1,
		 "CPUID.8000001EH:EBX[15:8] (threads per core - 1)");
	for (unsigned j = 0; j < ncpus; j++) {
		const struct topo_cpu *o = node_of[j] >= 0 ? &topo.cpu[node_of[j]] : NULL;
		if (!o || o == c || o->socket != c->socket)
			continue;
		uint32_t other = regs[j].e1e.b & 0xff;
		if (!check_that(
			    (o->core == c->core) == (other == core_id),
			    "CPUID.8000001EH:EBX[7:0] (core ID) %u, and %u on x2APIC ID %u (%s core)",
			    core_id, other, regs[j].x2apic_id,
			    o->core == c->core ? "the same" : "another"))
			break;
	}
}

/* Linux 6.1 puts the LLC of AMD family 17h models 00h-1Fh at APIC ID >> 3
 * whatever 8000001DH says (cacheinfo_amd_init_llc_id). Not a check (the
 * guest's CPU model is the VMM's choice): a note when that is not the L3. */
static void note_amd_llc(const struct cpu_regs *r0)
{
	uint32_t eax = r0->l1.a, base = (eax >> 8) & 0xf;
	uint32_t family = base + (base == 0xf ? (eax >> 20) & 0xff : 0);
	uint32_t model = ((eax >> 4) & 0xf) | (base == 0xf ? ((eax >> 16) & 0xf) << 4 : 0);
	int k0 = node_of[0];
	if (family != 0x17 || model > 0x1f || k0 < 0 || !topo.cpu[k0].cache[TOPO_L3].level)
		return;
	uint64_t linux_set = cpuid_sharing(r0->x2apic_id, 8);
	uint64_t l3 = topo_sharing(&topo, (unsigned)k0, TOPO_L3);
	char a[120], b[120];
	if (linux_set != l3)
		printf("cpuid-topo: note: family 17h model %xh: Linux 6.1 takes the LLC as "
		       "APIC ID >> 3, %s, not the L3's %s\n",
		       model, topo_set_string(&topo, linux_set, a, sizeof(a)),
		       topo_set_string(&topo, l3, b, sizeof(b)));
}

static void check_intel(const struct cpu_regs *r0)
{
	if (!report(r0->l0.a >= 4, "max basic leaf 0x%x has leaf 04H", r0->l0.a))
		return;
	cache_leaf = 4;
	check_cpus("CPUID.04H: the FDT's caches, their size, line size and sets",
		   check_cache_params);
	check_cpus("CPUID.04H: every cache shared by the FDT's CPUs", check_cache_sharing);
}

static void check_amd(const struct cpu_regs *r0)
{
	note_amd_llc(r0);
	if (!report(r0->e0.a >= 0x80000008, "max extended leaf 0x%x has 80000008H", r0->e0.a))
		return;
	check_cpus("CPUID.80000005H/6H: L1 and L2 size and line size, an L3 as in the FDT",
		   check_amd_legacy);
	check_cpus("CPUID.80000008H:ECX: NC and ApicIdSize", check_amd_80000008);
	if (!(r0->e1.c & CPUID_80000001_ECX_TOPOEXT)) {
		report_skip(
			"CPUID.8000001DH/1EH: no TopoExt (CPUID.80000001H:ECX[22]) in this guest");
		return;
	}
	if (!report(r0->e0.a >= 0x8000001e, "TopoExt, and max extended leaf 0x%x has 8000001EH",
		    r0->e0.a))
		return;
	cache_leaf = 0x8000001d;
	check_cpus("CPUID.8000001DH: the FDT's caches, their size, line size and sets",
		   check_cache_params);
	check_cpus("CPUID.8000001DH: every cache shared by the FDT's CPUs", check_cache_sharing);
	check_cpus("CPUID.8000001EH: x2APIC ID, threads per core, core IDs", check_amd_8000001e);
}

/* llc_level and llc_sharing (CPU 0's LLC and the CPUs sharing it, itself
 * included) from the vendor's cache leaf, else (AMD without TopoExt) from
 * the FDT. */
static void report_llc(void)
{
	int k0 = node_of[0];
	uint32_t level = 0;
	uint64_t set = 0;
	if (k0 < 0)
		return;
	if (cache_leaf) {
		const struct cpuid *sub = cache_subleaves(&regs[0]);
		for (uint32_t n = 0; n < SUBLEAVES; n++) {
			struct cpuid_cache d = cpuid_cache(sub[n]);
			if (!d.type)
				break;
			if (d.level >= level) {
				level = d.level;
				set = cpuid_sharing(regs[0].x2apic_id, d.sharing);
			}
		}
	} else {
		int k = topo.cpu[k0].cache[TOPO_L3].level ? TOPO_L3 : TOPO_L2;
		level = topo.cpu[k0].cache[k].level;
		set = topo_sharing(&topo, (unsigned)k0, k);
	}
	char s[160];
	printf("cpuid-topo: last-level cache (from %s): L%u, shared by x2APIC IDs %s\n",
	       cache_leaf == 4 ? "CPUID.04H"
	       : cache_leaf    ? "CPUID.8000001DH"
			       : "the FDT",
	       level, topo_set_string(&topo, set, s, sizeof(s)));
	testdev_result("llc_level", level);
	testdev_result("llc_sharing", topo_set_count(set));
}

int main(void)
{
	char vendor[13];
	if (!topo_load(&topo, fdt_copy, sizeof(fdt_copy)))
		return report_summary();
	threads = topo.threads;
	cores = topo.cores;
	per_package = threads * cores;
	smt_width = topo_order(threads);
	core_width = topo_order(cores);
	package_shift = smt_width + core_width;

	unsigned paired = bring_up();
	if (!paired)
		return report_summary();
	const struct cpu_regs *r0 = &regs[0]; /* the BSP's: it decides which leaves exist */
	check_cpus("CPUID.00H: the vendor is vmm,cpu-vendor", check_vendor);
	check_cpus("CPUID.01H: initial APIC ID, HTT, logical processors a package", check_leaf1);
	if (report(r0->l0.a >= 0xb, "max basic leaf 0x%x has leaf 0BH", r0->l0.a))
		check_cpus("CPUID.0BH: SMT and core levels, x2APIC ID", check_leaf_b);
	if (r0->l0.a >= 0x1f)
		check_cpus("CPUID.1FH: SMT and core levels, x2APIC ID", check_leaf_1f);
	else
		report_skip("CPUID.1FH: max basic leaf 0x%x is below it", r0->l0.a);
	check_cpus("x2APIC ID fields = vmm,thread, vmm,core, vmm,socket", check_apic_fields);
	cpuid_vendor(r0->l0, vendor);
	if (!strcmp(vendor, "GenuineIntel"))
		check_intel(r0);
	else if (!strcmp(vendor, "AuthenticAMD"))
		check_amd(r0);
	else
		report(false, "caches: vendor \"%s\" is neither GenuineIntel nor AuthenticAMD",
		       vendor);
	report_llc();
	testdev_result("cpus_checked", paired);
	return report_summary();
}
