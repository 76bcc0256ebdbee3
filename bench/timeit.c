/* Runs one command once and reports, on stdout, one line:
 *   WALL_NS STATUS PEAK_RSS_KIB
 * the wall time from just before the spawn to the reaped exit (CLOCK_MONOTONIC),
 * the exit status (128 + signal if killed) and the child's peak RSS from
 * wait4(). bench/run calls it once per run, so bash's own overhead stays
 * outside the measured interval.
 *
 * Usage: timeit [-o FILE] [-e FILE] [-m MARKER] -- CMD [ARGS...]
 *   -o FILE    the command's stdout (default /dev/null)
 *   -e FILE    the command's stderr (default: inherited)
 *   -m MARKER  stop the clock at the first stdout line containing MARKER
 *              (a booting guest's first line from init), then end the
 *              command with SIGTERM; WALL_NS is -1 if no line had it.
 *              The output is still copied to -o's file.
 * Exits 0 when it measured something (whatever the command's status), 2 when not. */
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

static int open_out(const char *path)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0) {
		fprintf(stderr, "timeit: %s: %s\n", path, strerror(errno));
		exit(2);
	}
	return fd;
}

static long long now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* Copy the child's stdout to out_fd line by line until a line contains the
 * marker; returns the time it was seen, or -1 at EOF without it. The line
 * buffer is bounded: a longer line is searched in pieces that overlap by the
 * marker's length, so a marker is never missed at a piece boundary. */
static long long wait_for_marker(int pipe_fd, int out_fd, const char *marker)
{
	char buf[8192];
	size_t len = 0, keep = strlen(marker);
	if (keep >= sizeof(buf) / 2)
		keep = sizeof(buf) / 2;
	for (;;) {
		ssize_t n = read(pipe_fd, buf + len, sizeof(buf) - 1 - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		long long t = now_ns();
		if (write(out_fd, buf + len, (size_t)n) < 0) {
			/* the copy is for the record only: the clock matters more */
		}
		len += (size_t)n;
		buf[len] = '\0';
		if (strstr(buf, marker))
			return t;
		char *nl = strrchr(buf, '\n');
		size_t drop = nl ? (size_t)(nl + 1 - buf) : (len > keep ? len - keep : 0);
		memmove(buf, buf + drop, len - drop);
		len -= drop;
	}
}

int main(int argc, char **argv)
{
	const char *out = "/dev/null", *err = NULL, *marker = NULL;
	int opt;
	while ((opt = getopt(argc, argv, "+o:e:m:")) != -1) {
		if (opt == 'o')
			out = optarg;
		else if (opt == 'e')
			err = optarg;
		else if (opt == 'm' && *optarg)
			marker = optarg;
		else
			goto usage;
	}
	if (optind >= argc)
		goto usage;

	posix_spawn_file_actions_t fa;
	posix_spawn_file_actions_init(&fa);
	int out_fd = open_out(out);
	int pipe_fd[2] = { -1, -1 };
	if (marker) {
		if (pipe2(pipe_fd, O_CLOEXEC) < 0) {
			perror("timeit: pipe");
			return 2;
		}
		posix_spawn_file_actions_adddup2(&fa, pipe_fd[1], STDOUT_FILENO);
	} else {
		posix_spawn_file_actions_adddup2(&fa, out_fd, STDOUT_FILENO);
	}
	if (err)
		posix_spawn_file_actions_adddup2(&fa, open_out(err), STDERR_FILENO);

	pid_t pid;
	long long t0 = now_ns();
	int rc = posix_spawn(&pid, argv[optind], &fa, NULL, &argv[optind], environ);
	if (rc) {
		fprintf(stderr, "timeit: %s: %s\n", argv[optind], strerror(rc));
		return 2;
	}
	long long t_marker = 0;
	if (marker) {
		close(pipe_fd[1]);
		t_marker = wait_for_marker(pipe_fd[0], out_fd, marker);
		kill(pid, SIGTERM);
		close(pipe_fd[0]);
	}
	int ws;
	struct rusage ru;
	while (wait4(pid, &ws, 0, &ru) < 0) {
		if (errno != EINTR) {
			perror("timeit: wait4");
			return 2;
		}
	}
	long long t1 = now_ns();
	int status = WIFEXITED(ws) ? WEXITSTATUS(ws) : 128 + WTERMSIG(ws);
	long long wall = marker ? (t_marker < 0 ? -1 : t_marker - t0) : t1 - t0;
	printf("%lld %d %ld\n", wall, status, ru.ru_maxrss);
	return 0;
usage:
	fprintf(stderr, "usage: timeit [-o FILE] [-e FILE] [-m MARKER] -- CMD [ARGS...]\n");
	return 2;
}
