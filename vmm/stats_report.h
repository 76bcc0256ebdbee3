/* KVM statistics as people and programs read them: a table at exit
 * (--stats), a JSON document (--stats-json, the control socket's stats). */
#ifndef VMM_STATS_REPORT_H
#define VMM_STATS_REPORT_H

#include <json-c/json.h>
#include <stdio.h>

#include "stats.h"

/* Totals, per-second rates and, for up to 8 vCPUs, per-vCPU columns. A
 * counter the kernel lacks says so instead of printing 0. */
void stats_report_table(const struct vm_stats *st, FILE *out);

/* {"interval_s": .., "vcpus": N, "counters": {"exits": {"total": ..,
 * "per_s": .., "per_vcpu": [..]}, ...}, "missing": ["..."]} */
json_object *stats_report_json(const struct vm_stats *st);

/* Write the JSON document to `path`. 0, or -1 after one line. */
int stats_report_write_json(const struct vm_stats *st, const char *path);

#endif
