/* Helpers shared by the unit tests. */
#ifndef TESTS_UNIT_UNIT_UTIL_H
#define TESTS_UNIT_UNIT_UTIL_H

#include <stddef.h>

/* Write `text` to a new temporary file; its name goes into path (at least
 * 32 bytes). Fails the test on error. The caller unlinks it. */
void unit_write_temp(char *path, size_t pathlen, const char *text);

#endif
