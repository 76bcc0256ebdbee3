/* `vmm ab`: one test kernel under two or more configurations, several rounds
 * alternating A B A B, each run a child `vmm run` with --stats-json; prints
 * medians (min-max) of the chosen metrics, ratios to the first
 * configuration, and the same as JSON. */
#include "ab.h"

#include <errno.h>
#include <fcntl.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ab_math.h"
#include "exit_status.h"
#include "log.h"
#include "parse.h"

#define AB_MAX_CONFIGS 8
#define AB_MAX_METRICS 8
#define AB_MAX_ROUNDS 100
#define AB_MAX_PASSTHROUGH 64
#define AB_STDERR_MAX (256 * 1024)

/* A metric is a guest result ("ns_per_loop") or a KVM counter's rate
 * ("kvm:halt_exits", per second over the run). */
static const char *const default_metrics[] = { "ipi_per_s", "hlt_per_s", "kvm:halt_exits",
					       "ns_per_loop" };

struct ab_plan {
	const char *key;                       /* the option varied, e.g. "l3-cache" */
	char *values[AB_MAX_CONFIGS];
	unsigned nconfigs;
	unsigned rounds;
	const char *metrics[AB_MAX_METRICS];
	unsigned nmetrics;
	const char *json_path;
	const char *pass[AB_MAX_PASSTHROUGH]; /* options for every child run */
	unsigned npass;
	const char *kernel;
	char *vary_copy;
};

/* values[config][metric][round] */
struct ab_data {
	double v[AB_MAX_CONFIGS][AB_MAX_METRICS][AB_MAX_ROUNDS];
	size_t n[AB_MAX_CONFIGS][AB_MAX_METRICS];
};

static int usage(const char *why)
{
	vmm_log("ab: %s (usage: vmm ab --vary KEY=V1,V2[,...] [--rounds N] [--metric NAME]... "
		"[--json FILE] [run options] KERNEL)",
		why);
	return EXIT_STATUS_USAGE;
}

static int parse_vary(struct ab_plan *p, const char *arg)
{
	p->vary_copy = strdup(arg);
	char *eq = p->vary_copy ? strchr(p->vary_copy, '=') : NULL;
	if (!eq || eq == p->vary_copy)
		return -1;
	*eq = '\0';
	p->key = p->vary_copy;
	char *save = NULL;
	for (char *v = strtok_r(eq + 1, ",", &save); v; v = strtok_r(NULL, ",", &save)) {
		if (p->nconfigs == AB_MAX_CONFIGS)
			return -1;
		p->values[p->nconfigs++] = v;
	}
	return p->nconfigs >= 2 ? 0 : -1;
}

static int parse_args(int argc, char **argv, struct ab_plan *p)
{
	p->rounds = 3;
	for (int i = 2; i < argc; i++) {
		const char *a = argv[i];
		bool has_value = i + 1 < argc;
		if (strcmp(a, "--vary") == 0 && has_value) {
			if (parse_vary(p, argv[++i]) < 0)
				return usage("--vary needs KEY=V1,V2 with 2 to 8 values");
		} else if (strcmp(a, "--rounds") == 0 && has_value) {
			uint64_t n;
			if (!parse_u64(argv[++i], &n) || n == 0 || n > AB_MAX_ROUNDS)
				return usage("--rounds takes 1 to 100");
			p->rounds = (unsigned)n;
		} else if (strcmp(a, "--metric") == 0 && has_value) {
			if (p->nmetrics == AB_MAX_METRICS)
				return usage("at most 8 metrics");
			p->metrics[p->nmetrics++] = argv[++i];
		} else if (strcmp(a, "--json") == 0 && has_value) {
			p->json_path = argv[++i];
		} else if (i == argc - 1 && a[0] != '-') {
			p->kernel = a;
		} else {
			if (p->npass == AB_MAX_PASSTHROUGH)
				return usage("too many options");
			p->pass[p->npass++] = a;
		}
	}
	if (!p->key)
		return usage("no --vary given");
	if (!p->kernel)
		return usage("no kernel given");
	if (p->nmetrics == 0) {
		for (size_t m = 0; m < sizeof(default_metrics) / sizeof(default_metrics[0]); m++)
			p->metrics[p->nmetrics++] = default_metrics[m];
	}
	return 0;
}

