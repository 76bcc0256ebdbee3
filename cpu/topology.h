/* The CPU topology model: sockets x cores x threads, and the APIC IDs a PC
 * gives them (SMT, core and package fields each ceil(log2(count)) bits). */
#ifndef CPU_TOPOLOGY_H
#define CPU_TOPOLOGY_H

#include <stddef.h>
#include <stdint.h>

/* What the user asked for; 0 = not given, to be derived. */
struct topology_request {
	unsigned cpus, sockets, cores, threads;
};

struct topology {
	unsigned cpus;
	unsigned sockets;
	unsigned cores;   /* per socket */
	unsigned threads; /* per core */
	unsigned smt_bits;  /* APIC ID bits for the thread within its core */
	unsigned core_bits; /* APIC ID bits for the core within its socket */
};

struct cpu_position {
	unsigned socket, core, thread;
};

/* Fill in what was not given, QEMU's way (threads default to 1, then cores
 * are preferred over sockets), and check that sockets * cores * threads ==
 * cpus. 0, or -1 with a one-line reason in err. */
int topology_resolve(const struct topology_request *req, struct topology *topo, char *err,
		     size_t errlen);

/* ceil(log2(n)) for n >= 1: the bits needed to number n things. */
unsigned topology_bits(unsigned n);

/* vCPU index i (socket-major, then core, then thread) -> position and APIC ID. */
struct cpu_position topology_position(const struct topology *topo, unsigned index);
uint32_t topology_apic_id(const struct topology *topo, unsigned index);

static inline unsigned topology_package_shift(const struct topology *topo)
{
	return topo->smt_bits + topo->core_bits;
}

static inline unsigned topology_cpus_per_socket(const struct topology *topo)
{
	return topo->cores * topo->threads;
}

#endif
