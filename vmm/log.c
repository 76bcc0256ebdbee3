/* vmm's messages to the user: one line each on stderr, prefixed "vmm: ". */
#include "log.h"

#include <stdarg.h>
#include <stdio.h>

void vmm_log(const char *fmt, ...)
{
	char line[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	/* One fprintf per line, so lines from several threads do not interleave. */
	fprintf(stderr, "vmm: %s\n", line);
}
