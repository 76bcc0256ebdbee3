/* stats + stats_report: the interval arithmetic over two samples
 * (vm_stats_delta/total/seconds) and the two reports (JSON and table), over
 * a struct vm_stats filled by hand: no KVM, no stats fds.
 *
 * The samples (2 vCPUs, 2 s apart; io_exits is not on vCPU 1's kernel):
 *
 *   counter               v0 first  v0 last  v0 d   v1 first   v1 last     v1 d   total  per s
 *   exits                     1000     5000  4000   2^32       2^32+6000   6000   10000   5000
 *   halt_exits                 200     1200  1000      0         500        500    1500    750
 *   halt_wakeup                150     1150  1000      0         480        480    1480    740
 *   halt_successful_poll        40      340   300      0         100        100     400    200
 *   halt_attempted_poll         90      690   600      0         300        300     900    450
 *   irq_exits                   30      130   100      5          55         50     150     75
 *   irq_injections              60      460   400     10         210        200     600    300
 *   io_exits                   500     2500  2000   MISSING    MISSING   MISSING   MISSING
 *   mmio_exits                   7        7     0      1          11         10      10      5
 *   signal_exits                 0        3     3      1           2          1       4      2
 *
 * (v1's exits start at 2^32 = 4294967296 so the subtraction must be 64-bit.) */
#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../vmm/stats.h"
#include "../../vmm/stats_report.h"
#include "suites.h"

#define NV 2
#define M STAT_MISSING
#define TWO32 4294967296ull

static const uint64_t first_init[NV][STAT_COUNT] = {
	{ 1000, 200, 150, 40, 90, 30, 60, 500, 7, 0 },
	{ TWO32, 0, 0, 0, 0, 5, 10, M, 1, 1 },
};
static const uint64_t last_init[NV][STAT_COUNT] = {
	{ 5000, 1200, 1150, 340, 690, 130, 460, 2500, 7, 3 },
	{ TWO32 + 6000, 500, 480, 100, 300, 55, 210, M, 11, 2 },
};

/* The expected results, from the table above. */
static const uint64_t want_delta[NV][STAT_COUNT] = {
	{ 4000, 1000, 1000, 300, 600, 100, 400, 2000, 0, 3 },
	{ 6000, 500, 480, 100, 300, 50, 200, M, 10, 1 },
};
static const uint64_t want_total[STAT_COUNT] = { 10000, 1500, 1480, 400, 900, 150, 600, M, 10, 4 };
static const double want_per_s[STAT_COUNT] = { 5000, 750, 740, 200, 450, 75, 300, 0, 5, 2 };

static uint64_t first[NV * STAT_COUNT], last[NV * STAT_COUNT];
static struct vm_stats st;

static void setup(void)
{
	for (unsigned v = 0; v < NV; v++)
		for (unsigned c = 0; c < STAT_COUNT; c++) {
			first[v * STAT_COUNT + c] = first_init[v][c];
			last[v * STAT_COUNT + c] = last_init[v][c];
		}
	memset(&st, 0, sizeof(st));
	st.nvcpus = NV;
	st.first = first;
	st.last = last;
	st.first_ns = 1000000000ull; /* 1 s */
	st.last_ns = 3000000000ull;  /* 3 s: 2 s later */
}

/* The names the module must use: the kernel's own (api.rst / kvm_host.h). */
START_TEST(test_counter_names)
{
	ck_assert_str_eq(stats_counter_name[STAT_EXITS], "exits");
	ck_assert_str_eq(stats_counter_name[STAT_HALT_EXITS], "halt_exits");
	ck_assert_str_eq(stats_counter_name[STAT_IO_EXITS], "io_exits");
	ck_assert_str_eq(stats_counter_name[STAT_SIGNAL_EXITS], "signal_exits");
}
END_TEST

/* --- vm_stats_delta / total / seconds -------------------------------- */

