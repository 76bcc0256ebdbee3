/* The console: guest serial output to the VMM's stdout, line-buffered (or
 * written through, for a person typing), and the --expect matcher that ends
 * the VM when a line matches. */
#ifndef VMM_CONSOLE_H
#define VMM_CONSOLE_H

#include <pthread.h>
#include <regex.h>
#include <stdbool.h>
#include <stddef.h>

#include "results.h"

#define CONSOLE_LINE_MAX 1024

typedef void (*console_match_fn)(void *opaque);

struct console {
	pthread_mutex_t lock;
	int out_fd;
	char line[CONSOLE_LINE_MAX]; /* the current, unfinished line */
	size_t len;
	size_t written; /* how much of it is already out */
	bool write_through; /* out as it comes, not by lines */
	bool have_expect;
	regex_t expect;
	console_match_fn on_match; /* called once, the first time a line matches */
	void *match_opaque;
	bool matched;
	struct results *results; /* collects "vmm-result:" lines, or NULL */
};

/* pattern may be NULL. Returns 0, or -EINVAL with `err` naming the regex error. */
int console_init(struct console *con, int out_fd, const char *pattern, console_match_fn on_match,
		 void *opaque, char *err, size_t errlen);
void console_destroy(struct console *con);

/* Collect the guest's console result lines (console_result.h) into r. */
void console_collect_results(struct console *con, struct results *r);

/* Append guest output. Lines longer than CONSOLE_LINE_MAX are written out in
 * pieces (and matched piecewise), so guest output never buffers without bound. */
void console_write(struct console *con, const char *buf, size_t n);

/* Line-buffered output keeps the VMM's own messages off the guest's lines;
 * a person typing at a raw terminal needs the guest's prompt and echo at
 * once, which end no line. Either way, matching and results see whole lines. */
void console_set_write_through(struct console *con, bool on);

/* Write out whatever unfinished line is buffered. */
void console_flush(struct console *con);

#endif
