/* terminal: the Ctrl-A escapes, reading host input in bounded pieces, and
 * raw mode on a terminal, restored on exit and on fatal signals (checked on
 * a pseudo-terminal, in child processes). */
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

#include "../../vmm/terminal.h"
#include "suites.h"

#define CTRL_A "\001"

/* Feed a string through a fresh escape machine: what the guest would get,
 * and the last non-send result. */
static enum escape_result feed(struct escape *e, const char *in, size_t n, char *sent)
{
	enum escape_result last = ESCAPE_NONE;
	size_t len = 0;
	for (size_t i = 0; i < n; i++) {
		uint8_t c;
		enum escape_result r = escape_feed(e, (uint8_t)in[i], &c);
		if (r == ESCAPE_SEND)
			sent[len++] = (char)c;
		else if (r != ESCAPE_NONE)
			last = r;
	}
	sent[len] = '\0';
	return last;
}

START_TEST(test_escape_plain)
{
	/* Everything but Ctrl-A passes through, Ctrl-C and Ctrl-D included. */
	struct escape e = { 0 };
	char sent[32];
	ck_assert_int_eq(feed(&e, "ls\r\003\004x", 7, sent), ESCAPE_NONE);
	ck_assert_str_eq(sent, "ls\r\003\004x");
}
END_TEST

START_TEST(test_escape_quit)
{
	struct escape e = { 0 };
	char sent[32];
	ck_assert_int_eq(feed(&e, "ab" CTRL_A "x", 4, sent), ESCAPE_QUIT);
	ck_assert_str_eq(sent, "ab");
	/* 'X' is not 'x' (QEMU's escape is lower case only). */
	struct escape e2 = { 0 };
	ck_assert_int_eq(feed(&e2, CTRL_A "X", 2, sent), ESCAPE_NONE);
	ck_assert_str_eq(sent, "");
}
END_TEST

START_TEST(test_escape_literal_ctrl_a)
{
	/* Ctrl-A Ctrl-A sends one Ctrl-A (to the guest's shell: start of line),
	 * and the machine is disarmed after it: "x" is then just "x". */
	struct escape e = { 0 };
	char sent[32];
	ck_assert_int_eq(feed(&e, CTRL_A CTRL_A "x", 3, sent), ESCAPE_NONE);
	ck_assert_str_eq(sent, CTRL_A "x");
	/* Three in a row: one sent, one armed. */
	ck_assert_int_eq(feed(&e, CTRL_A CTRL_A CTRL_A "x", 4, sent), ESCAPE_QUIT);
	ck_assert_str_eq(sent, CTRL_A);
}
END_TEST

START_TEST(test_escape_unknown_and_help)
{
	struct escape e = { 0 };
	char sent[32];
	/* An unknown escape drops both bytes; the next byte is ordinary. */
	ck_assert_int_eq(feed(&e, CTRL_A "zq", 3, sent), ESCAPE_NONE);
	ck_assert_str_eq(sent, "q");
	ck_assert_int_eq(feed(&e, CTRL_A "h", 2, sent), ESCAPE_HELP);
	ck_assert_str_eq(sent, "");
	ck_assert_int_eq(feed(&e, CTRL_A "?", 2, sent), ESCAPE_HELP);
	ck_assert(!e.armed);
}
END_TEST

START_TEST(test_escape_split_across_reads)
{
	/* The state survives between reads: Ctrl-A at the end of one, x at
	 * the start of the next. */
	struct escape e = { 0 };
	char sent[32];
	ck_assert_int_eq(feed(&e, "a" CTRL_A, 2, sent), ESCAPE_NONE);
	ck_assert_str_eq(sent, "a");
	ck_assert(e.armed);
	ck_assert_int_eq(feed(&e, "x", 1, sent), ESCAPE_QUIT);
}
END_TEST

