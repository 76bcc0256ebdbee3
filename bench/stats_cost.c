/* The cost of one KVM statistics sample (vmm/stats.c: vm_stats_sample, one
 * pread of the data block per vCPU stats fd; the descriptors are read once,
 * by vm_stats_open, and are not timed) for a VM of 1 vCPU and one of 64.
 * Both VMs are made with raw ioctls (an in-kernel irqchip, vCPUs created
 * but never run) and live side by side; each round times a batch of samples
 * of the 1-vCPU VM, then a batch of the 64-vCPU VM, so that drift hits both
 * alike. A round's figure is its batch's wall time (CLOCK_MONOTONIC) over
 * its number of samples; the median is over rounds.
 *
 * Usage: stats_cost [ROUNDS]     (default 31)
 * Prints one line per VM, key=value, for bench/run to read:
 *   vcpus=N samples=S rounds=R data_bytes=B median_us=M min_us=A max_us=Z
 *   per_vcpu_us=M/N rounds_us=X,Y,...
 * (data_bytes: the block one pread reads, per vCPU). Exit status 0, or 1
 * with a reason on stderr. */
#include <errno.h>
#include <fcntl.h>
#include <linux/kvm.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "../vmm/stats.h"

#define ROUNDS_DEFAULT 31
#define ROUNDS_MAX 10000

struct vm_case {
	unsigned nvcpus;
	unsigned samples; /* per round */
	int vm;
	int *vcpu;
	struct vm_stats st;
	double *us; /* per-sample cost of each round */
};

static void die(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fputs("stats_cost: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	exit(1);
}

static uint64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static void make_vm(int kvm, struct vm_case *c)
{
	c->vm = ioctl(kvm, KVM_CREATE_VM, 0);
	if (c->vm < 0)
		die("KVM_CREATE_VM: %s", strerror(errno));
	int max = ioctl(c->vm, KVM_CHECK_EXTENSION, KVM_CAP_MAX_VCPUS);
	if (max > 0 && (unsigned)max < c->nvcpus)
		die("KVM allows %d vCPUs per VM, this needs %u", max, c->nvcpus);
	if (ioctl(c->vm, KVM_CREATE_IRQCHIP, 0) < 0)
		die("KVM_CREATE_IRQCHIP: %s", strerror(errno));
	c->vcpu = calloc(c->nvcpus, sizeof(*c->vcpu));
	c->us = calloc(ROUNDS_MAX, sizeof(*c->us));
	if (!c->vcpu || !c->us)
		die("out of memory");
	for (unsigned i = 0; i < c->nvcpus; i++) {
		c->vcpu[i] = ioctl(c->vm, KVM_CREATE_VCPU, (unsigned long)i);
		if (c->vcpu[i] < 0)
			die("KVM_CREATE_VCPU %u (of %u): %s", i, c->nvcpus, strerror(errno));
	}
	char err[256];
	if (vm_stats_open(&c->st, c->vcpu, c->nvcpus, err, sizeof(err)) < 0)
		die("vm_stats_open (%u vCPUs): %s", c->nvcpus, err);
}

/* Wall time of c->samples samples, per sample, in microseconds. */
static double batch(struct vm_case *c)
{
	uint64_t t0 = now_ns();
	for (unsigned i = 0; i < c->samples; i++) {
		int rc = vm_stats_sample(&c->st);
		if (rc < 0)
			die("vm_stats_sample (%u vCPUs): %s", c->nvcpus, strerror(-rc));
	}
	return (double)(now_ns() - t0) / 1e3 / c->samples;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static void report(const struct vm_case *c, unsigned rounds)
{
	double *sorted = malloc(rounds * sizeof(*sorted));
	if (!sorted)
		die("out of memory");
	memcpy(sorted, c->us, rounds * sizeof(*sorted));
	qsort(sorted, rounds, sizeof(*sorted), cmp_double);
	double med = rounds % 2 ? sorted[rounds / 2]
				: (sorted[rounds / 2 - 1] + sorted[rounds / 2]) / 2;
	printf("vcpus=%u samples=%u rounds=%u data_bytes=%u median_us=%.3f min_us=%.3f "
	       "max_us=%.3f per_vcpu_us=%.3f rounds_us=",
	       c->nvcpus, c->samples, rounds, c->st.src[0].schema.data_size, med, sorted[0],
	       sorted[rounds - 1], med / c->nvcpus);
	for (unsigned r = 0; r < rounds; r++)
		printf("%s%.3f", r ? "," : "", c->us[r]);
	putchar('\n');
	free(sorted);
}

int main(int argc, char **argv)
{
	unsigned rounds = ROUNDS_DEFAULT;
	if (argc > 2)
		die("usage: stats_cost [ROUNDS]");
	if (argc == 2) {
		char *end;
		errno = 0;
		unsigned long r = strtoul(argv[1], &end, 10);
		if (errno || *end || end == argv[1] || r < 1 || r > ROUNDS_MAX)
			die("ROUNDS must be 1..%d, not '%s'", ROUNDS_MAX, argv[1]);
		rounds = (unsigned)r;
	}
	int kvm = open("/dev/kvm", O_RDWR | O_CLOEXEC);
	if (kvm < 0)
		die("/dev/kvm: %s", strerror(errno));
	/* About the same wall time per batch for both, some milliseconds: a
	 * sample costs ~0.7 us per vCPU here (x86-64, Linux 6.18). */
	struct vm_case cases[] = {
		{ .nvcpus = 1, .samples = 10000 },
		{ .nvcpus = 64, .samples = 200 },
	};
	const unsigned ncases = sizeof(cases) / sizeof(cases[0]);
	for (unsigned i = 0; i < ncases; i++)
		make_vm(kvm, &cases[i]);

	/* Warm-up: the first preads fault in the kernel's and our buffers. */
	for (unsigned i = 0; i < ncases; i++)
		batch(&cases[i]);
	for (unsigned r = 0; r < rounds; r++)
		for (unsigned i = 0; i < ncases; i++)
			cases[i].us[r] = batch(&cases[i]);

	for (unsigned i = 0; i < ncases; i++)
		report(&cases[i], rounds);
	if (fflush(stdout) != 0)
		die("stdout: %s", strerror(errno));
	for (unsigned i = 0; i < ncases; i++) {
		vm_stats_close(&cases[i].st);
		for (unsigned v = 0; v < cases[i].nvcpus; v++)
			close(cases[i].vcpu[v]);
		close(cases[i].vm);
		free(cases[i].vcpu);
		free(cases[i].us);
	}
	close(kvm);
	return 0;
}
