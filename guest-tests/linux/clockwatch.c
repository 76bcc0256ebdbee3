/* clockwatch: watches the guest's clocks across whatever the VMM does to
 * the VM meanwhile (pause and resume). Samples CLOCK_MONOTONIC and
 * CLOCK_REALTIME every INTERVAL ms for SECS seconds of monotonic time and
 * reports, as vmm-result lines PREFIX.NAME=VALUE: samples; for each clock
 * (mono, real) the largest backward step in ns (back_ns, which must be 0)
 * and the largest forward step between two samples in ms (fwd_max_ms);
 * with -v also the time it saw pass over the whole run in ms (elapsed_ms).
 * A VMM that hides a pause shows a forward step of about one interval (plus
 * scheduling noise); one that does not shows the pause's length.
 *
 * usage: clockwatch [-s SECS] [-i INTERVAL_MS] [-p PREFIX] [-v] */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <time.h>
#include <unistd.h>

#include "vmmtest.h"

#define DEFAULT_SECS 5
#define DEFAULT_INTERVAL_MS 10

struct watch {
	int64_t first, last;
	uint64_t back_ns, fwd_ns;
};

static int64_t read_ns(clockid_t id)
{
	struct timespec ts;
	clock_gettime(id, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static void step(struct watch *w, int64_t t)
{
	int64_t d = t - w->last;
	if (d < 0 && (uint64_t)-d > w->back_ns)
		w->back_ns = (uint64_t)-d;
	if (d > 0 && (uint64_t)d > w->fwd_ns)
		w->fwd_ns = (uint64_t)d;
	w->last = t;
}

static void report(const char *prefix, const char *clock, const struct watch *w, bool verbose)
{
	char name[32];
	snprintf(name, sizeof(name), "%s_back_ns", clock);
	result(prefix, name, w->back_ns);
	snprintf(name, sizeof(name), "%s_fwd_max_ms", clock);
	result(prefix, name, (w->fwd_ns + 500000) / 1000000);
	if (!verbose)
		return;
	snprintf(name, sizeof(name), "%s_elapsed_ms", clock);
	result(prefix, name, (uint64_t)(w->last - w->first + 500000) / 1000000);
}

int main(int argc, char **argv)
{
	uint64_t secs = DEFAULT_SECS, interval_ms = DEFAULT_INTERVAL_MS;
	const char *prefix = "clock";
	bool verbose = false;
	int opt;
	while ((opt = getopt(argc, argv, "s:i:p:v")) != -1) {
		switch (opt) {
		case 's': secs = opt_u64("-s", optarg, 1, 86400); break;
		case 'i': interval_ms = opt_u64("-i", optarg, 1, 10000); break;
		case 'p': prefix = optarg; break;
		case 'v': verbose = true; break;
		default:
			fprintf(stderr, "usage: clockwatch [-s SECS] [-i INTERVAL_MS] [-p PREFIX] [-v]\n");
			return 2;
		}
	}
	struct watch mono = { 0 }, real = { 0 };
	mono.first = mono.last = read_ns(CLOCK_MONOTONIC);
	real.first = real.last = read_ns(CLOCK_REALTIME);
	int64_t until = mono.first + (int64_t)secs * 1000000000;
	uint64_t samples = 1;
	mark(prefix, "begin");
	while (mono.last < until) {
		sleep_ms(interval_ms);
		step(&mono, read_ns(CLOCK_MONOTONIC));
		step(&real, read_ns(CLOCK_REALTIME));
		samples++;
	}
	mark(prefix, "end");
	result(prefix, "samples", samples);
	report(prefix, "mono", &mono, verbose);
	report(prefix, "real", &real, verbose);
	return 0;
}
