/* The machine description as a flattened device tree (libfdt): CPUs with
 * their APIC IDs and positions, caches as the devicetree cache binding
 * describes them, memory. The test kernels' expected side of every check. */
#include "machine_fdt.h"

#include <libfdt.h>
#include <stdio.h>

/* Phandles: one L2 node per core, one L3 node per socket. */
static uint32_t l2_phandle(const struct topology *t, unsigned socket, unsigned core)
{
	return 1 + socket * t->cores + core;
}

static uint32_t l3_phandle(const struct topology *t, unsigned socket)
{
	return 1 + t->sockets * t->cores + socket;
}

/* "<prefix>-cache-size", "-line-size", "-sets" (devicetree spec 3.7.3). */
static int cache_props(void *fdt, const char *prefix, const struct cache_desc *c)
{
	char name[32];
	int rc = 0;
	snprintf(name, sizeof(name), "%scache-size", prefix);
	rc |= fdt_property_u32(fdt, name, c->size);
	snprintf(name, sizeof(name), "%scache-line-size", prefix);
	rc |= fdt_property_u32(fdt, name, c->line);
	snprintf(name, sizeof(name), "%scache-sets", prefix);
	rc |= fdt_property_u32(fdt, name, cache_sets(c));
	return rc;
}

static int cpu_node(void *fdt, const struct machine *m, unsigned index)
{
	const struct topology *t = &m->cpu.topo;
	const struct cache_desc *caches = m->cpu.caches.cache;
	struct cpu_position p = topology_position(t, index);
	uint32_t apic_id = topology_apic_id(t, index);
	char name[32];
	snprintf(name, sizeof(name), "cpu@%x", apic_id);
	int rc = fdt_begin_node(fdt, name);
	rc |= fdt_property_string(fdt, "device_type", "cpu");
	rc |= fdt_property_u32(fdt, "reg", apic_id);
	rc |= fdt_property_u32(fdt, "vmm,socket", p.socket);
	rc |= fdt_property_u32(fdt, "vmm,core", p.core);
	rc |= fdt_property_u32(fdt, "vmm,thread", p.thread);
	/* L1 caches live in the cpu node itself (devicetree spec 3.8). */
	rc |= cache_props(fdt, "d-", &caches[CACHE_L1D]);
	rc |= cache_props(fdt, "i-", &caches[CACHE_L1I]);
	rc |= fdt_property_u32(fdt, "next-level-cache", l2_phandle(t, p.socket, p.core));
	return rc | fdt_end_node(fdt);
}

static int cache_node(void *fdt, const char *name, const struct cache_desc *c, uint32_t phandle,
		      uint32_t next)
{
	int rc = fdt_begin_node(fdt, name);
	rc |= fdt_property_string(fdt, "compatible", "cache");
	rc |= fdt_property(fdt, "cache-unified", NULL, 0);
	rc |= fdt_property_u32(fdt, "cache-level", c->level);
	rc |= cache_props(fdt, "", c);
	if (next)
		rc |= fdt_property_u32(fdt, "next-level-cache", next);
	rc |= fdt_property_u32(fdt, "phandle", phandle);
	return rc | fdt_end_node(fdt);
}

static int cpus_node(void *fdt, const struct machine *m)
{
	const struct topology *t = &m->cpu.topo;
	const struct cache_model *cm = &m->cpu.caches;
	int rc = fdt_begin_node(fdt, "cpus");
	rc |= fdt_property_u32(fdt, "#address-cells", 1);
	rc |= fdt_property_u32(fdt, "#size-cells", 0);
	rc |= fdt_property_u32(fdt, "vmm,sockets", t->sockets);
	rc |= fdt_property_u32(fdt, "vmm,cores", t->cores);
	rc |= fdt_property_u32(fdt, "vmm,threads", t->threads);
	for (unsigned i = 0; i < t->cpus && rc == 0; i++)
		rc |= cpu_node(fdt, m, i);
	char name[40];
	for (unsigned s = 0; s < t->sockets && rc == 0; s++) {
		for (unsigned c = 0; c < t->cores && rc == 0; c++) {
			snprintf(name, sizeof(name), "l2-cache-%u-%u", s, c);
			rc |= cache_node(fdt, name, &cm->cache[CACHE_L2], l2_phandle(t, s, c),
					 cm->have_l3 ? l3_phandle(t, s) : 0);
		}
		if (cm->have_l3) {
			snprintf(name, sizeof(name), "l3-cache-%u", s);
			rc |= cache_node(fdt, name, &cm->cache[CACHE_L3], l3_phandle(t, s), 0);
		}
	}
	return rc | fdt_end_node(fdt);
}

static int memory_node(void *fdt, const struct guest_mem *mem)
{
	/* Two cells of address and two of size per RAM region. */
	fdt64_t reg[2 * GUEST_MEM_MAX_REGIONS];
	for (unsigned i = 0; i < mem->nregions; i++) {
		reg[2 * i] = cpu_to_fdt64(mem->region[i].gpa);
		reg[2 * i + 1] = cpu_to_fdt64(mem->region[i].size);
	}
	int rc = fdt_begin_node(fdt, "memory@0");
	rc |= fdt_property_string(fdt, "device_type", "memory");
	rc |= fdt_property(fdt, "reg", reg, (int)(mem->nregions * 2 * sizeof(reg[0])));
	return rc | fdt_end_node(fdt);
}

int machine_fdt_build(const struct machine *m, const struct guest_mem *mem, void *buf,
		      size_t bufsize)
{
	if (bufsize > INT32_MAX)
		bufsize = INT32_MAX;
	int rc = fdt_create(buf, (int)bufsize);
	rc |= fdt_finish_reservemap(buf);
	rc |= fdt_begin_node(buf, "");
	rc |= fdt_property_u32(buf, "#address-cells", 2);
	rc |= fdt_property_u32(buf, "#size-cells", 2);
	rc |= fdt_property_string(buf, "compatible", "vmm,pc");
	rc |= fdt_property_string(buf, "model", "vmm");
	rc |= fdt_property_string(buf, "vmm,cpu-vendor", cpu_vendor_string(m->cpu.vendor));
	rc |= fdt_property_string(buf, "vmm,l3-cache", m->cpu.caches.have_l3 ? "on" : "off");
	if (rc == 0)
		rc |= memory_node(buf, mem);
	if (rc == 0)
		rc |= cpus_node(buf, m);
	rc |= fdt_end_node(buf);
	rc |= fdt_finish(buf);
	return rc ? -1 : (int)fdt_totalsize(buf);
}
