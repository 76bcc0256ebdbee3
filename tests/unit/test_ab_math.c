/* ab_math: medians with min and max of repeated runs (the median of an even
 * count is the mean of the two middle values), and ratios b / a of two
 * summaries' medians. Every expected value is worked out by hand from
 * those definitions. All values are small binary fractions or integers, so
 * the exact comparisons below are exact in double arithmetic. */
#include <stddef.h>

#include "../../vmm/ab_math.h"
#include "suites.h"

static void assert_values(const double *got, const double *want, size_t n)
{
	for (size_t i = 0; i < n; i++)
		ck_assert_msg(got[i] == want[i], "values[%zu] = %g, expected %g", i, got[i], want[i]);
}

/* --- ab_summarize ------------------------------------------------------ */

START_TEST(test_odd_count)
{
	/* 5 1 3 -> sorted 1 3 5: median the middle one, 3. */
	double v[] = { 5, 1, 3 };
	struct ab_summary s = ab_summarize(v, 3);
	ck_assert_uint_eq(s.n, 3);
	ck_assert_double_eq(s.median, 3);
	ck_assert_double_eq(s.min, 1);
	ck_assert_double_eq(s.max, 5);
	const double sorted[] = { 1, 3, 5 };
	assert_values(v, sorted, 3);
}
END_TEST

START_TEST(test_even_count)
{
	/* 4 1 3 2 -> sorted 1 2 3 4: median (2 + 3) / 2 = 2.5. */
	double v[] = { 4, 1, 3, 2 };
	struct ab_summary s = ab_summarize(v, 4);
	ck_assert_uint_eq(s.n, 4);
	ck_assert_double_eq(s.median, 2.5);
	ck_assert_double_eq(s.min, 1);
	ck_assert_double_eq(s.max, 4);
	const double sorted[] = { 1, 2, 3, 4 };
	assert_values(v, sorted, 4);
}
END_TEST

START_TEST(test_one_value)
{
	double v[] = { 7.25 };
	struct ab_summary s = ab_summarize(v, 1);
	ck_assert_uint_eq(s.n, 1);
	ck_assert_double_eq(s.median, 7.25);
	ck_assert_double_eq(s.min, 7.25);
	ck_assert_double_eq(s.max, 7.25);
}
END_TEST

START_TEST(test_two_values)
{
	/* 20 10 -> 10 20: median (10 + 20) / 2 = 15. */
	double v[] = { 20, 10 };
	struct ab_summary s = ab_summarize(v, 2);
	ck_assert_double_eq(s.median, 15);
	ck_assert_double_eq(s.min, 10);
	ck_assert_double_eq(s.max, 20);
	/* Negative and fractional: -1.5 0.5 -> (-1.5 + 0.5) / 2 = -0.5. */
	double w[] = { 0.5, -1.5 };
	s = ab_summarize(w, 2);
	ck_assert_double_eq(s.median, -0.5);
	ck_assert_double_eq(s.min, -1.5);
	ck_assert_double_eq(s.max, 0.5);
}
END_TEST

START_TEST(test_no_values)
{
	/* n = 0: nothing summarised, the array not touched. */
	double v[] = { 3, 1, 2 };
	struct ab_summary s = ab_summarize(v, 0);
	ck_assert_uint_eq(s.n, 0);
	const double untouched[] = { 3, 1, 2 };
	assert_values(v, untouched, 3);
}
END_TEST

START_TEST(test_only_first_n)
{
	/* n = 3 of 5: only 9 8 7 count (median 8); 1 and 0 stay where they are. */
	double v[] = { 9, 8, 7, 1, 0 };
	struct ab_summary s = ab_summarize(v, 3);
	ck_assert_uint_eq(s.n, 3);
	ck_assert_double_eq(s.median, 8);
	ck_assert_double_eq(s.min, 7);
	ck_assert_double_eq(s.max, 9);
	const double after[] = { 7, 8, 9, 1, 0 };
	assert_values(v, after, 5);
}
END_TEST

START_TEST(test_duplicates)
{
	/* 2 2 1 2 3 -> 1 2 2 2 3: median 2. */
	double v[] = { 2, 2, 1, 2, 3 };
	struct ab_summary s = ab_summarize(v, 5);
	ck_assert_double_eq(s.median, 2);
	ck_assert_double_eq(s.min, 1);
	ck_assert_double_eq(s.max, 3);
	const double sorted[] = { 1, 2, 2, 2, 3 };
	assert_values(v, sorted, 5);
	/* 3 3 1 1 -> 1 1 3 3: median (1 + 3) / 2 = 2, a value not in the set. */
	double w[] = { 3, 3, 1, 1 };
	s = ab_summarize(w, 4);
	ck_assert_double_eq(s.median, 2);
	/* All equal: 4 4 4 4 -> 4 everywhere. */
	double x[] = { 4, 4, 4, 4 };
	s = ab_summarize(x, 4);
	ck_assert_double_eq(s.median, 4);
	ck_assert_double_eq(s.min, 4);
	ck_assert_double_eq(s.max, 4);
}
END_TEST

