/* Parsers for the values users type: sizes, durations, counts. Pure functions. */
#ifndef VMM_PARSE_H
#define VMM_PARSE_H

#include <stdbool.h>
#include <stdint.h>

/* "64M", "1G", "512K", "4096", "2T" (binary units, case-insensitive, an
 * optional trailing "iB"/"B"). False on junk, empty input, or overflow. */
bool parse_size(const char *s, uint64_t *out);

/* "30" or "30s", "500ms", "2m", "1h" into milliseconds. False on junk or overflow. */
bool parse_duration_ms(const char *s, uint64_t *out);

/* A decimal (or 0x hex) unsigned integer with nothing after it. */
bool parse_u64(const char *s, uint64_t *out);

/* "on"/"off", "yes"/"no", "true"/"false", "1"/"0". */
bool parse_bool(const char *s, bool *out);

#endif
