/* The CPU topology model: sockets x cores x threads, and the APIC IDs a PC
 * gives them (SMT, core and package fields each ceil(log2(count)) bits). */
#include "topology.h"

#include <stdio.h>

unsigned topology_bits(unsigned n)
{
	unsigned bits = 0;
	while (bits < 32 && (1ull << bits) < n)
		bits++;
	return bits;
}

/* Divide cpus among the unknown count, failing if it does not divide. */
static int derive(unsigned cpus, unsigned known, unsigned *out, const char *what, char *err,
		  size_t errlen)
{
	if (cpus % known) {
		snprintf(err, errlen, "%u cpus cannot be split into %s of %u", cpus, what, known);
		return -1;
	}
	*out = cpus / known;
	return 0;
}

int topology_resolve(const struct topology_request *req, struct topology *topo, char *err,
		     size_t errlen)
{
	unsigned cpus = req->cpus, sockets = req->sockets, cores = req->cores,
		 threads = req->threads ? req->threads : 1;
	if (!cpus) {
		/* Everything else given (or 1): cpus is their product. */
		cpus = (sockets ? sockets : 1) * (cores ? cores : 1) * threads;
	}
	if (!sockets && !cores) {
		sockets = 1;
		if (derive(cpus, threads, &cores, "cores of threads", err, errlen))
			return -1;
	} else if (!sockets) {
		if (derive(cpus, cores * threads, &sockets, "sockets of cores*threads", err, errlen))
			return -1;
	} else if (!cores) {
		if (derive(cpus, sockets * threads, &cores, "cores per socket", err, errlen))
			return -1;
	}
	if ((unsigned long long)sockets * cores * threads != cpus) {
		snprintf(err, errlen,
			 "sockets (%u) * cores (%u) * threads (%u) = %llu, not cpus (%u)", sockets,
			 cores, threads, (unsigned long long)sockets * cores * threads, cpus);
		return -1;
	}
	*topo = (struct topology){
		.cpus = cpus,
		.sockets = sockets,
		.cores = cores,
		.threads = threads,
		.smt_bits = topology_bits(threads),
		.core_bits = topology_bits(cores),
	};
	return 0;
}

struct cpu_position topology_position(const struct topology *topo, unsigned index)
{
	return (struct cpu_position){
		.socket = index / (topo->cores * topo->threads),
		.core = (index / topo->threads) % topo->cores,
		.thread = index % topo->threads,
	};
}

uint32_t topology_apic_id(const struct topology *topo, unsigned index)
{
	struct cpu_position p = topology_position(topo, index);
	return (p.socket << topology_package_shift(topo)) | (p.core << topo->smt_bits) | p.thread;
}
