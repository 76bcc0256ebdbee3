/* vsnprintf and printf: each printf call goes to the console as one unit,
 * so lines printed by several CPUs do not interleave. */
#include "printf.h"

#include <stdbool.h>
#include <stdint.h>

#include "serial.h"
#include "string.h"

struct out {
	char *buf;
	size_t size, len; /* len counts what would have been written */
};

static void emit(struct out *o, char c)
{
	if (o->len + 1 < o->size)
		o->buf[o->len] = c;
	o->len++;
}

struct spec {
	bool left, zero;
	unsigned width;
};

static void emit_padded(struct out *o, const struct spec *sp, const char *s, size_t n, bool neg,
			const char *prefix)
{
	size_t plen = strlen(prefix) + (neg ? 1 : 0);
	size_t pad = sp->width > n + plen ? sp->width - n - plen : 0;
	if (!sp->left && !sp->zero)
		for (; pad; pad--)
			emit(o, ' ');
	if (neg)
		emit(o, '-');
	for (; *prefix; prefix++)
		emit(o, *prefix);
	if (!sp->left)
		for (; pad; pad--)
			emit(o, '0'); /* only zero-padding is left here */
	for (size_t i = 0; i < n; i++)
		emit(o, s[i]);
	for (; pad; pad--)
		emit(o, ' ');
}

static void emit_number(struct out *o, const struct spec *sp, uint64_t v, unsigned base,
			bool upper, bool neg, const char *prefix)
{
	const char *digits = upper ? "0123456789ABCDEF" : "0123456789abcdef";
	char tmp[24];
	size_t n = 0;
	do {
		tmp[sizeof(tmp) - 1 - n++] = digits[v % base];
		v /= base;
	} while (v);
	emit_padded(o, sp, tmp + sizeof(tmp) - n, n, neg, prefix);
}

int vsnprintf(char *buf, size_t size, const char *fmt, va_list ap)
{
	struct out o = { buf, size, 0 };
	for (; *fmt; fmt++) {
		if (*fmt != '%') {
			emit(&o, *fmt);
			continue;
		}
		struct spec sp = { false, false, 0 };
		for (;; fmt++) {
			if (fmt[1] == '-')
				sp.left = true;
			else if (fmt[1] == '0')
				sp.zero = true;
			else
				break;
		}
		if (fmt[1] == '*') {
			int w = va_arg(ap, int);
			sp.left |= w < 0;
			sp.width = (unsigned)(w < 0 ? -w : w);
			fmt++;
		}
		while (fmt[1] >= '0' && fmt[1] <= '9')
			sp.width = sp.width * 10 + (unsigned)(*++fmt - '0');
		sp.zero &= !sp.left;
		unsigned longs = 0;
		while (fmt[1] == 'l' || fmt[1] == 'z') {
			longs++;
			fmt++;
		}
		char c = *++fmt;
		uint64_t u;
		switch (c) {
		case 'd':
		case 'i': {
			int64_t v = longs ? va_arg(ap, int64_t) : va_arg(ap, int);
			u = v < 0 ? -(uint64_t)v : (uint64_t)v;
			emit_number(&o, &sp, u, 10, false, v < 0, "");
			break;
		}
		case 'u':
		case 'x':
		case 'X':
			u = longs ? va_arg(ap, uint64_t) : va_arg(ap, unsigned int);
			emit_number(&o, &sp, u, c == 'u' ? 10 : 16, c == 'X', false, "");
			break;
		case 'p':
			u = (uintptr_t)va_arg(ap, void *);
			emit_number(&o, &sp, u, 16, false, false, "0x");
			break;
		case 's': {
			const char *s = va_arg(ap, const char *);
			if (!s)
				s = "(null)";
			sp.zero = false;
			emit_padded(&o, &sp, s, strlen(s), false, "");
			break;
		}
		case 'c': {
			char ch = (char)va_arg(ap, int);
			sp.zero = false;
			emit_padded(&o, &sp, &ch, 1, false, "");
			break;
		}
		case '%':
			emit(&o, '%');
			break;
		case '\0':
			fmt--; /* a lone '%' at the end */
			break;
		default: /* unknown: print it as it was written */
			emit(&o, '%');
			emit(&o, c);
			break;
		}
	}
	if (size)
		buf[o.len < size ? o.len : size - 1] = '\0';
	return (int)o.len;
}

int snprintf(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(buf, size, fmt, ap);
	va_end(ap);
	return n;
}

int vprintf(const char *fmt, va_list ap)
{
	char buf[PRINTF_BUF];
	int n = vsnprintf(buf, sizeof(buf), fmt, ap);
	serial_write(buf, strlen(buf));
	return n;
}

int printf(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vprintf(fmt, ap);
	va_end(ap);
	return n;
}

int puts(const char *s)
{
	size_t n = strlen(s);
	serial_write(s, n);
	return (int)n;
}
