/* The A/B comparison's arithmetic: medians with min-max of repeated runs,
 * and ratios against the first configuration. Pure. */
#include "ab_math.h"

#include <stdlib.h>

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

struct ab_summary ab_summarize(double *values, size_t n)
{
	struct ab_summary s = { 0, 0, 0, n };
	if (n == 0)
		return s;
	qsort(values, n, sizeof(values[0]), cmp_double);
	s.min = values[0];
	s.max = values[n - 1];
	s.median = n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
	return s;
}

bool ab_ratio(const struct ab_summary *a, const struct ab_summary *b, double *ratio)
{
	if (!a->n || !b->n || a->median == 0)
		return false;
	*ratio = b->median / a->median;
	return true;
}
