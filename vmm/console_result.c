/* The console result line parser. The guest writes the line, so every byte
 * is checked and nothing is trusted to be terminated or short. */
#include "console_result.h"

#include <string.h>

static bool name_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '.' ||
	       c == ':' || c == '-';
}

static bool parse_u64(const char *s, uint64_t *value)
{
	uint64_t v = 0;
	if (*s == '\0')
		return false;
	for (; *s; s++) {
		if (*s < '0' || *s > '9')
			return false;
		unsigned digit = (unsigned)(*s - '0');
		if (v > (UINT64_MAX - digit) / 10)
			return false;
		v = v * 10 + digit;
	}
	*value = v;
	return true;
}

bool console_result_parse(const char *line, char *name, size_t name_size, uint64_t *value)
{
	size_t prefix = strlen(CONSOLE_RESULT_PREFIX);
	if (name_size < 2 || strncmp(line, CONSOLE_RESULT_PREFIX, prefix) != 0)
		return false;
	const char *p = line + prefix;
	size_t n = 0;
	while (name_char(p[n]))
		n++;
	if (n == 0 || n >= name_size || p[n] != '=')
		return false;
	char digits[24];
	const char *v = p + n + 1;
	size_t len = strlen(v);
	if (len && v[len - 1] == '\r')
		len--;
	if (len == 0 || len >= sizeof(digits))
		return false;
	memcpy(digits, v, len);
	digits[len] = '\0';
	if (!parse_u64(digits, value))
		return false;
	memcpy(name, p, n);
	name[n] = '\0';
	return true;
}
