/* The host side of the guest's serial console: stdin as the UART's input,
 * read only as fast as the guest takes it; a terminal on stdin in raw mode
 * while the guest runs, restored on every way out of vmm; and QEMU's Ctrl-A
 * escapes (Ctrl-A x quits, Ctrl-A Ctrl-A sends a Ctrl-A). */
#ifndef VMM_TERMINAL_H
#define VMM_TERMINAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <termios.h>

/* The escape state machine: pure, one input byte at a time. */
#define ESCAPE_CHAR 0x01 /* Ctrl-A */

enum escape_result {
	ESCAPE_NONE, /* the byte was taken by the escape: nothing to send */
	ESCAPE_SEND, /* send *out to the guest */
	ESCAPE_QUIT, /* Ctrl-A x */
	ESCAPE_HELP, /* Ctrl-A h or ?: list the escapes */
};

struct escape {
	bool armed; /* the previous byte was a lone Ctrl-A */
};

enum escape_result escape_feed(struct escape *e, uint8_t in, uint8_t *out);

/* At most this many bytes of host input wait for room in the UART. */
#define TERMINAL_PENDING 16

struct terminal {
	int in_fd;   /* where input comes from; -1 once it ended (or never) */
	int out_fd;  /* where the guest's output goes */
	int wake_fd; /* eventfd: the UART can take input again */
	struct escape esc;
	uint8_t pending[TERMINAL_PENDING]; /* read, filtered, not yet taken */
	size_t off, len;                   /* pending[off, len) waits */
	bool raw;                          /* in_fd is a terminal we put in raw mode */
};

/* Occupy closed standard descriptors (0, 1, 2) with /dev/null. Call before
 * opening anything: otherwise a closed stdin becomes one of vmm's own
 * descriptors, which the console would then read as input. */
void terminal_reserve_stdio(void);

/* in_fd, out_fd: STDIN_FILENO, STDOUT_FILENO (or a test's). 0 or -errno. */
int terminal_init(struct terminal *t, int in_fd, int out_fd);
void terminal_destroy(struct terminal *t);

/* Raw mode on in_fd if it is a terminal this process may use (not one whose
 * foreground is another process group: vmm started in the background leaves
 * the terminal alone and reads no input from it), and the guest's output
 * goes to a terminal too. Output to a pipe or file means a script or test
 * harness runs vmm: the terminal then stays as it is (Ctrl-C still stops
 * vmm), and input is read line by line. Call right before the guest
 * starts; terminal_leave() right after it stops. */
void terminal_enter(struct terminal *t);
void terminal_leave(struct terminal *t);

/* Any thread: the UART has room again (its rx_room callback). */
void terminal_wake(struct terminal *t);
/* The main loop: the wake_fd was readable. */
void terminal_clear_wake(struct terminal *t);

/* Whether input waits in `pending`. */
static inline bool terminal_has_pending(const struct terminal *t)
{
	return t->off < t->len;
}

/* Read what in_fd has (it was readable) into `pending`, through the escape
 * machine; called only when nothing is pending. At end of file or on an
 * error in_fd becomes -1: the guest just gets no more input. Returns
 * ESCAPE_QUIT or ESCAPE_HELP when the input held one (input after a quit is
 * dropped), else ESCAPE_NONE. */
enum escape_result terminal_read(struct terminal *t);

/* cfmakeraw, but output keeps its post-processing (OPOST | ONLCR), so the
 * host terminal renders the guest's and vmm's "\n" as it should. Pure. */
void terminal_make_raw(struct termios *t);

/* The saved terminal settings back, if raw mode is on; idempotent and
 * async-signal-safe (atexit and the fatal-signal handlers call it too). */
void terminal_restore(void);

/* One line for Ctrl-A h. */
extern const char terminal_escape_help[];

#endif
