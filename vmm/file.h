/* Reading a user's file (kernel, initrd) whole into memory, with a size bound. */
#ifndef VMM_FILE_H
#define VMM_FILE_H

#include <stddef.h>

/* 0 with *data (free()) and *size, or -1 with "PATH: reason" in err. */
int file_read_all(const char *path, size_t max_size, void **data, size_t *size, char *err,
		  size_t errlen);

#endif
