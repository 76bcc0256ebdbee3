/* The machine as vmm's FDT describes it (topo.h): finding and copying the
 * blob, reading the schema into a struct topo (the /cpus node, one cpu
 * node per CPU, each CPU's cache chain followed by phandle), checking it
 * against itself, and sets of CPUs. */
#include "topo.h"

#include <stddef.h>

#include "printf.h"
#include "report.h"
#include "string.h"
#include "testdev.h"

#define FOUR_GIB (1ULL << 32)

extern char __kernel_start[], __kernel_end[];

const char *const topo_cache_name[TOPO_NCACHES] = { "L1d", "L1i", "L2", "L3" };

/* Property names of one cache (Devicetree Specification v0.4: the L1 cache
 * properties of cpu nodes, and multi-level and shared cache nodes). */
struct cache_props {
	const char *size, *line, *sets;
};
static const struct cache_props l1d_props = { "d-cache-size", "d-cache-line-size", "d-cache-sets" };
static const struct cache_props l1i_props = { "i-cache-size", "i-cache-line-size", "i-cache-sets" };
static const struct cache_props unified_props = { "cache-size", "cache-line-size", "cache-sets" };

static const char *fail(struct topo *t, const char *where, const char *what)
{
	snprintf(t->error, sizeof(t->error), "%s: %s", *where ? where : "/", what);
	return t->error;
}

/* A cache's size, line size and sets, one nonzero cell each; level 0 (and
 * true) when the node has no `size` property: no such cache. */
static bool read_cache(const struct fdt *f, int node, const struct cache_props *p,
		       struct topo_cache *c, uint32_t level, uint32_t type, int id)
{
	*c = (struct topo_cache){ 0 };
	if (!fdt_getprop(f, node, p->size, NULL))
		return true;
	if (!fdt_prop_u32(f, node, p->size, &c->size) ||
	    !fdt_prop_u32(f, node, p->line, &c->line) ||
	    !fdt_prop_u32(f, node, p->sets, &c->sets) || !c->size || !c->line || !c->sets)
		return false;
	c->level = level;
	c->type = type;
	c->id = (uint32_t)id;
	return true;
}

/* The node a next-level-cache property names: -1 if the node has none, -2
 * if it is not one phandle of an existing node. */
static int next_level_cache(const struct fdt *f, int node)
{
	uint32_t phandle;
	if (!fdt_getprop(f, node, "next-level-cache", NULL))
		return -1;
	if (!fdt_prop_u32(f, node, "next-level-cache", &phandle))
		return -2;
	int n = fdt_node_by_phandle(f, phandle);
	return n >= 0 ? n : -2;
}

static const char *read_cpu(struct topo *t, const struct fdt *f, int node, struct topo_cpu *c)
{
	const char *name = fdt_node_name(f, node);
	c->node = node;
	if (!fdt_prop_u32(f, node, "reg", &c->apic_id) ||
	    !fdt_prop_u32(f, node, "vmm,socket", &c->socket) ||
	    !fdt_prop_u32(f, node, "vmm,core", &c->core) ||
	    !fdt_prop_u32(f, node, "vmm,thread", &c->thread))
		return fail(t, name, "reg, vmm,socket, vmm,core or vmm,thread is not one cell");
	int cache = next_level_cache(f, node);
	if (cache < 0)
		return fail(t, name, "no next-level-cache naming its L2 node");
	if (!read_cache(f, node, &l1d_props, &c->cache[TOPO_L1D], 1, TOPO_CACHE_DATA, cache) ||
	    !read_cache(f, node, &l1i_props, &c->cache[TOPO_L1I], 1, TOPO_CACHE_INSTRUCTION, cache))
		return fail(t, name, "d- or i-cache-size without nonzero -line-size and -sets");
	/* The chain: the L2 node, then the L3 node if the L2 names one. */
	for (uint32_t level = 2; cache >= 0; level++) {
		const char *cname = fdt_node_name(f, cache);
		uint32_t node_level;
		if (level > 3)
			return fail(t, cname, "an L3 cache with a next-level-cache");
		if (!fdt_prop_u32(f, cache, "cache-level", &node_level) || node_level != level)
			return fail(t, cname,
				    level == 2 ? "not cache-level <2>" : "not cache-level <3>");
		struct topo_cache *tc = &c->cache[level == 2 ? TOPO_L2 : TOPO_L3];
		if (!fdt_getprop(f, cache, "cache-unified", NULL) ||
		    !fdt_getprop(f, cache, "cache-size", NULL) ||
		    !read_cache(f, cache, &unified_props, tc, level, TOPO_CACHE_UNIFIED, cache))
			return fail(t, cname,
				    "not cache-unified, or no nonzero cache-size/line-size/sets");
		cache = next_level_cache(f, cache);
		if (cache == -2)
			return fail(t, cname, "next-level-cache names no node");
	}
	return NULL;
}

