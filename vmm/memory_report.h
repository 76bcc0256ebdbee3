/* What a run cost in memory: vmm's peak RSS against the guest RAM the guest
 * touched, so the VMM's own overhead can be told apart. */
#ifndef VMM_MEMORY_REPORT_H
#define VMM_MEMORY_REPORT_H

#include <stdio.h>

#include "guest_mem.h"

/* "vmm: memory peak_rss_kib=N guest_resident_kib=M overhead_kib=N-M" */
void memory_report_print(const struct guest_mem *mem, FILE *out);

#endif
