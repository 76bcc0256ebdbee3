/* The host side of the guest's serial console: stdin as the UART's input,
 * read only as fast as the guest takes it; a terminal on stdin in raw mode
 * while the guest runs, restored on every way out of vmm; and QEMU's Ctrl-A
 * escapes (Ctrl-A x quits, Ctrl-A Ctrl-A sends a Ctrl-A). */
#include "terminal.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/ioctl.h>
#include <unistd.h>

const char terminal_escape_help[] =
	"console escapes: Ctrl-A x quits, Ctrl-A Ctrl-A sends Ctrl-A, Ctrl-A h shows this";

enum escape_result escape_feed(struct escape *e, uint8_t in, uint8_t *out)
{
	if (!e->armed) {
		if (in == ESCAPE_CHAR) {
			e->armed = true;
			return ESCAPE_NONE;
		}
		*out = in;
		return ESCAPE_SEND;
	}
	e->armed = false;
	switch (in) {
	case ESCAPE_CHAR:
		*out = in;
		return ESCAPE_SEND;
	case 'x':
		return ESCAPE_QUIT;
	case 'h':
	case '?':
		return ESCAPE_HELP;
	default: /* an unknown escape is dropped, both bytes, as QEMU does */
		return ESCAPE_NONE;
	}
}

void terminal_make_raw(struct termios *t)
{
	cfmakeraw(t);
	t->c_oflag |= OPOST | ONLCR;
	t->c_cc[VMIN] = 1;
	t->c_cc[VTIME] = 0;
}

/* Process-wide, for atexit and the signal handlers: the terminal in raw
 * mode (-1: none) and its settings from before. `saved` is written only
 * while raw_fd is -1, so a handler never reads it half-written. */
static atomic_int raw_fd = -1;
static struct termios saved;

void terminal_restore(void)
{
	int fd = atomic_exchange(&raw_fd, -1);
	if (fd < 0)
		return;
	int saved_errno = errno;
	/* A vmm moved to the background since would be stopped by SIGTTOU
	 * here, with the terminal still raw; blocking it lets the call through. */
	sigset_t ttou, old;
	sigemptyset(&ttou);
	sigaddset(&ttou, SIGTTOU);
	pthread_sigmask(SIG_BLOCK, &ttou, &old);
	while (tcsetattr(fd, TCSANOW, &saved) < 0 && errno == EINTR)
		;
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	errno = saved_errno;
}

/* Signals that end vmm without passing through its own exit path. The stop
 * signals (SIGINT, SIGTERM, SIGHUP) go through the main loop's signalfd and
 * the normal path; SIGUSR1 is the vCPU kick. */
static const int fatal_signals[] = {
	SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGSYS, SIGQUIT, SIGPIPE, SIGXCPU, SIGXFSZ,
};
#define NFATAL (sizeof(fatal_signals) / sizeof(fatal_signals[0]))
static struct sigaction previous[NFATAL];

static bool is_cpu_fault(int sig)
{
	return sig == SIGSEGV || sig == SIGBUS || sig == SIGILL || sig == SIGFPE;
}

static void on_fatal_signal(int sig, siginfo_t *si, void *uc)
{
	(void)uc;
	terminal_restore();
	/* Give the signal back to whoever had it: the default action, or a
	 * sanitizer's handler, which then reports as it would have. */
	for (size_t i = 0; i < NFATAL; i++)
		if (fatal_signals[i] == sig)
			sigaction(sig, &previous[i], NULL);
	/* A fault the CPU raised comes back by itself when the instruction is
	 * retried (with its real siginfo); anything sent (abort(), kill) is
	 * raised again, to be delivered once this handler returns. */
	if (is_cpu_fault(sig) && si->si_code > 0)
		return;
	raise(sig);
}

static void install_fatal_handlers(void)
{
	static bool installed;
	if (installed)
		return;
	installed = true;
	atexit(terminal_restore);
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_fatal_signal;
	sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
	sigfillset(&sa.sa_mask);
	for (size_t i = 0; i < NFATAL; i++) {
		/* A signal our parent had us ignore (SIGPIPE, often) stays ignored. */
		if (sigaction(fatal_signals[i], NULL, &previous[i]) < 0 ||
		    previous[i].sa_handler == SIG_IGN)
			continue;
		sigaction(fatal_signals[i], &sa, NULL);
	}
}

