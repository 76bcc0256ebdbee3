/* printf to the serial console and snprintf, for the conversions tests use:
 * %d %i %u %x %X %p %s %c %%, length l/ll/z, flags '-' and '0', width (or *). */
#ifndef GUEST_PRINTF_H
#define GUEST_PRINTF_H

#include <stdarg.h>
#include <stddef.h>

#define PRINTF_BUF 512 /* longer output of one printf call is cut */

int vsnprintf(char *buf, size_t size, const char *fmt, va_list ap)
	__attribute__((format(printf, 3, 0)));
int snprintf(char *buf, size_t size, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
int vprintf(const char *fmt, va_list ap) __attribute__((format(printf, 1, 0)));
int printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
int puts(const char *s); /* no newline added */

#endif