START_TEST(test_delta)
{
	for (unsigned v = 0; v < NV; v++)
		for (unsigned c = 0; c < STAT_COUNT; c++)
			ck_assert_msg(vm_stats_delta(&st, v, (enum stats_counter)c) ==
					      want_delta[v][c],
				      "vcpu %u counter %s", v, stats_counter_name[c]);
}
END_TEST

START_TEST(test_delta_missing_in_one_sample)
{
	/* Missing only at the end, or only at the start: still missing, not
	 * a huge difference against UINT64_MAX. */
	last[0 * STAT_COUNT + STAT_EXITS] = M;
	ck_assert_uint_eq(vm_stats_delta(&st, 0, STAT_EXITS), M);
	first[1 * STAT_COUNT + STAT_HALT_EXITS] = M;
	ck_assert_uint_eq(vm_stats_delta(&st, 1, STAT_HALT_EXITS), M);
	/* ...and so the totals are missing too. */
	ck_assert_uint_eq(vm_stats_total(&st, STAT_EXITS), M);
	ck_assert_uint_eq(vm_stats_total(&st, STAT_HALT_EXITS), M);
	/* The other vCPU's copy is unaffected. */
	ck_assert_uint_eq(vm_stats_delta(&st, 1, STAT_EXITS), 6000);
}
END_TEST

START_TEST(test_total)
{
	for (unsigned c = 0; c < STAT_COUNT; c++)
		ck_assert_msg(vm_stats_total(&st, (enum stats_counter)c) == want_total[c],
			      "counter %s", stats_counter_name[c]);
	/* io_exits: present on v0 (2000) but missing on v1 -> missing, not 2000. */
	ck_assert_uint_eq(vm_stats_total(&st, STAT_IO_EXITS), M);
}
END_TEST

START_TEST(test_seconds)
{
	ck_assert_double_eq(vm_stats_seconds(&st), 2.0);
	/* 1.5 s: 1e9 -> 2.5e9 ns. */
	st.last_ns = 2500000000ull;
	ck_assert_double_eq(vm_stats_seconds(&st), 1.5);
	/* One sample only: an interval of 0. */
	st.last_ns = st.first_ns;
	ck_assert_double_eq(vm_stats_seconds(&st), 0.0);
}
END_TEST

/* --- JSON ------------------------------------------------------------ */

/* The document as a reader gets it: serialised, then parsed back. */
static json_object *json_roundtrip(void)
{
	json_object *doc = stats_report_json(&st);
	ck_assert_ptr_nonnull(doc);
	json_object *back = json_tokener_parse(json_object_to_json_string(doc));
	json_object_put(doc);
	ck_assert_msg(back != NULL, "stats_report_json's text does not parse");
	ck_assert(json_object_is_type(back, json_type_object));
	return back;
}

static json_object *get(json_object *o, const char *key, json_type type)
{
	json_object *v = NULL;
	ck_assert_msg(json_object_object_get_ex(o, key, &v), "no \"%s\"", key);
	ck_assert_msg(json_object_is_type(v, type), "\"%s\" has the wrong type", key);
	return v;
}

