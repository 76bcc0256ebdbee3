/* KVM's per-vCPU statistics for a run: the stats fds (KVM_GET_STATS_FD),
 * their descriptors read once, and samples of the counters that matter for
 * IPI and HLT behaviour, one pread per fd per sample. */
#ifndef VMM_STATS_H
#define VMM_STATS_H

#include <stdbool.h>
#include <stdint.h>

#include "stats_schema.h"

enum stats_counter {
	STAT_EXITS,
	STAT_HALT_EXITS,
	STAT_HALT_WAKEUP,
	STAT_HALT_SUCCESSFUL_POLL,
	STAT_HALT_ATTEMPTED_POLL,
	STAT_IRQ_EXITS,
	STAT_IRQ_INJECTIONS,
	STAT_IO_EXITS,
	STAT_MMIO_EXITS,
	STAT_SIGNAL_EXITS,
	STAT_COUNT,
};

#define STAT_MISSING UINT64_MAX /* the running kernel has no such counter */

extern const char *const stats_counter_name[STAT_COUNT];

struct stats_source {
	int fd;
	struct stats_schema schema;
	const struct stats_field *field[STAT_COUNT];
	void *data; /* one sample of the data block */
};

struct vm_stats {
	struct stats_source *src; /* one per vCPU */
	unsigned nvcpus;
	uint64_t *first;  /* [vcpu * STAT_COUNT + counter]: the sample at start */
	uint64_t *last;   /* the latest sample */
	uint64_t first_ns, last_ns; /* CLOCK_MONOTONIC of the two samples */
};

/* Open every vCPU's stats fd and read its descriptors. 0 or -1 with err. */
int vm_stats_open(struct vm_stats *st, const int *vcpu_fds, unsigned nvcpus, char *err,
		  size_t errlen);
void vm_stats_close(struct vm_stats *st);

/* Take a sample: the first call fixes the start of the interval. 0 or -errno. */
int vm_stats_sample(struct vm_stats *st);

/* Counter `c` of vCPU `v` over the interval, or STAT_MISSING. */
uint64_t vm_stats_delta(const struct vm_stats *st, unsigned v, enum stats_counter c);
/* Summed over vCPUs, or STAT_MISSING. */
uint64_t vm_stats_total(const struct vm_stats *st, enum stats_counter c);
double vm_stats_seconds(const struct vm_stats *st);

#endif
