/* The few libc string and memory functions the runtime and tests use, plus
 * a number parser for parameters. */
#ifndef GUEST_STRING_H
#define GUEST_STRING_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

void *memset(void *s, int c, size_t n);
void *memcpy(void *dst, const void *src, size_t n);
void *memmove(void *dst, const void *src, size_t n);
int memcmp(const void *a, const void *b, size_t n);
size_t strlen(const char *s);
size_t strnlen(const char *s, size_t max);
int strcmp(const char *a, const char *b);
int strncmp(const char *a, const char *b, size_t n);

/* Parses a decimal or 0x-prefixed hexadecimal number that makes up all of
 * [s, s + len); false if it does not or it overflows 64 bits. */
bool parse_u64(const char *s, size_t len, uint64_t *out);

#endif
