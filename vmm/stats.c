/* KVM's per-vCPU statistics for a run: the stats fds (KVM_GET_STATS_FD),
 * their descriptors read once, and samples of the counters that matter for
 * IPI and HLT behaviour, one pread per fd per sample. */
#include "stats.h"

#include <errno.h>
#include <linux/kvm.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

const char *const stats_counter_name[STAT_COUNT] = {
	[STAT_EXITS] = "exits",
	[STAT_HALT_EXITS] = "halt_exits",
	[STAT_HALT_WAKEUP] = "halt_wakeup",
	[STAT_HALT_SUCCESSFUL_POLL] = "halt_successful_poll",
	[STAT_HALT_ATTEMPTED_POLL] = "halt_attempted_poll",
	[STAT_IRQ_EXITS] = "irq_exits",
	[STAT_IRQ_INJECTIONS] = "irq_injections",
	[STAT_IO_EXITS] = "io_exits",
	[STAT_MMIO_EXITS] = "mmio_exits",
	[STAT_SIGNAL_EXITS] = "signal_exits",
};

#define STATS_DESC_READ_MAX (1 << 20)

static uint64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* Header and descriptors, read once: they never change for an fd. */
static int open_source(struct stats_source *s, int vcpu_fd, char *err, size_t errlen)
{
	s->fd = ioctl(vcpu_fd, KVM_GET_STATS_FD, NULL);
	if (s->fd < 0) {
		snprintf(err, errlen, "KVM_GET_STATS_FD: %s", strerror(errno));
		return -1;
	}
	struct kvm_stats_header h;
	if (pread(s->fd, &h, sizeof(h), 0) != (ssize_t)sizeof(h)) {
		snprintf(err, errlen, "stats header: short read");
		return -1;
	}
	/* Everything up to the data block holds the descriptors. */
	size_t len = h.data_offset > h.desc_offset ? h.data_offset : h.desc_offset;
	if (len > STATS_DESC_READ_MAX) {
		snprintf(err, errlen, "stats: descriptors of %zu bytes", len);
		return -1;
	}
	void *blob = malloc(len);
	ssize_t got = blob ? pread(s->fd, blob, len, 0) : -1;
	int rc = got == (ssize_t)len ? stats_schema_parse(blob, len, &s->schema, err, errlen) : -1;
	if (got != (ssize_t)len)
		snprintf(err, errlen, "stats descriptors: short read");
	free(blob);
	if (rc < 0)
		return -1;
	for (int c = 0; c < STAT_COUNT; c++)
		s->field[c] = stats_schema_find(&s->schema, stats_counter_name[c]);
	s->data = calloc(1, s->schema.data_size ? s->schema.data_size : 1);
	return s->data ? 0 : -1;
}

int vm_stats_open(struct vm_stats *st, const int *vcpu_fds, unsigned nvcpus, char *err,
		  size_t errlen)
{
	memset(st, 0, sizeof(*st));
	st->src = calloc(nvcpus, sizeof(*st->src));
	st->first = calloc((size_t)nvcpus * STAT_COUNT, sizeof(uint64_t));
	st->last = calloc((size_t)nvcpus * STAT_COUNT, sizeof(uint64_t));
	if (!st->src || !st->first || !st->last) {
		snprintf(err, errlen, "stats: out of memory");
		return -1;
	}
	for (unsigned v = 0; v < nvcpus; v++)
		st->src[v].fd = -1;
	st->nvcpus = nvcpus;
	for (unsigned v = 0; v < nvcpus; v++)
		if (open_source(&st->src[v], vcpu_fds[v], err, errlen) < 0)
			return -1;
	return 0;
}

void vm_stats_close(struct vm_stats *st)
{
	for (unsigned v = 0; st->src && v < st->nvcpus; v++) {
		if (st->src[v].fd >= 0)
			close(st->src[v].fd);
		stats_schema_free(&st->src[v].schema);
		free(st->src[v].data);
	}
	free(st->src);
	free(st->first);
	free(st->last);
	memset(st, 0, sizeof(*st));
}

int vm_stats_sample(struct vm_stats *st)
{
	bool first = st->first_ns == 0;
	for (unsigned v = 0; v < st->nvcpus; v++) {
		struct stats_source *s = &st->src[v];
		ssize_t n = pread(s->fd, s->data, s->schema.data_size, s->schema.data_offset);
		if (n != (ssize_t)s->schema.data_size)
			return n < 0 ? -errno : -EIO;
		for (int c = 0; c < STAT_COUNT; c++) {
			uint64_t value = STAT_MISSING;
			if (s->field[c] && !stats_value(&s->schema, s->field[c], s->data, &value))
				value = STAT_MISSING;
			st->last[v * STAT_COUNT + c] = value;
			if (first)
				st->first[v * STAT_COUNT + c] = value;
		}
	}
	st->last_ns = now_ns();
	if (first)
		st->first_ns = st->last_ns;
	return 0;
}

uint64_t vm_stats_delta(const struct vm_stats *st, unsigned v, enum stats_counter c)
{
	uint64_t a = st->first[v * STAT_COUNT + c], b = st->last[v * STAT_COUNT + c];
	if (a == STAT_MISSING || b == STAT_MISSING)
		return STAT_MISSING;
	return b - a;
}

uint64_t vm_stats_total(const struct vm_stats *st, enum stats_counter c)
{
	uint64_t sum = 0;
	for (unsigned v = 0; v < st->nvcpus; v++) {
		uint64_t d = vm_stats_delta(st, v, c);
		if (d == STAT_MISSING)
			return STAT_MISSING;
		sum += d;
	}
	return sum;
}

double vm_stats_seconds(const struct vm_stats *st)
{
	return (double)(st->last_ns - st->first_ns) / 1e9;
}