START_TEST(test_make_raw)
{
	struct termios t;
	memset(&t, 0, sizeof(t));
	t.c_iflag = ICRNL | IXON | BRKINT | ISTRIP | INLCR | IGNCR;
	t.c_oflag = OPOST | ONLCR;
	t.c_lflag = ICANON | ECHO | ECHONL | ISIG | IEXTEN;
	t.c_cflag = CS7 | PARENB;
	terminal_make_raw(&t);
	/* Input: no line editing, echo, signals (Ctrl-C goes to the guest),
	 * CR translation or flow control. */
	ck_assert_uint_eq(t.c_lflag & (ICANON | ECHO | ECHONL | ISIG | IEXTEN), 0);
	ck_assert_uint_eq(t.c_iflag & (ICRNL | IXON | BRKINT | ISTRIP | INLCR | IGNCR), 0);
	ck_assert_uint_eq(t.c_cflag & (CSIZE | PARENB), CS8);
	ck_assert_uint_eq(t.c_cc[VMIN], 1);
	ck_assert_uint_eq(t.c_cc[VTIME], 0);
	/* Output keeps \n -> \r\n, so the host terminal renders lines. */
	ck_assert_uint_eq(t.c_oflag & (OPOST | ONLCR), OPOST | ONLCR);
}
END_TEST

/* terminal_read on a pipe. */
static int pipefd[2];
static struct terminal term;

static void pipe_setup(void)
{
	ck_assert_int_eq(pipe(pipefd), 0);
	ck_assert_int_eq(terminal_init(&term, pipefd[0], pipefd[1]), 0);
}

static void pipe_teardown(void)
{
	terminal_destroy(&term);
	close(pipefd[0]);
	if (pipefd[1] >= 0)
		close(pipefd[1]);
}

static void put(const char *s, size_t n)
{
	ck_assert_int_eq(write(pipefd[1], s, n), (ssize_t)n);
}

static void pending_is(const char *want, size_t n)
{
	ck_assert_uint_eq(term.len - term.off, n);
	ck_assert_mem_eq(term.pending + term.off, want, n);
}

START_TEST(test_read_filters)
{
	put("a" CTRL_A CTRL_A "b", 4);
	ck_assert_int_eq(terminal_read(&term), ESCAPE_NONE);
	pending_is("a" CTRL_A "b", 3);
	ck_assert(terminal_has_pending(&term));
	ck_assert_int_eq(term.in_fd, pipefd[0]);
}
END_TEST

START_TEST(test_read_quit)
{
	put("ok" CTRL_A "x after", 10);
	ck_assert_int_eq(terminal_read(&term), ESCAPE_QUIT);
	pending_is("ok", 2);
}
END_TEST

START_TEST(test_read_bounded)
{
	/* 40 bytes waiting: one read takes at most TERMINAL_PENDING; the rest
	 * stays in the pipe, not in vmm. */
	char buf[40];
	memset(buf, 'q', sizeof(buf));
	put(buf, sizeof(buf));
	ck_assert_int_eq(terminal_read(&term), ESCAPE_NONE);
	pending_is(buf, TERMINAL_PENDING);
	int left = 0;
	ck_assert_int_eq(ioctl(pipefd[0], FIONREAD, &left), 0);
	ck_assert_int_eq(left, 40 - TERMINAL_PENDING);
}
END_TEST

START_TEST(test_read_eof)
{
	/* End of input: no more reading, nothing pending, no error. */
	put("z", 1);
	close(pipefd[1]);
	pipefd[1] = -1;
	ck_assert_int_eq(terminal_read(&term), ESCAPE_NONE);
	pending_is("z", 1);
	ck_assert_int_eq(term.in_fd, pipefd[0]);
	term.off = term.len;
	ck_assert_int_eq(terminal_read(&term), ESCAPE_NONE);
	ck_assert_int_eq(term.in_fd, -1);
	ck_assert(!terminal_has_pending(&term));
}
END_TEST

START_TEST(test_read_closed_fd)
{
	/* An fd that is not open at all (EBADF) ends input the same way. */
	term.in_fd = 1000;
	ck_assert_int_eq(terminal_read(&term), ESCAPE_NONE);
	ck_assert_int_eq(term.in_fd, -1);
}
END_TEST

START_TEST(test_wake)
{
	/* Wakes accumulate in the eventfd; one clear drains them. */
	struct pollfd p = { .fd = term.wake_fd, .events = POLLIN };
	ck_assert_int_eq(poll(&p, 1, 0), 0);
	terminal_wake(&term);
	terminal_wake(&term);
	ck_assert_int_eq(poll(&p, 1, 0), 1);
	terminal_clear_wake(&term);
	ck_assert_int_eq(poll(&p, 1, 0), 0);
}
END_TEST

