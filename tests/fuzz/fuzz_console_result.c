/* Fuzz target: the console result-line parser (vmm/console_result.c,
 * console_result_parse) on its own, and the console (vmm/console.c) that
 * splits guest output into lines and hands each to it.
 * Input:
 *   [0]   the name buffer's size for console_result_parse (0-255)
 *   then guest console output: parsed as one line (up to its first NUL, in
 *   an allocation of exactly its length + 1), and written as it is to a
 *   console collecting results (its output goes to /dev/null).
 * A line that parses must read back the same: prefix, name, '=', the
 * value's digits (maybe with leading zeros), an optional '\r'. */
#include <fcntl.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../vmm/console.h"
#include "../../vmm/console_result.h"
#include "../../vmm/results.h"
#include "fuzz_util.h"

static int devnull = -1;

static void check_line(const char *line, size_t name_size)
{
	char *name = malloc(name_size ? name_size : 1);
	if (!name)
		return;
	uint64_t value = 0;
	if (console_result_parse(line, name, name_size, &value)) {
		size_t n = strlen(name);
		FUZZ_ASSERT(n > 0 && n < name_size);
		size_t prefix = strlen(CONSOLE_RESULT_PREFIX);
		FUZZ_ASSERT(strncmp(line, CONSOLE_RESULT_PREFIX, prefix) == 0);
		FUZZ_ASSERT(strncmp(line + prefix, name, n) == 0 && line[prefix + n] == '=');
		const char *digits = line + prefix + n + 1;
		while (*digits == '0' && digits[1] >= '0' && digits[1] <= '9')
			digits++;
		char back[32];
		snprintf(back, sizeof(back), "%" PRIu64, value);
		size_t len = strlen(back);
		FUZZ_ASSERT(strncmp(digits, back, len) == 0);
		FUZZ_ASSERT(digits[len] == '\0' || (digits[len] == '\r' && digits[len + 1] == '\0'));
	}
	free(name);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (devnull < 0)
		devnull = open("/dev/null", O_WRONLY | O_CLOEXEC);
	if (size == 0)
		return 0;
	size_t name_size = data[0];
	const uint8_t *text = data + 1;
	size_t len = size - 1;

	const uint8_t *nul = memchr(text, '\0', len);
	size_t line_len = nul ? (size_t)(nul - text) : len;
	char *line = malloc(line_len + 1);
	if (!line)
		return 0;
	memcpy(line, text, line_len);
	line[line_len] = '\0';
	check_line(line, name_size);
	free(line);

	static struct results results;
	static struct console con;
	char err[64];
	results_init(&results);
	FUZZ_ASSERT(console_init(&con, devnull, NULL, NULL, NULL, err, sizeof(err)) == 0);
	console_collect_results(&con, &results);
	console_write(&con, (const char *)text, len);
	console_destroy(&con);
	for (unsigned i = 0; i < results.count; i++) {
		size_t n = strnlen(results.item[i].name, TESTDEV_NAME_MAX);
		FUZZ_ASSERT(n > 0 && n < TESTDEV_NAME_MAX);
	}
	results_destroy(&results);
	return 0;
}