START_TEST(test_json_document)
{
	json_object *doc = json_roundtrip();
	ck_assert_int_eq(json_object_object_length(doc), 4);
	ck_assert_double_eq(json_object_get_double(get(doc, "interval_s", json_type_double)), 2.0);
	ck_assert_int_eq(json_object_get_int(get(doc, "vcpus", json_type_int)), 2);

	/* 9 counters present (10 minus io_exits). */
	json_object *counters = get(doc, "counters", json_type_object);
	ck_assert_int_eq(json_object_object_length(counters), STAT_COUNT - 1);
	for (unsigned c = 0; c < STAT_COUNT; c++) {
		if (c == STAT_IO_EXITS)
			continue;
		json_object *e = get(counters, stats_counter_name[c], json_type_object);
		ck_assert_int_eq(json_object_object_length(e), 3);
		ck_assert_msg(json_object_get_uint64(get(e, "total", json_type_int)) ==
				      want_total[c],
			      "%s total", stats_counter_name[c]);
		/* per_s may be written as 5000 or 5000.0: read it as a number. */
		json_object *per_s = NULL;
		ck_assert(json_object_object_get_ex(e, "per_s", &per_s));
		ck_assert(json_object_is_type(per_s, json_type_double) ||
			  json_object_is_type(per_s, json_type_int));
		ck_assert_double_eq_tol(json_object_get_double(per_s), want_per_s[c], 1e-9);
		json_object *pv = get(e, "per_vcpu", json_type_array);
		ck_assert_uint_eq(json_object_array_length(pv), NV);
		for (unsigned v = 0; v < NV; v++) {
			json_object *x = json_object_array_get_idx(pv, v);
			ck_assert(json_object_is_type(x, json_type_int));
			ck_assert_msg(json_object_get_uint64(x) == want_delta[v][c], "%s vcpu %u",
				      stats_counter_name[c], v);
		}
	}
	/* The missing counter is named, not written as 0. */
	ck_assert(!json_object_object_get_ex(counters, "io_exits", NULL));
	json_object *missing = get(doc, "missing", json_type_array);
	ck_assert_uint_eq(json_object_array_length(missing), 1);
	json_object *m0 = json_object_array_get_idx(missing, 0);
	ck_assert(json_object_is_type(m0, json_type_string));
	ck_assert_str_eq(json_object_get_string(m0), "io_exits");
	json_object_put(doc);
}
END_TEST

START_TEST(test_json_nothing_missing)
{
	/* Give v1 io_exits 9 -> 19: delta 10, total 2000 + 10 = 2010,
	 * 1005 per second. "missing" is then an empty array, still present. */
	first[1 * STAT_COUNT + STAT_IO_EXITS] = 9;
	last[1 * STAT_COUNT + STAT_IO_EXITS] = 19;
	json_object *doc = json_roundtrip();
	json_object *counters = get(doc, "counters", json_type_object);
	ck_assert_int_eq(json_object_object_length(counters), STAT_COUNT);
	json_object *io = get(counters, "io_exits", json_type_object);
	ck_assert_uint_eq(json_object_get_uint64(get(io, "total", json_type_int)), 2010);
	json_object *per_s = NULL;
	ck_assert(json_object_object_get_ex(io, "per_s", &per_s));
	ck_assert_double_eq_tol(json_object_get_double(per_s), 1005.0, 1e-9);
	ck_assert_uint_eq(json_object_array_length(get(doc, "missing", json_type_array)), 0);
	json_object_put(doc);
}
END_TEST

START_TEST(test_json_all_missing_on_one_vcpu)
{
	/* A kernel with none of the counters on v1: every one is missing, the
	 * counters object is empty, and "missing" lists all 10 in order. */
	for (unsigned c = 0; c < STAT_COUNT; c++)
		first[1 * STAT_COUNT + c] = last[1 * STAT_COUNT + c] = M;
	json_object *doc = json_roundtrip();
	ck_assert_int_eq(json_object_object_length(get(doc, "counters", json_type_object)), 0);
	json_object *missing = get(doc, "missing", json_type_array);
	ck_assert_uint_eq(json_object_array_length(missing), STAT_COUNT);
	for (unsigned c = 0; c < STAT_COUNT; c++)
		ck_assert_str_eq(json_object_get_string(json_object_array_get_idx(missing, c)),
				 stats_counter_name[c]);
	json_object_put(doc);
}
END_TEST

