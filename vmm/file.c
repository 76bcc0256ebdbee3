/* Reading a user's file (kernel, initrd) whole into memory, with a size bound. */
#include "file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int file_read_all(const char *path, size_t max_size, void **data, size_t *size, char *err,
		  size_t errlen)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	struct stat st;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		snprintf(err, errlen, "%s: not a regular file", path);
		goto fail;
	}
	if ((uint64_t)st.st_size > max_size) {
		snprintf(err, errlen, "%s: %lld bytes, larger than guest RAM", path,
			 (long long)st.st_size);
		goto fail;
	}
	size_t n = (size_t)st.st_size;
	char *buf = malloc(n ? n : 1);
	if (!buf) {
		snprintf(err, errlen, "%s: out of memory", path);
		goto fail;
	}
	size_t done = 0;
	while (done < n) {
		ssize_t r = read(fd, buf + done, n - done);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			snprintf(err, errlen, "%s: %s", path, r < 0 ? strerror(errno) : "file shrank while reading");
			free(buf);
			goto fail;
		}
		done += (size_t)r;
	}
	close(fd);
	*data = buf;
	*size = n;
	return 0;
fail:
	close(fd);
	return -1;
}
