/* Aggregated checks: one report() line for a check made on many items
 * (CPUs, say), printing only the first expectation that failed, with both
 * values, so a check over 64 CPUs stays one line unless it fails. */
#ifndef GUEST_CHECK_H
#define GUEST_CHECK_H

#include <stdbool.h>
#include <stdint.h>

/* Starts a check; `what` names it in the report line (kept, not copied). */
void check_begin(const char *what);

/* Starts the next item; its name prefixes the first failure's message. */
void check_item(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* An expectation on the current item: false (and the item fails) unless cond. */
bool check_that(bool cond, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* got == want, else the message "<name> is <got>, expected <want>". */
bool check_eq(uint64_t got, uint64_t want, const char *name_fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* report(): passes when there were items and all of them passed; "what: P of N". */
bool check_end(void);

#endif
