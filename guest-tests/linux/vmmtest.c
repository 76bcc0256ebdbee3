/* The Linux test image's shared helpers (vmmtest.h). */
#define _POSIX_C_SOURCE 200809L
#include "vmmtest.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

bool irq_parse_row(const char *line, const char *name, uint64_t *total)
{
	size_t n = strlen(name);
	while (*line == ' ')
		line++;
	if (strncmp(line, name, n) != 0 || line[n] != ':')
		return false;
	/* Per-CPU counts, then the description ("Rescheduling interrupts"). */
	const char *p = line + n + 1;
	uint64_t sum = 0;
	for (;;) {
		while (*p == ' ' || *p == '\t')
			p++;
		if (*p < '0' || *p > '9')
			break;
		char *end;
		sum += strtoull(p, &end, 10);
		p = end;
	}
	*total = sum;
	return true;
}

int irq_read(struct irq_counts *c)
{
	*c = (struct irq_counts){ 0 };
	FILE *f = fopen("/proc/interrupts", "r");
	if (!f)
		return -1;
	/* One line is a count per CPU: long on a large host. */
	static char line[1 << 16];
	int found = 0;
	while (fgets(line, sizeof(line), f)) {
		uint64_t v;
		if (irq_parse_row(line, "RES", &v)) {
			c->res = v;
			found++;
		} else if (irq_parse_row(line, "CAL", &v)) {
			c->cal = v;
			found++;
		}
	}
	fclose(f);
	return found == 2 ? 0 : -1;
}

uint64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

void result(const char *prefix, const char *name, uint64_t value)
{
	printf("vmm-result: %s.%s=%llu\n", prefix, name, (unsigned long long)value);
	fflush(stdout);
}

void mark(const char *prefix, const char *what)
{
	printf("vmmtest: mark %s.%s\n", prefix, what);
	fflush(stdout);
}

void sleep_ms(uint64_t ms)
{
	struct timespec ts = { .tv_sec = (time_t)(ms / 1000), .tv_nsec = (long)(ms % 1000) * 1000000 };
	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

uint64_t opt_u64(const char *opt, const char *arg, uint64_t min, uint64_t max)
{
	char *end;
	errno = 0;
	unsigned long long v = strtoull(arg, &end, 10);
	if (errno || end == arg || *end || arg[0] == '-' || v < min || v > max) {
		fprintf(stderr, "%s '%s': expected a number from %llu to %llu\n", opt, arg,
			(unsigned long long)min, (unsigned long long)max);
		exit(2);
	}
	return v;
}

uint64_t per_second(uint64_t count, uint64_t ns)
{
	if (!ns)
		return 0;
	/* count * 1e9 / ns without overflow for any count this side of 1e10. */
	return (uint64_t)(((__uint128_t)count * 1000000000u + ns / 2) / ns);
}

void report_workload(const char *prefix, uint64_t ns, uint64_t loops,
		     const struct irq_counts *before, const struct irq_counts *after, bool verbose)
{
	result(prefix, "usecs", (ns + 500) / 1000);
	result(prefix, "usecs_per_loop", (ns / loops + 500) / 1000);
	if (!before) {
		printf("vmmtest: %s: no RES/CAL rows in /proc/interrupts\n", prefix);
		return;
	}
	uint64_t res = after->res - before->res, cal = after->cal - before->cal;
	if (verbose) {
		result(prefix, "res", res);
		result(prefix, "cal", cal);
	}
	result(prefix, "res_per_s", per_second(res, ns));
	result(prefix, "cal_per_s", per_second(cal, ns));
}
