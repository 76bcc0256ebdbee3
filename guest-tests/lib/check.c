/* Aggregated checks over many items, one report() line each (check.h). One
 * check at a time, made by one CPU. */
#include "check.h"

#include <stdarg.h>

#include "printf.h"
#include "report.h"

static struct {
	const char *what;
	unsigned items, passed;
	bool item_open, item_ok, shown;
	char item[48];
} chk;

static void close_item(void)
{
	if (chk.item_open) {
		chk.items++;
		chk.passed += chk.item_ok;
	}
	chk.item_open = false;
}

void check_begin(const char *what)
{
	chk.what = what;
	chk.items = chk.passed = 0;
	chk.item_open = chk.shown = false;
}

void check_item(const char *fmt, ...)
{
	va_list ap;
	close_item();
	va_start(ap, fmt);
	vsnprintf(chk.item, sizeof(chk.item), fmt, ap);
	va_end(ap);
	chk.item_open = chk.item_ok = true;
}

static void fail(const char *fmt, va_list ap)
{
	chk.item_ok = false;
	if (chk.shown)
		return;
	char msg[PRINTF_BUF - 128];
	vsnprintf(msg, sizeof(msg), fmt, ap);
	printf("%s: first mismatch, %s: %s\n", chk.what, chk.item, msg);
	chk.shown = true;
}

bool check_that(bool cond, const char *fmt, ...)
{
	va_list ap;
	if (cond)
		return true;
	va_start(ap, fmt);
	fail(fmt, ap);
	va_end(ap);
	return false;
}

bool check_eq(uint64_t got, uint64_t want, const char *name_fmt, ...)
{
	if (got == want)
		return true;
	char name[128];
	va_list ap;
	va_start(ap, name_fmt);
	vsnprintf(name, sizeof(name), name_fmt, ap);
	va_end(ap);
	return check_that(false, "%s is %lu, expected %lu", name, got, want);
}

bool check_end(void)
{
	close_item();
	return report(chk.items && chk.passed == chk.items, "%s: %u of %u", chk.what, chk.passed,
		      chk.items);
}
