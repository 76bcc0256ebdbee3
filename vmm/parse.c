/* Parsers for the values users type: sizes, durations, counts. Pure functions. */
#include "parse.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* strtoull accepts leading blanks and a minus sign ("-1" becomes 2^64-1):
 * users' numbers must start with a digit. */
static bool parse_leading_u64(const char *s, uint64_t *out, const char **rest)
{
	if (!s || !isdigit((unsigned char)s[0]))
		return false;
	char *end;
	errno = 0;
	/* Decimal, or hex after 0x; never octal (base 0 would read "010" as 8). */
	int base = s[0] == '0' && (s[1] == 'x' || s[1] == 'X') ? 16 : 10;
	unsigned long long v = strtoull(s, &end, base);
	if (errno)
		return false;
	*out = v;
	*rest = end;
	return true;
}

bool parse_u64(const char *s, uint64_t *out)
{
	const char *rest;
	return parse_leading_u64(s, out, &rest) && *rest == '\0';
}

static bool mul_overflows(uint64_t a, uint64_t b, uint64_t *out)
{
	return __builtin_mul_overflow(a, b, out);
}

bool parse_size(const char *s, uint64_t *out)
{
	uint64_t v;
	const char *unit;
	if (!parse_leading_u64(s, &v, &unit))
		return false;
	static const char units[] = "bkmgtp";
	unsigned shift = 0;
	if (*unit) {
		const char *u = strchr(units, tolower((unsigned char)*unit));
		if (!u)
			return false;
		shift = 10 * (unsigned)(u - units);
		unit++;
		/* Accept "M", "MB", "MiB"; not "MX". */
		if (shift && (strcasecmp(unit, "ib") == 0 || strcasecmp(unit, "b") == 0))
			unit += strlen(unit);
		if (*unit)
			return false;
	}
	return !mul_overflows(v, 1ULL << shift, out);
}

bool parse_duration_ms(const char *s, uint64_t *out)
{
	uint64_t v;
	const char *unit;
	if (!parse_leading_u64(s, &v, &unit))
		return false;
	uint64_t scale;
	if (*unit == '\0' || strcmp(unit, "s") == 0)
		scale = 1000;
	else if (strcmp(unit, "ms") == 0)
		scale = 1;
	else if (strcmp(unit, "m") == 0)
		scale = 60 * 1000;
	else if (strcmp(unit, "h") == 0)
		scale = 3600 * 1000;
	else
		return false;
	return !mul_overflows(v, scale, out);
}

bool parse_bool(const char *s, bool *out)
{
	static const char *const yes[] = { "on", "yes", "true", "1" };
	static const char *const no[] = { "off", "no", "false", "0" };
	for (size_t i = 0; i < sizeof(yes) / sizeof(yes[0]); i++) {
		if (strcasecmp(s, yes[i]) == 0) {
			*out = true;
			return true;
		}
		if (strcasecmp(s, no[i]) == 0) {
			*out = false;
			return true;
		}
	}
	return false;
}
