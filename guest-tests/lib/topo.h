/* The machine's CPUs, their topology and their caches as vmm's flattened
 * device tree describes them (vendor and L3 switch at the root, /cpus with
 * vmm,sockets/cores/threads, one cpu@<APIC ID> node per CPU with its L1
 * caches and a next-level-cache chain to L2 and L3 nodes). */
#ifndef GUEST_TOPO_H
#define GUEST_TOPO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fdt.h"
#include "layout.h"

enum topo_cache_index { TOPO_L1D, TOPO_L1I, TOPO_L2, TOPO_L3, TOPO_NCACHES };

/* Cache types as CPUID leaf 4 / 0x8000001D EAX[4:0] numbers them. */
enum { TOPO_CACHE_DATA = 1, TOPO_CACHE_INSTRUCTION = 2, TOPO_CACHE_UNIFIED = 3 };

struct topo_cache {
	uint32_t level; /* 1, 2 or 3; 0: the FDT lists no such cache */
	uint32_t type;	/* TOPO_CACHE_* */
	uint32_t size, line, sets;
	/* Equal exactly for the CPUs that share this cache: the structure
	 * offset of its node (for L1, of the core's L2 node, as the L1 caches
	 * belong to a core and its L2 node stands for the core). */
	uint32_t id;
};

struct topo_cpu {
	uint32_t apic_id; /* reg: the x2APIC ID */
	uint32_t socket, core,
		thread; /* vmm,socket, vmm,core (in the socket), vmm,thread (in the core) */
	int node;	/* its FDT node */
	struct topo_cache cache[TOPO_NCACHES];
};

struct topo {
	char vendor[13];		  /* vmm,cpu-vendor: CPUID leaf 0's 12 characters */
	bool l3_on;			  /* vmm,l3-cache = "on" */
	uint32_t sockets, cores, threads; /* cores per socket, threads per core */
	unsigned ncpus;
	struct topo_cpu cpu[MAX_CPUS];
	char error[120];
};

extern const char *const topo_cache_name[TOPO_NCACHES]; /* "L1d", "L1i", "L2", "L3" */

/* Reads the FDT into t. NULL if it follows the schema, else what does not
 * (also in t->error). Only the schema's shape is checked here, not whether
 * the numbers agree with each other. */
const char *topo_from_fdt(struct topo *t, const struct fdt *f);

/* The FDT against itself, so that a wrong FDT is not taken for the truth:
 * each cpu node named cpu@<reg in hex>, at a position within
 * vmm,sockets/cores/threads, no two at one reg or position, CPUs sharing an
 * L2 node exactly when they share a core, an L3 node exactly when they
 * share a socket, and L3 nodes exactly when vmm,l3-cache is "on". True if
 * so; else false with the first problem in why. */
bool topo_consistent(const struct topo *t, const struct fdt *f, char *why, size_t size);

/* The index in t->cpu of the CPU whose reg is apic_id; -1 if none. */
int topo_cpu_by_apic(const struct topo *t, uint32_t apic_id);

/* Bit j is set when t->cpu[j] has cache c and shares it with t->cpu[i]. */
uint64_t topo_sharing(const struct topo *t, unsigned i, enum topo_cache_index c);

/* Finds the FDT the VMM gives through the test-device parameters fdt_addr
 * and fdt_size (guest-physical, below 4 GiB, identity-mapped; 0: none),
 * copies it into buf (it must lie clear of the kernel image and the AP
 * trampoline, which the runtime writes), and reads it into t, with one
 * report() per step: given, placed, well-formed, following the schema,
 * consistent (topo_consistent). Prints the topology and CPU 0's caches.
 * False if t cannot be used. */
bool topo_load(struct topo *t, void *buf, size_t size);

/* A set of CPUs (bit j: t->cpu[j]) as their APIC IDs, "{0,1,4}"; returns buf. */
const char *topo_set_string(const struct topo *t, uint64_t set, char *buf, size_t size);

/* How many CPUs a set holds. */
unsigned topo_set_count(uint64_t set);

/* ceil(log2(n)): the width of an APIC ID field counting n things (0 for 0 and 1). */
unsigned topo_order(uint32_t n);

#endif
