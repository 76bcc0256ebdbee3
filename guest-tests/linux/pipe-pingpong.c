/* pipe-pingpong: `perf bench sched pipe` in miniature. Two processes pass
 * a token back and forth over two pipes `loops` times; each round trip is
 * two wake-ups, and where the scheduler puts the woken task (its idle CPU
 * behind an IPI, or the waker's) is what the L3 a VMM exposes changes.
 * Reports, as vmm-result lines PREFIX.NAME=VALUE: usecs (the whole
 * exchange), usecs_per_loop, and the reschedule and function-call IPIs
 * per second over it (res_per_s, cal_per_s); with -v also loops,
 * nsecs_per_loop and the IPI counts (res, cal). (Every console byte is a
 * VM exit, about a millisecond in the nested rig: the default is terse.)
 *
 * usage: pipe-pingpong [-l LOOPS] [-p PREFIX] [-S SETTLE_MS] [-v]
 * -S: after the "begin" mark and after the "end" mark, stay idle this long,
 * so a harness that samples the VMM's counters at the marks sees the whole
 * exchange and nothing of what follows. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "vmmtest.h"

#define DEFAULT_LOOPS 10000

static void xwrite(int fd, int v)
{
	if (write(fd, &v, sizeof(v)) != (ssize_t)sizeof(v)) {
		perror("pipe-pingpong: write");
		exit(1);
	}
}

static int xread(int fd)
{
	int v;
	if (read(fd, &v, sizeof(v)) != (ssize_t)sizeof(v)) {
		perror("pipe-pingpong: read");
		exit(1);
	}
	return v;
}

int main(int argc, char **argv)
{
	uint64_t loops = DEFAULT_LOOPS, settle_ms = 0;
	const char *prefix = "pipe";
	bool verbose = false;
	int opt;
	while ((opt = getopt(argc, argv, "l:p:S:v")) != -1) {
		switch (opt) {
		case 'l': loops = opt_u64("-l", optarg, 1, 1000000000); break;
		case 'p': prefix = optarg; break;
		case 'S': settle_ms = opt_u64("-S", optarg, 0, 60000); break;
		case 'v': verbose = true; break;
		default:
			fprintf(stderr, "usage: pipe-pingpong [-l LOOPS] [-p PREFIX] [-S SETTLE_MS] [-v]\n");
			return 2;
		}
	}
	int ping[2], pong[2];
	if (pipe(ping) < 0 || pipe(pong) < 0) {
		perror("pipe-pingpong: pipe");
		return 1;
	}
	mark(prefix, "begin");
	sleep_ms(settle_ms);
	struct irq_counts before, after;
	bool have_irqs = irq_read(&before) == 0;
	uint64_t t0 = now_ns();
	pid_t pid = fork();
	if (pid < 0) {
		perror("pipe-pingpong: fork");
		return 1;
	}
	if (pid == 0) {
		for (uint64_t i = 0; i < loops; i++)
			xwrite(pong[1], xread(ping[0]));
		_exit(0);
	}
	for (uint64_t i = 0; i < loops; i++) {
		xwrite(ping[1], (int)i);
		if (xread(pong[0]) != (int)i) {
			fprintf(stderr, "pipe-pingpong: token %llu came back wrong\n",
				(unsigned long long)i);
			return 1;
		}
	}
	int status;
	if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		fprintf(stderr, "pipe-pingpong: the child failed\n");
		return 1;
	}
	uint64_t ns = now_ns() - t0;
	have_irqs = have_irqs && irq_read(&after) == 0;
	mark(prefix, "end");
	sleep_ms(settle_ms);

	if (verbose) {
		result(prefix, "loops", loops);
		result(prefix, "nsecs_per_loop", ns / loops);
	}
	report_workload(prefix, ns, loops, have_irqs ? &before : NULL, &after, verbose);
	return 0;
}
