/* report() and report_summary(), with counters any CPU may bump. */
#include "report.h"

#include <stdarg.h>
#include <stdint.h>

#include "atomic.h"
#include "printf.h"

static volatile uint32_t tests, failures, skipped;

static void print_line(const char *tag, const char *fmt, va_list ap)
{
	char what[PRINTF_BUF - 16];
	vsnprintf(what, sizeof(what), fmt, ap);
	printf("%s: %s\n", tag, what);
}

bool report(bool pass, const char *fmt, ...)
{
	va_list ap;
	atomic_inc(&tests);
	if (!pass)
		atomic_inc(&failures);
	va_start(ap, fmt);
	print_line(pass ? "PASS" : "FAIL", fmt, ap);
	va_end(ap);
	return pass;
}

void report_skip(const char *fmt, ...)
{
	va_list ap;
	atomic_inc(&skipped);
	va_start(ap, fmt);
	print_line("SKIP", fmt, ap);
	va_end(ap);
}

int report_summary(void)
{
	uint32_t t = atomic_read(&tests), f = atomic_read(&failures), s = atomic_read(&skipped);
	if (s)
		printf("SUMMARY: %u tests, %u unexpected failures, %u skipped\n", t, f, s);
	else
		printf("SUMMARY: %u tests, %u unexpected failures\n", t, f);
	return f ? 1 : 0;
}