const char *topo_from_fdt(struct topo *t, const struct fdt *f)
{
	memset(t, 0, sizeof(*t));
	int root = fdt_path(f, "/"), cpus = fdt_path(f, "/cpus");
	const char *vendor = fdt_prop_string(f, root, "vmm,cpu-vendor");
	if (!vendor || strlen(vendor) != 12)
		return fail(t, "/", "vmm,cpu-vendor is not a string of 12 characters");
	memcpy(t->vendor, vendor, 13);
	const char *l3 = fdt_prop_string(f, root, "vmm,l3-cache");
	if (!l3 || (strcmp(l3, "on") && strcmp(l3, "off")))
		return fail(t, "/", "vmm,l3-cache is not \"on\" or \"off\"");
	t->l3_on = !strcmp(l3, "on");
	uint32_t address_cells, size_cells;
	if (cpus < 0 || !fdt_prop_u32(f, cpus, "#address-cells", &address_cells) ||
	    !fdt_prop_u32(f, cpus, "#size-cells", &size_cells) || address_cells != 1 || size_cells)
		return fail(t, "/cpus",
			    "missing, or its #address-cells is not <1> or #size-cells <0>");
	if (!fdt_prop_u32(f, cpus, "vmm,sockets", &t->sockets) ||
	    !fdt_prop_u32(f, cpus, "vmm,cores", &t->cores) ||
	    !fdt_prop_u32(f, cpus, "vmm,threads", &t->threads) || !t->sockets || !t->cores ||
	    !t->threads)
		return fail(t, "/cpus",
			    "vmm,sockets, vmm,cores or vmm,threads is not one nonzero cell");
	int node = cpus, depth = 0;
	while (fdt_next_node(f, &node, &depth)) {
		const char *type = fdt_prop_string(f, node, "device_type");
		if (depth != 1 || !type || strcmp(type, "cpu"))
			continue;
		if (t->ncpus == MAX_CPUS)
			return fail(t, "/cpus", "more cpu nodes than the runtime's MAX_CPUS");
		const char *err = read_cpu(t, f, node, &t->cpu[t->ncpus++]);
		if (err)
			return err;
	}
	return t->ncpus ? NULL : fail(t, "/cpus", "no node with device_type = \"cpu\"");
}

bool topo_consistent(const struct topo *t, const struct fdt *f, char *why, size_t size)
{
	*why = '\0';
	for (unsigned i = 0; i < t->ncpus && !*why; i++) {
		const struct topo_cpu *c = &t->cpu[i];
		char unit[24];
		snprintf(unit, sizeof(unit), "cpu@%x", c->apic_id);
		if (strcmp(fdt_node_name(f, c->node), unit))
			snprintf(why, size, "the cpu node with reg <%u> is not named %s",
				 c->apic_id, unit);
		else if (c->socket >= t->sockets || c->core >= t->cores || c->thread >= t->threads)
			snprintf(
				why, size,
				"%s: socket %u core %u thread %u, beyond vmm,sockets/cores/threads",
				unit, c->socket, c->core, c->thread);
		else if (!c->cache[TOPO_L3].level != !t->l3_on)
			snprintf(why, size, "%s %s an L3 while vmm,l3-cache is \"%s\"", unit,
				 t->l3_on ? "lacks" : "has", t->l3_on ? "on" : "off");
		for (unsigned j = i + 1; j < t->ncpus && !*why; j++) {
			const struct topo_cpu *o = &t->cpu[j];
			bool socket = o->socket == c->socket, core = socket && o->core == c->core;
			if (o->apic_id == c->apic_id || (core && o->thread == c->thread))
				snprintf(why, size, "%s and cpu@%x: the same reg or position", unit,
					 o->apic_id);
			else if (core != (o->cache[TOPO_L2].id == c->cache[TOPO_L2].id))
				snprintf(why, size, "%s and cpu@%x: L2 nodes do not follow cores",
					 unit, o->apic_id);
			else if (t->l3_on &&
				 socket != (o->cache[TOPO_L3].id == c->cache[TOPO_L3].id))
				snprintf(why, size, "%s and cpu@%x: L3 nodes do not follow sockets",
					 unit, o->apic_id);
		}
	}
	return !*why;
}