/* Run `vmm run` once; stderr (results) into `err`, stats into `stats_path`. */
static int run_child(const struct ab_plan *p, unsigned config, const char *stats_path, char *err,
		     size_t errlen, int *status)
{
	char opt[96];
	snprintf(opt, sizeof(opt), "--%s", p->key);
	const char *argv[AB_MAX_PASSTHROUGH + 10];
	unsigned n = 0;
	argv[n++] = "vmm";
	argv[n++] = "run";
	for (unsigned i = 0; i < p->npass; i++)
		argv[n++] = p->pass[i];
	argv[n++] = opt;
	argv[n++] = p->values[config];
	argv[n++] = "--stats-json";
	argv[n++] = stats_path;
	argv[n++] = p->kernel;
	argv[n] = NULL;
	int pipefd[2];
	if (pipe2(pipefd, O_CLOEXEC) < 0)
		return -errno;
	pid_t pid = fork();
	if (pid < 0)
		return -errno;
	if (pid == 0) {
		int devnull = open("/dev/null", O_WRONLY);
		dup2(devnull, STDOUT_FILENO); /* the guest's console */
		dup2(pipefd[1], STDERR_FILENO);
		execv("/proc/self/exe", (char *const *)argv);
		_exit(127);
	}
	close(pipefd[1]);
	size_t len = 0;
	ssize_t r;
	while ((r = read(pipefd[0], err + len, errlen - 1 - len)) > 0 && len + (size_t)r < errlen - 1)
		len += (size_t)r;
	if (r > 0)
		len += (size_t)r;
	err[len] = '\0';
	close(pipefd[0]);
	if (waitpid(pid, status, 0) < 0)
		return -errno;
	return 0;
}

/* A guest result "vmm: result NAME=VALUE" in the child's stderr. */
static bool find_result(const char *err, const char *name, double *value)
{
	char key[96];
	snprintf(key, sizeof(key), "vmm: result %s=", name);
	const char *at = strstr(err, key);
	if (!at)
		return false;
	*value = strtod(at + strlen(key), NULL);
	return true;
}

static bool find_kvm_rate(json_object *stats, const char *counter, double *value)
{
	json_object *counters, *entry, *per_s;
	if (!stats || !json_object_object_get_ex(stats, "counters", &counters) ||
	    !json_object_object_get_ex(counters, counter, &entry) ||
	    !json_object_object_get_ex(entry, "per_s", &per_s))
		return false;
	*value = json_object_get_double(per_s);
	return true;
}

static void collect(const struct ab_plan *p, struct ab_data *d, unsigned config, const char *err,
		    json_object *stats)
{
	for (unsigned m = 0; m < p->nmetrics; m++) {
		double value;
		bool ok = strncmp(p->metrics[m], "kvm:", 4) == 0
				  ? find_kvm_rate(stats, p->metrics[m] + 4, &value)
				  : find_result(err, p->metrics[m], &value);
		if (ok)
			d->v[config][m][d->n[config][m]++] = value;
	}
}

static int run_all(const struct ab_plan *p, struct ab_data *d)
{
	char stats_path[] = "/tmp/vmm-ab-XXXXXX";
	int fd = mkstemp(stats_path);
	if (fd < 0)
		return usage("cannot make a temporary file");
	close(fd);
	static char err[AB_STDERR_MAX];
	int rc = 0;
	/* A B A B ...: drift on the host hits every configuration alike. */
	for (unsigned r = 0; r < p->rounds && rc == 0; r++) {
		for (unsigned c = 0; c < p->nconfigs && rc == 0; c++) {
			int status;
			if (run_child(p, c, stats_path, err, sizeof(err), &status) < 0 ||
			    !WIFEXITED(status) || (WEXITSTATUS(status) != 0 && WEXITSTATUS(status) != 1)) {
				vmm_log("ab: round %u, %s=%s failed (status %d):\n%s", r + 1, p->key,
					p->values[c], WIFEXITED(status) ? WEXITSTATUS(status) : -1, err);
				rc = EXIT_STATUS_VM_FAILURE;
				break;
			}
			json_object *stats = json_object_from_file(stats_path);
			collect(p, d, c, err, stats);
			json_object_put(stats);
			fprintf(stderr, "vmm ab: round %u/%u %s=%s done\n", r + 1, p->rounds, p->key,
				p->values[c]);
		}
	}
	unlink(stats_path);
	return rc;
}

