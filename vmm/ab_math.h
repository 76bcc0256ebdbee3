/* The A/B comparison's arithmetic: medians with min-max of repeated runs,
 * and ratios against the first configuration. Pure. */
#ifndef VMM_AB_MATH_H
#define VMM_AB_MATH_H

#include <stdbool.h>
#include <stddef.h>

struct ab_summary {
	double median, min, max;
	size_t n; /* values summarised; 0: none (median etc. undefined) */
};

/* Sorts `values` in place. The median of an even count is the mean of the
 * two middle values. */
struct ab_summary ab_summarize(double *values, size_t n);

/* b / a, or false when a is 0 or either side has no values. */
bool ab_ratio(const struct ab_summary *a, const struct ab_summary *b, double *ratio);

#endif