START_TEST(test_not_a_terminal)
{
	/* A pipe is no terminal: raw mode does nothing, input stays on. */
	terminal_enter(&term);
	ck_assert(!term.raw);
	ck_assert_int_eq(term.in_fd, pipefd[0]);
	terminal_leave(&term);
}
END_TEST

/* Raw mode on a pseudo-terminal's slave side. */
static int master = -1, slave = -1;
static struct termios cooked;

static void pty_setup(void)
{
	master = posix_openpt(O_RDWR | O_NOCTTY);
	ck_assert_int_ge(master, 0);
	ck_assert_int_eq(grantpt(master), 0);
	ck_assert_int_eq(unlockpt(master), 0);
	slave = open(ptsname(master), O_RDWR | O_NOCTTY);
	ck_assert_int_ge(slave, 0);
	ck_assert_int_eq(tcgetattr(slave, &cooked), 0);
	ck_assert(cooked.c_lflag & ICANON);
	ck_assert_int_eq(terminal_init(&term, slave, slave), 0);
}

static void pty_teardown(void)
{
	terminal_destroy(&term);
	close(slave);
	close(master);
}

static bool is_raw(void)
{
	struct termios now;
	ck_assert_int_eq(tcgetattr(slave, &now), 0);
	return !(now.c_lflag & (ICANON | ECHO | ISIG)) && (now.c_oflag & ONLCR);
}

static bool is_cooked(void)
{
	struct termios now;
	ck_assert_int_eq(tcgetattr(slave, &now), 0);
	return now.c_lflag == cooked.c_lflag && now.c_iflag == cooked.c_iflag &&
	       now.c_oflag == cooked.c_oflag && now.c_cflag == cooked.c_cflag;
}

START_TEST(test_raw_and_back)
{
	terminal_enter(&term);
	ck_assert(term.raw);
	ck_assert(is_raw());
	terminal_leave(&term);
	ck_assert(!term.raw);
	ck_assert(is_cooked());
	/* Leaving twice, or restoring with nothing to restore, is harmless. */
	terminal_leave(&term);
	terminal_restore();
	ck_assert(is_cooked());
}
END_TEST

START_TEST(test_output_not_a_terminal)
{
	/* Output to a pipe (a script or harness runs vmm): the terminal stays
	 * cooked, so Ctrl-C still stops vmm; input is still read. */
	int p[2];
	ck_assert_int_eq(pipe(p), 0);
	term.out_fd = p[1];
	terminal_enter(&term);
	ck_assert(!term.raw);
	ck_assert(is_cooked());
	ck_assert_int_eq(term.in_fd, slave);
	close(p[0]);
	close(p[1]);
}
END_TEST

START_TEST(test_raw_input)
{
	/* In raw mode a byte is readable at once, no newline needed, and
	 * Ctrl-C is a byte, not a signal. */
	terminal_enter(&term);
	ck_assert_int_eq(write(master, "a\003", 2), 2);
	struct pollfd p = { .fd = slave, .events = POLLIN };
	ck_assert_int_eq(poll(&p, 1, 5000), 1);
	usleep(10000); /* both bytes through the line discipline */
	ck_assert_int_eq(terminal_read(&term), ESCAPE_NONE);
	pending_is("a\003", 2);
	terminal_leave(&term);
}
END_TEST

/* Run `how` in a child that has put the pty in raw mode; returns its wait
 * status. The terminal is the child's to restore. */
enum ending { END_EXIT, END_ABORT, END_RAISE_SEGV, END_FAULT, END_KILL_QUIT };

static int child_ends(enum ending how)
{
	pid_t pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		/* A sanitizer's report of the deliberate fault is noise here. */
		int null_fd = open("/dev/null", O_WRONLY);
		dup2(null_fd, STDERR_FILENO);
		terminal_enter(&term);
		if (!term.raw || !is_raw())
			_exit(90);
		switch (how) {
		case END_EXIT:
			exit(7);
		case END_ABORT:
			abort();
		case END_RAISE_SEGV:
			raise(SIGSEGV);
			break;
		case END_FAULT: {
			volatile int *p = mmap(NULL, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
			*p = 1;
			break;
		}
		case END_KILL_QUIT:
			kill(getpid(), SIGQUIT);
			break;
		}
		_exit(91); /* not reached */
	}
	int status;
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	return status;
}