static void print_table(const struct ab_plan *p, struct ab_data *d,
			struct ab_summary sum[AB_MAX_CONFIGS][AB_MAX_METRICS])
{
	const char *slash = strrchr(p->kernel, '/');
	printf("%s, %u round%s alternating; medians (min-max)\n", slash ? slash + 1 : p->kernel,
	       p->rounds, p->rounds == 1 ? "" : "s");
	printf("%-12s", p->key);
	for (unsigned m = 0; m < p->nmetrics; m++)
		printf(" %30s", p->metrics[m]);
	printf("\n");
	for (unsigned c = 0; c < p->nconfigs; c++) {
		printf("%-12s", p->values[c]);
		for (unsigned m = 0; m < p->nmetrics; m++) {
			char cell[64] = "n/a";
			sum[c][m] = ab_summarize(d->v[c][m], d->n[c][m]);
			if (sum[c][m].n)
				snprintf(cell, sizeof(cell), "%.0f (%.0f-%.0f)", sum[c][m].median,
					 sum[c][m].min, sum[c][m].max);
			printf(" %30s", cell);
		}
		printf("\n");
	}
	for (unsigned c = 1; c < p->nconfigs; c++) {
		char label[32];
		snprintf(label, sizeof(label), "%s/%s", p->values[c], p->values[0]);
		printf("%-12s", label);
		for (unsigned m = 0; m < p->nmetrics; m++) {
			double ratio;
			char cell[32] = "n/a";
			if (ab_ratio(&sum[0][m], &sum[c][m], &ratio))
				snprintf(cell, sizeof(cell), "%.2fx", ratio);
			printf(" %30s", cell);
		}
		printf("\n");
	}
}

static json_object *summary_json(const struct ab_summary *s)
{
	json_object *o = json_object_new_object();
	json_object_object_add(o, "median", json_object_new_double(s->median));
	json_object_object_add(o, "min", json_object_new_double(s->min));
	json_object_object_add(o, "max", json_object_new_double(s->max));
	json_object_object_add(o, "runs", json_object_new_int((int)s->n));
	return o;
}

static int write_json(const struct ab_plan *p, struct ab_summary sum[AB_MAX_CONFIGS][AB_MAX_METRICS])
{
	json_object *doc = json_object_new_object();
	json_object_object_add(doc, "kernel", json_object_new_string(p->kernel));
	json_object_object_add(doc, "vary", json_object_new_string(p->key));
	json_object_object_add(doc, "rounds", json_object_new_int((int)p->rounds));
	json_object *configs = json_object_new_array();
	for (unsigned c = 0; c < p->nconfigs; c++) {
		json_object *cfg = json_object_new_object();
		json_object *metrics = json_object_new_object();
		json_object *ratios = json_object_new_object();
		for (unsigned m = 0; m < p->nmetrics; m++) {
			double ratio;
			if (sum[c][m].n)
				json_object_object_add(metrics, p->metrics[m], summary_json(&sum[c][m]));
			if (c > 0 && ab_ratio(&sum[0][m], &sum[c][m], &ratio))
				json_object_object_add(ratios, p->metrics[m], json_object_new_double(ratio));
		}
		json_object_object_add(cfg, "value", json_object_new_string(p->values[c]));
		json_object_object_add(cfg, "metrics", metrics);
		json_object_object_add(cfg, "ratio_to_first", ratios);
		json_object_array_add(configs, cfg);
	}
	json_object_object_add(doc, "configs", configs);
	int rc = json_object_to_file_ext(p->json_path, doc, JSON_C_TO_STRING_PRETTY);
	json_object_put(doc);
	if (rc < 0)
		vmm_log("ab: --json %s: %s", p->json_path, json_util_get_last_err());
	return rc < 0 ? EXIT_STATUS_USAGE : 0;
}

int ab_main(int argc, char **argv)
{
	struct ab_plan plan = { 0 };
	int rc = parse_args(argc, argv, &plan);
	static struct ab_data data;
	static struct ab_summary sum[AB_MAX_CONFIGS][AB_MAX_METRICS];
	if (rc == 0)
		rc = run_all(&plan, &data);
	if (rc == 0) {
		print_table(&plan, &data, sum);
		if (plan.json_path)
			rc = write_json(&plan, sum);
	}
	free(plan.vary_copy);
	return rc;
}
