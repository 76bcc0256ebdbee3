/* messaging: `perf bench sched messaging` in miniature. GROUPS groups of
 * FDS sender and FDS receiver processes; each sender writes LOOPS rounds of
 * one 100-byte message to every receiver of its group, over a socketpair
 * per receiver (or a pipe, -P). Every process starts at once (they wait
 * on one pipe the parent then closes), so the fan-out's wake-ups land on
 * every CPU: how the guest spreads them is what the L3 changes.
 * Reports, as vmm-result lines PREFIX.NAME=VALUE: usecs (from the start
 * to the last process's exit), usecs_per_loop, and the reschedule and
 * function-call IPIs per second over it (res_per_s, cal_per_s); with -v
 * also groups, fds, loops and the IPI counts (res, cal).
 *
 * usage: messaging [-g GROUPS] [-f FDS] [-l LOOPS] [-P] [-p PREFIX] [-S SETTLE_MS] [-v]
 * (-S and -v as pipe-pingpong's: idle before and after the marks; more results). */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "vmmtest.h"

#define MSG_SIZE 100
#define DEFAULT_GROUPS 1
#define DEFAULT_FDS 4
#define DEFAULT_LOOPS 100
#define MAX_FDS 64
#define MAX_GROUPS 64

static int ready_pipe[2], wakeup_pipe[2];

static void die(const char *what)
{
	perror(what);
	_exit(1);
}

/* Say we are here, then wait until the parent closes the wake-up pipe. */
static void ready_and_wait(void)
{
	char c = 1;
	/* Only the parent's copy may hold the write end: its close is the start. */
	close(wakeup_pipe[1]);
	close(ready_pipe[0]);
	if (write(ready_pipe[1], &c, 1) != 1)
		die("messaging: ready");
	struct pollfd p = { .fd = wakeup_pipe[0], .events = POLLIN };
	while (poll(&p, 1, -1) < 0)
		if (errno != EINTR)
			die("messaging: poll");
}

static void sender(const int *out, unsigned fds, uint64_t loops)
{
	char msg[MSG_SIZE];
	memset(msg, 'm', sizeof(msg));
	ready_and_wait();
	for (uint64_t i = 0; i < loops; i++)
		for (unsigned j = 0; j < fds; j++) {
			size_t done = 0;
			while (done < sizeof(msg)) {
				ssize_t n = write(out[j], msg + done, sizeof(msg) - done);
				if (n < 0 && errno != EINTR)
					die("messaging: sender write");
				done += n > 0 ? (size_t)n : 0;
			}
		}
	_exit(0);
}

static void receiver(int in, uint64_t bytes)
{
	char buf[MSG_SIZE];
	ready_and_wait();
	while (bytes) {
		ssize_t n = read(in, buf, bytes < sizeof(buf) ? bytes : sizeof(buf));
		if (n == 0) {
			fprintf(stderr, "messaging: receiver: early end of stream\n");
			_exit(1);
		}
		if (n < 0 && errno != EINTR)
			die("messaging: receiver read");
		bytes -= n > 0 ? (uint64_t)n : 0;
	}
	_exit(0);
}

static pid_t spawn_receiver(int in, uint64_t bytes)
{
	pid_t pid = fork();
	if (pid == 0)
		receiver(in, bytes);
	return pid;
}

static pid_t spawn_sender(const int *out, unsigned fds, uint64_t loops)
{
	pid_t pid = fork();
	if (pid == 0)
		sender(out, fds, loops);
	return pid;
}

int main(int argc, char **argv)
{
	uint64_t groups = DEFAULT_GROUPS, fds = DEFAULT_FDS, loops = DEFAULT_LOOPS, settle_ms = 0;
	bool use_pipes = false, verbose = false;
	const char *prefix = "msg";
	int opt;
	while ((opt = getopt(argc, argv, "g:f:l:Pp:S:v")) != -1) {
		switch (opt) {
		case 'g': groups = opt_u64("-g", optarg, 1, MAX_GROUPS); break;
		case 'f': fds = opt_u64("-f", optarg, 1, MAX_FDS); break;
		case 'l': loops = opt_u64("-l", optarg, 1, 100000000); break;
		case 'P': use_pipes = true; break;
		case 'p': prefix = optarg; break;
		case 'S': settle_ms = opt_u64("-S", optarg, 0, 60000); break;
		case 'v': verbose = true; break;
		default:
			fprintf(stderr, "usage: messaging [-g GROUPS] [-f FDS] [-l LOOPS] [-P] "
					"[-p PREFIX] [-S SETTLE_MS] [-v]\n");
			return 2;
		}
	}
	if (pipe(ready_pipe) < 0 || pipe(wakeup_pipe) < 0) {
		perror("messaging: pipe");
		return 1;
	}
	unsigned nproc = 0;
	static pid_t pids[2 * MAX_FDS * MAX_GROUPS];
	for (uint64_t g = 0; g < groups; g++) {
		/* in[j] is receiver j's end, out[j] the senders' end of its channel. */
		int in[MAX_FDS], out[MAX_FDS];
		for (unsigned j = 0; j < fds; j++) {
			int sv[2];
			int rc = use_pipes ? pipe(sv) : socketpair(AF_UNIX, SOCK_STREAM, 0, sv);
			if (rc < 0) {
				perror("messaging: socketpair");
				goto fail;
			}
			in[j] = sv[0];
			out[j] = sv[1];
		}
		/* Receivers first, as perf creates them. */
		for (unsigned j = 0; j < fds; j++)
			if ((pids[nproc++] = spawn_receiver(in[j], loops * fds * MSG_SIZE)) < 0)
				goto fork_fail;
		for (unsigned j = 0; j < fds; j++)
			if ((pids[nproc++] = spawn_sender(out, (unsigned)fds, loops)) < 0)
				goto fork_fail;
		for (unsigned j = 0; j < fds; j++) {
			close(in[j]);
			close(out[j]);
		}
	}
	/* Every process is ready before the clock starts. */
	for (unsigned i = 0; i < nproc; i++) {
		char c;
		if (read(ready_pipe[0], &c, 1) != 1) {
			perror("messaging: waiting for the processes");
			goto fail;
		}
	}
	mark(prefix, "begin");
	sleep_ms(settle_ms);
	struct irq_counts before, after;
	bool have_irqs = irq_read(&before) == 0;
	uint64_t t0 = now_ns();
	close(wakeup_pipe[1]);
	bool ok = true;
	for (unsigned i = 0; i < nproc; i++) {
		int status;
		if (waitpid(pids[i], &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status))
			ok = false;
	}
	uint64_t ns = now_ns() - t0;
	have_irqs = have_irqs && irq_read(&after) == 0;
	mark(prefix, "end");
	sleep_ms(settle_ms);
	if (!ok) {
		fprintf(stderr, "messaging: a sender or receiver failed\n");
		return 1;
	}
	if (verbose) {
		result(prefix, "groups", groups);
		result(prefix, "fds", fds);
		result(prefix, "loops", loops);
	}
	report_workload(prefix, ns, loops, have_irqs ? &before : NULL, &after, verbose);
	return 0;

fork_fail:
	perror("messaging: fork");
	nproc--; /* the failed slot */
fail:
	for (unsigned i = 0; i < nproc; i++)
		kill(pids[i], SIGKILL);
	while (wait(NULL) > 0)
		;
	return 1;
}
