/* The console: guest serial output to the VMM's stdout, line-buffered (or
 * written through, for a person typing), and the --expect matcher that ends
 * the VM when a line matches. */
#include "console.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "console_result.h"

int console_init(struct console *con, int out_fd, const char *pattern, console_match_fn on_match,
		 void *opaque, char *err, size_t errlen)
{
	memset(con, 0, sizeof(*con));
	con->out_fd = out_fd;
	con->on_match = on_match;
	con->match_opaque = opaque;
	if (pattern) {
		int rc = regcomp(&con->expect, pattern, REG_EXTENDED | REG_NOSUB);
		if (rc) {
			regerror(rc, &con->expect, err, errlen);
			return -EINVAL;
		}
		con->have_expect = true;
	}
	pthread_mutex_init(&con->lock, NULL);
	return 0;
}

void console_destroy(struct console *con)
{
	console_flush(con);
	if (con->have_expect)
		regfree(&con->expect);
	pthread_mutex_destroy(&con->lock);
}

static void write_all(int fd, const char *buf, size_t n)
{
	while (n > 0) {
		ssize_t w = write(fd, buf, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return; /* stdout gone: the guest's output is dropped, the VM goes on */
		buf += w;
		n -= (size_t)w;
	}
}

void console_collect_results(struct console *con, struct results *r)
{
	con->results = r;
}

static void collect_result(struct console *con)
{
	char name[TESTDEV_NAME_MAX];
	uint64_t value;
	if (con->results && console_result_parse(con->line, name, sizeof(name), &value))
		results_add(con->results, name, value);
}

/* Writes out what of the current line is not out yet. */
static void write_pending(struct console *con)
{
	write_all(con->out_fd, con->line + con->written, con->len - con->written);
	con->written = con->len;
}

/* Called with the lock held, on a complete line (without its newline) or a
 * piece of an over-long one. */
static void emit_line(struct console *con, bool newline)
{
	if (newline)
		con->line[con->len++] = '\n';
	write_pending(con);
	con->line[con->len - (newline ? 1 : 0)] = '\0';
	if (con->have_expect && !con->matched &&
	    regexec(&con->expect, con->line, 0, NULL, 0) == 0) {
		con->matched = true;
		con->on_match(con->match_opaque);
	}
	/* A piece of an over-long line is never a result: only whole lines. */
	if (newline)
		collect_result(con);
	con->len = 0;
	con->written = 0;
}

void console_write(struct console *con, const char *buf, size_t n)
{
	pthread_mutex_lock(&con->lock);
	for (size_t i = 0; i < n; i++) {
		char c = buf[i];
		if (c == '\n') {
			emit_line(con, true);
			continue;
		}
		con->line[con->len++] = c;
		/* Keep room for the newline and the terminating NUL. */
		if (con->len == CONSOLE_LINE_MAX - 2)
			emit_line(con, false);
	}
	if (con->write_through)
		write_pending(con);
	pthread_mutex_unlock(&con->lock);
}

void console_set_write_through(struct console *con, bool on)
{
	pthread_mutex_lock(&con->lock);
	con->write_through = on;
	if (on)
		write_pending(con);
	pthread_mutex_unlock(&con->lock);
}

void console_flush(struct console *con)
{
	pthread_mutex_lock(&con->lock);
	if (con->len)
		emit_line(con, false);
	pthread_mutex_unlock(&con->lock);
}
