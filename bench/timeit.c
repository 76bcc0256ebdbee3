/* Runs one command once and reports, on stdout, one line:
 *   WALL_NS STATUS PEAK_RSS_KIB
 * the wall time from just before the spawn to the reaped exit (CLOCK_MONOTONIC),
 * the exit status (128 + signal if killed) and the child's peak RSS from
 * wait4(). bench/run calls it once per run, so bash's own overhead stays
 * outside the measured interval.
 *
 * Usage: timeit [-o FILE] [-e FILE] -- CMD [ARGS...]
 *   -o FILE  the command's stdout (default /dev/null)
 *   -e FILE  the command's stderr (default: inherited)
 * Exits 0 when it measured something (whatever the command's status), 2 when not. */
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
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

int main(int argc, char **argv)
{
	const char *out = "/dev/null", *err = NULL;
	int opt;
	while ((opt = getopt(argc, argv, "+o:e:")) != -1) {
		if (opt == 'o')
			out = optarg;
		else if (opt == 'e')
			err = optarg;
		else
			goto usage;
	}
	if (optind >= argc)
		goto usage;

	posix_spawn_file_actions_t fa;
	posix_spawn_file_actions_init(&fa);
	int out_fd = open_out(out);
	posix_spawn_file_actions_adddup2(&fa, out_fd, STDOUT_FILENO);
	if (err)
		posix_spawn_file_actions_adddup2(&fa, open_out(err), STDERR_FILENO);

	pid_t pid;
	long long t0 = now_ns();
	int rc = posix_spawn(&pid, argv[optind], &fa, NULL, &argv[optind], environ);
	if (rc) {
		fprintf(stderr, "timeit: %s: %s\n", argv[optind], strerror(rc));
		return 2;
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
	printf("%lld %d %ld\n", t1 - t0, status, ru.ru_maxrss);
	return 0;
usage:
	fprintf(stderr, "usage: timeit [-o FILE] [-e FILE] -- CMD [ARGS...]\n");
	return 2;
}