START_TEST(test_json_zero_interval)
{
	/* The stats asked for right after the first sample: an interval of 0
	 * and deltas of 0. The document must still be valid JSON (no inf or
	 * nan rates) and read 0 per second. */
	memcpy(last, first, sizeof(last));
	st.last_ns = st.first_ns;
	json_object *doc = json_roundtrip();
	ck_assert_double_eq(json_object_get_double(get(doc, "interval_s", json_type_double)), 0.0);
	json_object *exits = get(get(doc, "counters", json_type_object), "exits", json_type_object);
	ck_assert_uint_eq(json_object_get_uint64(get(exits, "total", json_type_int)), 0);
	json_object *per_s = NULL;
	ck_assert(json_object_object_get_ex(exits, "per_s", &per_s));
	ck_assert(isfinite(json_object_get_double(per_s)));
	ck_assert_double_eq(json_object_get_double(per_s), 0.0);
	json_object_put(doc);
}
END_TEST

/* --- table ----------------------------------------------------------- */

#define MAX_LINES 32

struct table {
	char *text;
	size_t len;
	char *line[MAX_LINES];
	unsigned nlines;
};

/* Run stats_report_table into memory and split it into lines. */
static void table_read(struct table *t)
{
	memset(t, 0, sizeof(*t));
	FILE *f = open_memstream(&t->text, &t->len);
	ck_assert_ptr_nonnull(f);
	stats_report_table(&st, f);
	ck_assert_int_eq(fclose(f), 0);
	ck_assert_msg(t->len > 0 && t->text[t->len - 1] == '\n', "table does not end a line");
	for (char *p = t->text, *nl; (nl = strchr(p, '\n')) != NULL; p = nl + 1) {
		ck_assert_uint_lt(t->nlines, MAX_LINES);
		*nl = '\0';
		t->line[t->nlines++] = p;
	}
}

/* Split a line into whitespace-separated words (destroys it). */
static unsigned words(char *line, char **w, unsigned max)
{
	unsigned n = 0;
	for (char *tok = strtok(line, " "); tok && n < max; tok = strtok(NULL, " "))
		w[n++] = tok;
	return n;
}

START_TEST(test_table)
{
	struct table t;
	table_read(&t);
	/* A title, a column header, one line per counter. */
	ck_assert_uint_eq(t.nlines, 2 + STAT_COUNT);
	ck_assert_str_eq(t.line[0], "KVM statistics over 2.000 s, 2 vCPUs");

	char *w[16];
	unsigned n = words(t.line[1], w, 16);
	ck_assert_uint_eq(n, 6); /* counter, total, per, second, vcpu0, vcpu1 */
	ck_assert_str_eq(w[0], "counter");
	ck_assert_str_eq(w[1], "total");
	ck_assert_str_eq(w[4], "vcpu0");
	ck_assert_str_eq(w[5], "vcpu1");

	char want[64];
	for (unsigned c = 0; c < STAT_COUNT; c++) {
		char *line = t.line[2 + c];
		ck_assert_msg(strncmp(line, "  ", 2) == 0, "line %u not indented", c);
		if (c == STAT_IO_EXITS) {
			/* Said so, not printed as 0. */
			ck_assert_ptr_nonnull(strstr(line, "(not on this kernel)"));
			ck_assert_ptr_null(strpbrk(line, "0123456789"));
			n = words(line, w, 16);
			ck_assert_str_eq(w[0], "io_exits");
			continue;
		}
		n = words(line, w, 16);
		ck_assert_uint_eq(n, 5); /* name, total, per second, vcpu0, vcpu1 */
		ck_assert_str_eq(w[0], stats_counter_name[c]);
		snprintf(want, sizeof(want), "%llu", (unsigned long long)want_total[c]);
		ck_assert_str_eq(w[1], want);
		/* Every expected rate is a whole number (see the table at the top). */
		snprintf(want, sizeof(want), "%llu", (unsigned long long)want_per_s[c]);
		ck_assert_str_eq(w[2], want);
		for (unsigned v = 0; v < NV; v++) {
			snprintf(want, sizeof(want), "%llu", (unsigned long long)want_delta[v][c]);
			ck_assert_str_eq(w[3 + v], want);
		}
	}
	free(t.text);
}
END_TEST

