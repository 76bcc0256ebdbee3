/* Helpers shared by the unit tests. */
#include "unit_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <check.h>

void unit_write_temp(char *path, size_t pathlen, const char *text)
{
	const char *dir = getenv("TMPDIR");
	if (!dir || !*dir)
		dir = "/tmp";
	int n = snprintf(path, pathlen, "%s/vmm-unit-XXXXXX", dir);
	ck_assert_msg(n > 0 && (size_t)n < pathlen, "temp path too long");
	int fd = mkstemp(path);
	ck_assert_msg(fd >= 0, "mkstemp %s failed", path);
	size_t len = strlen(text);
	ck_assert_msg(write(fd, text, len) == (ssize_t)len, "writing %s failed", path);
	close(fd);
}
