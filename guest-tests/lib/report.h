/* kvm-unit-tests' report(): one PASS/FAIL line per check, and a summary
 * whose return value is the test's exit code. */
#ifndef GUEST_REPORT_H
#define GUEST_REPORT_H

#include <stdbool.h>

/* Prints "PASS: what" or "FAIL: what"; returns pass. Any CPU may call it. */
bool report(bool pass, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Prints "SKIP: what": a check that cannot be made here. */
void report_skip(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Prints "SUMMARY: N tests, M unexpected failures[, K skipped]"; returns 0
 * if nothing failed, else 1. */
int report_summary(void);

#endif
