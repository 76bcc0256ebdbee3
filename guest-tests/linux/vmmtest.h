/* What the Linux test image's programs share: reporting (vmm-result lines,
 * vmmtest marks), the time, the IPI counters of /proc/interrupts, and
 * option parsing of unsigned numbers. Plain Linux user space: the programs
 * run the same on a host as in a guest. */
#ifndef VMMTEST_H
#define VMMTEST_H

#include <stdbool.h>
#include <stdint.h>

/* The reschedule (RES) and function-call (CAL) IPIs every CPU received so
 * far: the sums of those two rows of /proc/interrupts. */
struct irq_counts {
	uint64_t res;
	uint64_t cal;
};

/* 0, or -1 (no /proc/interrupts or no such rows: counts stay 0). */
int irq_read(struct irq_counts *c);

/* Parse one /proc/interrupts line; true and the row's total when it is the
 * row `name` ("RES", "CAL"). Pure, for testing. */
bool irq_parse_row(const char *line, const char *name, uint64_t *total);

uint64_t now_ns(void);

/* "vmm-result: PREFIX.NAME=VALUE", flushed: vmm collects it (its console
 * result channel). NAME [a-z0-9_.:-], at most 31 characters in all. */
void result(const char *prefix, const char *name, uint64_t value);

/* "vmmtest: mark PREFIX.WHAT", flushed: a harness can act on it (sample
 * KVM's counters, pause the VM). */
void mark(const char *prefix, const char *what);

void sleep_ms(uint64_t ms);

/* A decimal option value in [min, max], or exit 2 naming the option. */
uint64_t opt_u64(const char *opt, const char *arg, uint64_t min, uint64_t max);

/* rate per second of `count` over `ns`, rounded; 0 when ns is 0. */
uint64_t per_second(uint64_t count, uint64_t ns);

/* A workload's common results: usecs, usecs_per_loop and, when `before`
 * is not NULL, the RES and CAL IPIs per second over it (with -v also the
 * raw counts); `loops` must not be 0. */
void report_workload(const char *prefix, uint64_t ns, uint64_t loops,
		     const struct irq_counts *before, const struct irq_counts *after, bool verbose);

#endif