START_TEST(test_unsorted_large)
{
	/* 1..101 in a scrambled order (i * 37 mod 101, a permutation of
	 * 0..100 since 101 is prime, plus 1): median the 51st value, 51. */
	double v[101];
	for (unsigned i = 0; i < 101; i++)
		v[i] = (double)((i * 37) % 101 + 1);
	struct ab_summary s = ab_summarize(v, 101);
	ck_assert_uint_eq(s.n, 101);
	ck_assert_double_eq(s.median, 51);
	ck_assert_double_eq(s.min, 1);
	ck_assert_double_eq(s.max, 101);
	for (unsigned i = 0; i < 101; i++)
		ck_assert_double_eq(v[i], i + 1);
	/* The first 100 of 100..1 descending: 1..100 -> (50 + 51) / 2 = 50.5. */
	double w[100];
	for (unsigned i = 0; i < 100; i++)
		w[i] = 100 - i;
	s = ab_summarize(w, 100);
	ck_assert_double_eq(s.median, 50.5);
	ck_assert_double_eq(s.min, 1);
	ck_assert_double_eq(s.max, 100);
}
END_TEST

/* --- ab_ratio ---------------------------------------------------------- */

START_TEST(test_ratio)
{
	/* a: 2 4 6 -> median 4; b: 5 7 6 8 -> 5 6 7 8 -> 6.5. 6.5 / 4 = 1.625. */
	double va[] = { 2, 4, 6 }, vb[] = { 5, 7, 6, 8 };
	struct ab_summary a = ab_summarize(va, 3), b = ab_summarize(vb, 4);
	double r = 0;
	ck_assert(ab_ratio(&a, &b, &r));
	ck_assert_double_eq(r, 1.625);
	/* The other way: 4 / 6.5 = 8 / 13. */
	ck_assert(ab_ratio(&b, &a, &r));
	ck_assert_double_eq_tol(r, 8.0 / 13.0, 1e-15);
	/* Against itself: 1. */
	ck_assert(ab_ratio(&a, &a, &r));
	ck_assert_double_eq(r, 1);
}
END_TEST

START_TEST(test_ratio_b_zero)
{
	/* b's median 0 is fine: 0 / 4 = 0. */
	struct ab_summary a = { .median = 4, .min = 4, .max = 4, .n = 1 };
	struct ab_summary b = { .median = 0, .min = 0, .max = 0, .n = 1 };
	double r = 99;
	ck_assert(ab_ratio(&a, &b, &r));
	ck_assert_double_eq(r, 0);
}
END_TEST

START_TEST(test_ratio_refused)
{
	struct ab_summary a = { .median = 4, .min = 4, .max = 4, .n = 3 };
	struct ab_summary b = { .median = 6, .min = 6, .max = 6, .n = 3 };
	struct ab_summary zero = { .median = 0, .min = -1, .max = 1, .n = 3 };
	double none_values[1] = { 0 };
	struct ab_summary empty = ab_summarize(none_values, 0);
	double r = 99;
	/* a's median 0: no ratio (it would divide by 0). */
	ck_assert(!ab_ratio(&zero, &b, &r));
	/* Either side empty. */
	ck_assert(!ab_ratio(&empty, &b, &r));
	ck_assert(!ab_ratio(&a, &empty, &r));
	ck_assert(!ab_ratio(&empty, &empty, &r));
	/* An empty a whose median field happens to be non-zero: still refused. */
	struct ab_summary stale = { .median = 4, .min = 4, .max = 4, .n = 0 };
	ck_assert(!ab_ratio(&stale, &b, &r));
	ck_assert(!ab_ratio(&a, &stale, &r));
	/* The ratio is left alone when refused. */
	ck_assert_double_eq(r, 99);
}
END_TEST

Suite *ab_math_suite(void)
{
	Suite *s = suite_create("ab_math");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, test_odd_count);
	tcase_add_test(tc, test_even_count);
	tcase_add_test(tc, test_one_value);
	tcase_add_test(tc, test_two_values);
	tcase_add_test(tc, test_no_values);
	tcase_add_test(tc, test_only_first_n);
	tcase_add_test(tc, test_duplicates);
	tcase_add_test(tc, test_unsorted_large);
	tcase_add_test(tc, test_ratio);
	tcase_add_test(tc, test_ratio_b_zero);
	tcase_add_test(tc, test_ratio_refused);
	suite_add_tcase(s, tc);
	return s;
}