START_TEST(test_table_one_vcpu)
{
	/* Only v0: "1 vCPU", singular; io_exits now present (2000, 1000/s). */
	st.nvcpus = 1;
	struct table t;
	table_read(&t);
	ck_assert_uint_eq(t.nlines, 2 + STAT_COUNT);
	ck_assert_str_eq(t.line[0], "KVM statistics over 2.000 s, 1 vCPU");
	char *w[16];
	unsigned n = words(t.line[2 + STAT_IO_EXITS], w, 16);
	ck_assert_uint_eq(n, 4);
	ck_assert_str_eq(w[0], "io_exits");
	ck_assert_str_eq(w[1], "2000");
	ck_assert_str_eq(w[2], "1000");
	ck_assert_str_eq(w[3], "2000");
	free(t.text);
}
END_TEST

/* Up to 8 vCPUs get a column each; more get totals and rates only. */
static void table_with_vcpus(unsigned nv, unsigned want_columns)
{
	uint64_t *f = calloc((size_t)nv * STAT_COUNT, sizeof(uint64_t));
	uint64_t *l = calloc((size_t)nv * STAT_COUNT, sizeof(uint64_t));
	ck_assert(f && l);
	/* Every vCPU: exits 0 -> 2, so the total is 2 * nv. */
	for (unsigned v = 0; v < nv; v++)
		l[v * STAT_COUNT + STAT_EXITS] = 2;
	st.nvcpus = nv;
	st.first = f;
	st.last = l;
	struct table t;
	table_read(&t);
	ck_assert_uint_eq(t.nlines, 2 + STAT_COUNT);
	char *w[32];
	/* Header: "counter", "total", "per", "second", then vcpuN each. */
	unsigned n = words(t.line[1], w, 32);
	ck_assert_uint_eq(n, 4 + want_columns);
	if (want_columns)
		ck_assert_str_eq(w[n - 1], "vcpu7");
	/* Row: name, total, rate, then one delta (2) per column. */
	n = words(t.line[2 + STAT_EXITS], w, 32);
	ck_assert_uint_eq(n, 3 + want_columns);
	char want[16];
	snprintf(want, sizeof(want), "%u", 2 * nv);
	ck_assert_str_eq(w[1], want);
	snprintf(want, sizeof(want), "%u", nv); /* 2 * nv over 2 s */
	ck_assert_str_eq(w[2], want);
	for (unsigned i = 3; i < n; i++)
		ck_assert_str_eq(w[i], "2");
	free(t.text);
	free(f);
	free(l);
}

START_TEST(test_table_eight_vcpus)
{
	/* 8 columns, vcpu0..vcpu7; total 16, 8 per second. */
	table_with_vcpus(8, 8);
}
END_TEST

START_TEST(test_table_nine_vcpus)
{
	/* Too many for columns: totals and rates only (18, 9 per second). */
	table_with_vcpus(9, 0);
}
END_TEST

Suite *stats_report_suite(void)
{
	Suite *s = suite_create("stats_report");
	TCase *tc = tcase_create("core");
	tcase_add_checked_fixture(tc, setup, NULL);
	tcase_add_test(tc, test_counter_names);
	tcase_add_test(tc, test_delta);
	tcase_add_test(tc, test_delta_missing_in_one_sample);
	tcase_add_test(tc, test_total);
	tcase_add_test(tc, test_seconds);
	tcase_add_test(tc, test_json_document);
	tcase_add_test(tc, test_json_nothing_missing);
	tcase_add_test(tc, test_json_all_missing_on_one_vcpu);
	tcase_add_test(tc, test_json_zero_interval);
	tcase_add_test(tc, test_table);
	tcase_add_test(tc, test_table_one_vcpu);
	tcase_add_test(tc, test_table_eight_vcpus);
	tcase_add_test(tc, test_table_nine_vcpus);
	suite_add_tcase(s, tc);
	return s;
}
