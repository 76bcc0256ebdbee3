/* KVM statistics as people and programs read them: a table at exit
 * (--stats), a JSON document (--stats-json, the control socket's stats). */
#include "stats_report.h"

#include <errno.h>
#include <string.h>

#include "log.h"

#define TABLE_MAX_VCPU_COLUMNS 8

static double per_second(uint64_t count, double seconds)
{
	return seconds > 0 ? (double)count / seconds : 0.0;
}

void stats_report_table(const struct vm_stats *st, FILE *out)
{
	double s = vm_stats_seconds(st);
	bool columns = st->nvcpus <= TABLE_MAX_VCPU_COLUMNS;
	fprintf(out, "KVM statistics over %.3f s, %u vCPU%s\n", s, st->nvcpus,
		st->nvcpus == 1 ? "" : "s");
	fprintf(out, "  %-22s %12s %12s", "counter", "total", "per second");
	for (unsigned v = 0; columns && v < st->nvcpus; v++)
		fprintf(out, " %10s%u", "vcpu", v);
	fputc('\n', out);
	for (int c = 0; c < STAT_COUNT; c++) {
		uint64_t total = vm_stats_total(st, (enum stats_counter)c);
		if (total == STAT_MISSING) {
			fprintf(out, "  %-22s (not on this kernel)\n", stats_counter_name[c]);
			continue;
		}
		fprintf(out, "  %-22s %12llu %12.0f", stats_counter_name[c], (unsigned long long)total,
			per_second(total, s));
		for (unsigned v = 0; columns && v < st->nvcpus; v++)
			fprintf(out, " %11llu",
				(unsigned long long)vm_stats_delta(st, v, (enum stats_counter)c));
		fputc('\n', out);
	}
}

json_object *stats_report_json(const struct vm_stats *st)
{
	double s = vm_stats_seconds(st);
	json_object *doc = json_object_new_object();
	json_object *counters = json_object_new_object();
	json_object *missing = json_object_new_array();
	json_object_object_add(doc, "interval_s", json_object_new_double(s));
	json_object_object_add(doc, "vcpus", json_object_new_int((int)st->nvcpus));
	for (int c = 0; c < STAT_COUNT; c++) {
		uint64_t total = vm_stats_total(st, (enum stats_counter)c);
		if (total == STAT_MISSING) {
			json_object_array_add(missing, json_object_new_string(stats_counter_name[c]));
			continue;
		}
		json_object *entry = json_object_new_object();
		json_object *per_vcpu = json_object_new_array();
		for (unsigned v = 0; v < st->nvcpus; v++)
			json_object_array_add(per_vcpu, json_object_new_uint64(vm_stats_delta(
								  st, v, (enum stats_counter)c)));
		json_object_object_add(entry, "total", json_object_new_uint64(total));
		json_object_object_add(entry, "per_s", json_object_new_double(per_second(total, s)));
		json_object_object_add(entry, "per_vcpu", per_vcpu);
		json_object_object_add(counters, stats_counter_name[c], entry);
	}
	json_object_object_add(doc, "counters", counters);
	json_object_object_add(doc, "missing", missing);
	return doc;
}

int stats_report_write_json(const struct vm_stats *st, const char *path)
{
	json_object *doc = stats_report_json(st);
	int rc = json_object_to_file_ext(path, doc, JSON_C_TO_STRING_PRETTY);
	json_object_put(doc);
	if (rc < 0) {
		vmm_log("--stats-json %s: %s", path, json_util_get_last_err());
		return -1;
	}
	return 0;
}