void terminal_enter(struct terminal *t)
{
	if (t->in_fd < 0 || !isatty(t->in_fd))
		return;
	pid_t foreground = tcgetpgrp(t->in_fd);
	if (foreground >= 0 && foreground != getpgrp()) {
		/* Started in the background: a read would stop vmm (SIGTTIN),
		 * and the terminal belongs to the foreground job. */
		t->in_fd = -1;
		return;
	}
	if (!isatty(t->out_fd) || atomic_load(&raw_fd) >= 0 || tcgetattr(t->in_fd, &saved) < 0)
		return;
	install_fatal_handlers();
	struct termios raw = saved;
	terminal_make_raw(&raw);
	/* Published before the change, so a crash in between restores too. */
	atomic_store(&raw_fd, t->in_fd);
	if (tcsetattr(t->in_fd, TCSANOW, &raw) < 0) {
		atomic_store(&raw_fd, -1);
		return;
	}
	t->raw = true;
}

void terminal_leave(struct terminal *t)
{
	if (!t->raw)
		return;
	terminal_restore();
	t->raw = false;
}

void terminal_reserve_stdio(void)
{
	for (int fd = 0; fd <= 2; fd++) {
		if (fcntl(fd, F_GETFD) >= 0 || errno != EBADF)
			continue;
		int null_fd = open("/dev/null", fd == 0 ? O_RDONLY : O_WRONLY);
		/* The lowest free number: fd itself, unless something raced us. */
		if (null_fd >= 0 && null_fd != fd) {
			dup2(null_fd, fd);
			close(null_fd);
		}
	}
}

int terminal_init(struct terminal *t, int in_fd, int out_fd)
{
	memset(t, 0, sizeof(*t));
	t->in_fd = in_fd;
	t->out_fd = out_fd;
	t->wake_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	return t->wake_fd < 0 ? -errno : 0;
}

void terminal_destroy(struct terminal *t)
{
	terminal_leave(t);
	if (t->wake_fd >= 0)
		close(t->wake_fd);
	t->wake_fd = -1;
}

void terminal_wake(struct terminal *t)
{
	uint64_t one = 1;
	/* Fails only when the counter is already huge: awake anyway. */
	(void)!write(t->wake_fd, &one, sizeof(one));
}

void terminal_clear_wake(struct terminal *t)
{
	uint64_t count;
	(void)!read(t->wake_fd, &count, sizeof(count));
}

/* How much to read: what is there, if the file says (a read after poll
 * should not block, but another reader of the same terminal or pipe could
 * have taken it), and never more than `pending` holds. */
static size_t read_size(int fd)
{
	int avail = 0;
	if (ioctl(fd, FIONREAD, &avail) == 0 && avail > 0 && avail < TERMINAL_PENDING)
		return (size_t)avail;
	return TERMINAL_PENDING;
}

enum escape_result terminal_read(struct terminal *t)
{
	uint8_t in[TERMINAL_PENDING];
	ssize_t n = read(t->in_fd, in, read_size(t->in_fd));
	if (n < 0 && (errno == EINTR || errno == EAGAIN))
		return ESCAPE_NONE;
	if (n <= 0) {
		/* End of input, or an error that will not go away (EIO from a
		 * hung-up terminal): stop reading; the VM goes on. */
		t->in_fd = -1;
		return ESCAPE_NONE;
	}
	enum escape_result result = ESCAPE_NONE;
	t->off = t->len = 0;
	for (ssize_t i = 0; i < n; i++) {
		uint8_t c;
		switch (escape_feed(&t->esc, in[i], &c)) {
		case ESCAPE_SEND:
			t->pending[t->len++] = c;
			break;
		case ESCAPE_QUIT:
			return ESCAPE_QUIT;
		case ESCAPE_HELP:
			result = ESCAPE_HELP;
			break;
		case ESCAPE_NONE:
			break;
		}
	}
	return result;
}