START_TEST(test_restored_on_exit)
{
	int status = child_ends(END_EXIT);
	ck_assert(WIFEXITED(status));
	ck_assert_int_eq(WEXITSTATUS(status), 7); /* atexit ran, status kept */
	ck_assert(is_cooked());
}
END_TEST

/* Dead by `sig`, or (under a sanitizer, whose handler now gets the signal
 * as before) exited with an error. */
static void died_of(int status, int sig)
{
	if (WIFSIGNALED(status))
		ck_assert_int_eq(WTERMSIG(status), sig);
	else
		ck_assert(WIFEXITED(status) && WEXITSTATUS(status) != 0 &&
			  WEXITSTATUS(status) != 90 && WEXITSTATUS(status) != 91);
}

START_TEST(test_restored_on_abort)
{
	died_of(child_ends(END_ABORT), SIGABRT);
	ck_assert(is_cooked());
}
END_TEST

START_TEST(test_restored_on_raised_segv)
{
	died_of(child_ends(END_RAISE_SEGV), SIGSEGV);
	ck_assert(is_cooked());
}
END_TEST

START_TEST(test_restored_on_fault)
{
	/* A real fault: the handler restores, returns, the access faults again
	 * and the default action (or a sanitizer's) ends the process. */
	died_of(child_ends(END_FAULT), SIGSEGV);
	ck_assert(is_cooked());
}
END_TEST

START_TEST(test_restored_on_sigquit)
{
	died_of(child_ends(END_KILL_QUIT), SIGQUIT);
	ck_assert(is_cooked());
}
END_TEST

START_TEST(test_reserve_stdio)
{
	/* In a child: with stdin closed, the next open must not become fd 0. */
	pid_t pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		close(STDIN_FILENO);
		terminal_reserve_stdio();
		struct stat st, null_st;
		if (fstat(STDIN_FILENO, &st) < 0 || stat("/dev/null", &null_st) < 0)
			_exit(1);
		if (!S_ISCHR(st.st_mode) || st.st_rdev != null_st.st_rdev)
			_exit(2);
		int fd = open("/dev/null", O_RDONLY);
		_exit(fd == STDIN_FILENO ? 3 : 0);
	}
	int status;
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert(WIFEXITED(status));
	ck_assert_int_eq(WEXITSTATUS(status), 0);
}
END_TEST

Suite *terminal_suite(void)
{
	Suite *s = suite_create("terminal");
	TCase *tc = tcase_create("escape");
	tcase_add_test(tc, test_escape_plain);
	tcase_add_test(tc, test_escape_quit);
	tcase_add_test(tc, test_escape_literal_ctrl_a);
	tcase_add_test(tc, test_escape_unknown_and_help);
	tcase_add_test(tc, test_escape_split_across_reads);
	tcase_add_test(tc, test_make_raw);
	tcase_add_test(tc, test_reserve_stdio);
	suite_add_tcase(s, tc);
	tc = tcase_create("input");
	tcase_add_checked_fixture(tc, pipe_setup, pipe_teardown);
	tcase_add_test(tc, test_read_filters);
	tcase_add_test(tc, test_read_quit);
	tcase_add_test(tc, test_read_bounded);
	tcase_add_test(tc, test_read_eof);
	tcase_add_test(tc, test_read_closed_fd);
	tcase_add_test(tc, test_wake);
	tcase_add_test(tc, test_not_a_terminal);
	suite_add_tcase(s, tc);
	tc = tcase_create("raw mode");
	tcase_add_checked_fixture(tc, pty_setup, pty_teardown);
	tcase_add_test(tc, test_raw_and_back);
	tcase_add_test(tc, test_output_not_a_terminal);
	tcase_add_test(tc, test_raw_input);
	tcase_add_test(tc, test_restored_on_exit);
	tcase_add_test(tc, test_restored_on_abort);
	tcase_add_test(tc, test_restored_on_raised_segv);
	tcase_add_test(tc, test_restored_on_fault);
	tcase_add_test(tc, test_restored_on_sigquit);
	suite_add_tcase(s, tc);
	return s;
}