int topo_cpu_by_apic(const struct topo *t, uint32_t apic_id)
{
	for (unsigned i = 0; i < t->ncpus; i++)
		if (t->cpu[i].apic_id == apic_id)
			return (int)i;
	return -1;
}

uint64_t topo_sharing(const struct topo *t, unsigned i, enum topo_cache_index c)
{
	const struct topo_cache *mine = &t->cpu[i].cache[c];
	uint64_t set = 0;
	for (unsigned j = 0; mine->level && j < t->ncpus; j++)
		if (t->cpu[j].cache[c].level && t->cpu[j].cache[c].id == mine->id)
			set |= 1ULL << j;
	return set;
}

unsigned topo_order(uint32_t n)
{
	unsigned order = 0;
	while (order < 32 && (1ULL << order) < n)
		order++;
	return order;
}

const char *topo_set_string(const struct topo *t, uint64_t set, char *buf, size_t size)
{
	size_t len = (size_t)snprintf(buf, size, "{");
	for (unsigned j = 0; j < t->ncpus && len < size; j++)
		if (set & (1ULL << j))
			len += (size_t)snprintf(buf + len, size - len, "%s%u", len > 1 ? "," : "",
						t->cpu[j].apic_id);
	if (len < size)
		snprintf(buf + len, size - len, "}");
	return buf;
}

unsigned topo_set_count(uint64_t set)
{
	unsigned n = 0;
	for (; set; set &= set - 1)
		n++;
	return n;
}

static void print_topo(const struct topo *t)
{
	const struct topo_cpu *c = &t->cpu[0];
	char set[160];
	printf("topo: %s, %u socket(s) x %u core(s) x %u thread(s), %u cpu nodes, L3 %s\n",
	       t->vendor, t->sockets, t->cores, t->threads, t->ncpus, t->l3_on ? "on" : "off");
	for (int k = 0; k < TOPO_NCACHES; k++)
		if (c->cache[k].level)
			printf("topo: %s %u KiB, %u-byte lines, %u sets, cpu@%x shares it with %s\n",
			       topo_cache_name[k], c->cache[k].size >> 10, c->cache[k].line,
			       c->cache[k].sets, c->apic_id,
			       topo_set_string(t, topo_sharing(t, 0, k), set, sizeof(set)));
}

bool topo_load(struct topo *t, void *buf, size_t size)
{
	uint64_t addr = testdev_param("fdt_addr", 0), len = testdev_param("fdt_size", 0);
	if (!report(addr && len, "the VMM gives an FDT: fdt_addr=0x%lx fdt_size=%lu", addr, len))
		return false;
	uint64_t ks = (uintptr_t)__kernel_start, ke = (uintptr_t)__kernel_end;
	uint64_t ts = TRAMPOLINE_PADDR, te = TRAMPOLINE_PADDR + TRAMPOLINE_MAX, end = addr + len;
	bool placed = addr < FOUR_GIB && len <= FOUR_GIB - addr && len <= size &&
		      (end <= ks || addr >= ke) && (end <= ts || addr >= te);
	if (!report(placed,
		    "FDT below 4 GiB, at most %zu bytes, clear of the kernel [0x%lx, 0x%lx) "
		    "and the AP trampoline [0x%lx, 0x%lx)",
		    size, ks, ke, ts, te))
		return false;
	memcpy(buf, (const void *)(uintptr_t)addr, len);
	struct fdt f;
	const char *err = fdt_open(&f, buf, len);
	if (!report(!err, "FDT is a well-formed blob%s%s", err ? ": " : "", err ? err : ""))
		return false;
	err = topo_from_fdt(t, &f);
	if (!report(!err, "FDT follows vmm's schema%s%s", err ? ": " : "", err ? err : ""))
		return false;
	print_topo(t);
	char why[160];
	bool consistent = topo_consistent(t, &f, why, sizeof(why));
	report(consistent, "FDT is consistent%s%s", consistent ? "" : ": ", why);
	return true;
}
