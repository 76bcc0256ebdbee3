/* Results a guest reports on its console: a line "vmm-result: NAME=VALUE"
 * (a Linux guest's user space has no test device; it has a serial console). */
#ifndef VMM_CONSOLE_RESULT_H
#define VMM_CONSOLE_RESULT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define CONSOLE_RESULT_PREFIX "vmm-result: "

/* If `line` (without its newline; a trailing '\r' from the guest's tty is
 * allowed) is a result line, store its name (NUL-terminated, at most
 * name_size - 1 characters of [a-z0-9_.:-]; the VMM's
 * results take TESTDEV_NAME_MAX - 1 = 47) and its unsigned decimal value
 * and return true. Anything else, including values past 2^64 - 1, is not. */
bool console_result_parse(const char *line, char *name, size_t name_size, uint64_t *value);

#endif
