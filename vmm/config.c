/* The machine configuration: what the user asked for, from a config file and
 * the command line, through one table of keys so both spell things alike. */
#include "config.h"

#include <errno.h>
#include <ini.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parse.h"
#include "test_fault.h"

#define DEFAULT_MEM_SIZE (64ULL << 20)

void config_init(struct vm_config *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->mem_size = DEFAULT_MEM_SIZE;
}

void config_free(struct vm_config *cfg)
{
	free(cfg->kernel);
	free(cfg->cmdline);
	free(cfg->initrd);
	free(cfg->expect);
	free(cfg->dump_dtb);
	free(cfg->control);
	free(cfg->stats_json);
	memset(cfg, 0, sizeof(*cfg));
}

typedef int (*setter_fn)(struct vm_config *cfg, const char *value, char *err, size_t errlen);

static int set_string(char **field, const char *value, char *err, size_t errlen)
{
	char *copy = strdup(value);
	if (!copy) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	free(*field);
	*field = copy;
	return 0;
}

static int set_kernel(struct vm_config *cfg, const char *v, char *err, size_t errlen)
{
	return set_string(&cfg->kernel, v, err, errlen);
}

static int set_initrd(struct vm_config *cfg, const char *v, char *err, size_t errlen)
{
	return set_string(&cfg->initrd, v, err, errlen);
}

static int set_cmdline(struct vm_config *cfg, const char *v, char *err, size_t errlen)
{
	return set_string(&cfg->cmdline, v, err, errlen);
}

static int set_expect(struct vm_config *cfg, const char *v, char *err, size_t errlen)
{
	return set_string(&cfg->expect, v, err, errlen);
}

static int set_count(unsigned *field, const char *key, const char *v, char *err, size_t errlen)
{
	uint64_t n;
	if (!parse_u64(v, &n) || n == 0 || n > CONFIG_MAX_CPUS) {
		snprintf(err, errlen, "%s '%s': expected a number from 1 to %d", key, v, CONFIG_MAX_CPUS);
		return -1;
	}
	*field = (unsigned)n;
	return 0;
}

static int set_cpus(struct vm_config *cfg, const char *v, char *err, size_t errlen)
{
	return set_count(&cfg->smp.cpus, "cpus", v, err, errlen);
}

static int set_sockets(struct vm_config *cfg, const char *v, char *err, size_t errlen)
{
	return set_count(&cfg->smp.sockets, "sockets", v, err, errlen);
}

static int set_cores(struct vm_config *cfg, const char *v, char *err, size_t errlen)
{
	return set_count(&cfg->smp.cores, "cores", v, err, errlen);
}

static int set_threads(struct vm_config *cfg, const char *v, char *err, size_t errlen)
{
	return set_count(&cfg->smp.threads, "threads", v, err, errlen);
}

/* --smp [cpus=]N,sockets=S,cores=C,threads=T: QEMU's spelling, any subset. */
static int set_smp(struct vm_config *cfg, const char *v, char *err, size_t errlen)
{
	char buf[256];
	if (strlen(v) >= sizeof(buf) || !*v) {
		snprintf(err, errlen, "smp '%s': expected cpus=N,sockets=S,cores=C,threads=T", v);
		return -1;
	}
	strcpy(buf, v);
	char *save = NULL;
	for (char *item = strtok_r(buf, ",", &save); item; item = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(item, '=');
		const char *key = eq ? item : "cpus", *value = eq ? eq + 1 : item;
		if (eq)
			*eq = '\0';
		int rc;
		if (strcmp(key, "cpus") == 0)
			rc = set_cpus(cfg, value, err, errlen);
		else if (strcmp(key, "sockets") == 0)
			rc = set_sockets(cfg, value, err, errlen);
		else if (strcmp(key, "cores") == 0)
			rc = set_cores(cfg, value, err, errlen);
		else if (strcmp(key, "threads") == 0)
			rc = set_threads(cfg, value, err, errlen);
		else {
			snprintf(err, errlen, "smp: unknown key '%s' (cpus, sockets, cores, threads)", key);
			rc = -1;
		}
		if (rc)
			return rc;
	}
	return 0;
}

static int set_l3(struct vm_config *cfg, const char *v, char *err, size_t errlen)
{
	if (strcmp(v, "on") == 0)
		cfg->l3 = L3_ON;
	else if (strcmp(v, "off") == 0)
		cfg->l3 = L3_OFF;
	else if (strcmp(v, "auto") == 0)
		cfg->l3 = L3_AUTO;
	else {
		snprintf(err, errlen, "l3-cache '%s': expected on, off or auto", v);
		return -1;
	}
	return 0;
}

static int set_vendor(struct vm_config *cfg, const char *v, char *err, size_t errlen)
{
	if (strcmp(v, "host") == 0)
		cfg->vendor = VENDOR_HOST;
	else if (strcmp(v, "intel") == 0)
		cfg->vendor = VENDOR_INTEL;
	else if (strcmp(v, "amd") == 0)
		cfg->vendor = VENDOR_AMD;
	else {
		snprintf(err, errlen, "cpu-vendor '%s': expected host, intel or amd", v);
		return -1;
	}
	return 0;
}

static int set_cache_size(struct vm_config *cfg, enum cache_index i, const char *key,
			  const char *v, char *err, size_t errlen)
{
	uint64_t size;
	/* A power of two, so every cache's sets come out whole; the range per
	 * level is the cache model's to check (cache_model_configure). */
	if (!parse_size(v, &size) || size < 1024 || size > (1ULL << 30) || (size & (size - 1))) {
		snprintf(err, errlen, "%s '%s': expected a power-of-two size from 1K to 1G", key, v);
		return -1;
	}
	cfg->cache_sizes.size[i] = size;
	return 0;
}

static int set_l1d_size(struct vm_config *cfg, const char *v, char *err, size_t errlen)
{
	return set_cache_size(cfg, CACHE_L1D, "l1d-size", v, err, errlen);
}

static int set_l1i_size(struct vm_config *cfg, const char *v, char *err, size_t errlen)
{
	return set_cache_size(cfg, CACHE_L1I, "l1i-size", v, err, errlen);
}

static int set_l2_size(struct vm_config *cfg, const char *v, char *err, size_t errlen)
{
	return set_cache_size(cfg, CACHE_L2, "l2-size", v, err, errlen);
}

static int set_l3_size(struct vm_config *cfg, const char *v, char *err, size_t errlen)
{
	return set_cache_size(cfg, CACHE_L3, "l3-size", v, err, errlen);
}

static int set_control(struct vm_config *cfg, const char *v, char *err, size_t errlen)
{
	return set_string(&cfg->control, v, err, errlen);
}

static int set_stats(struct vm_config *cfg, const char *v, char *err, size_t errlen)
{
	if (!parse_bool(v, &cfg->stats)) {
		snprintf(err, errlen, "stats '%s': expected on or off", v);
		return -1;
	}
	return 0;
}

static int set_stats_json(struct vm_config *cfg, const char *v, char *err, size_t errlen)
{
	return set_string(&cfg->stats_json, v, err, errlen);
}

static int set_dump_dtb(struct vm_config *cfg, const char *v, char *err, size_t errlen)
{
	return set_string(&cfg->dump_dtb, v, err, errlen);
}

static int set_mem(struct vm_config *cfg, const char *v, char *err, size_t errlen)
{
	uint64_t size;
	if (!parse_size(v, &size) || size == 0) {
		snprintf(err, errlen, "mem '%s': expected a non-zero size such as 64M or 1G", v);
		return -1;
	}
	/* Page granularity: KVM memory slots are made of whole pages. */
	if (size % 4096) {
		snprintf(err, errlen, "mem '%s': not a multiple of 4 KiB", v);
		return -1;
	}
	cfg->mem_size = size;
	return 0;
}

static int set_timeout(struct vm_config *cfg, const char *v, char *err, size_t errlen)
{
	if (!parse_duration_ms(v, &cfg->timeout_ms)) {
		snprintf(err, errlen, "timeout '%s': expected a duration such as 30, 30s, 500ms, 2m", v);
		return -1;
	}
	return 0;
}

static int set_report_memory(struct vm_config *cfg, const char *v, char *err, size_t errlen)
{
	if (!parse_bool(v, &cfg->report_memory)) {
		snprintf(err, errlen, "report-memory '%s': expected on or off", v);
		return -1;
	}
	return 0;
}

static int set_kvmclock_guest_view(struct vm_config *cfg, const char *v, char *err, size_t errlen)
{
	if (!parse_bool(v, &cfg->kvmclock_guest_view)) {
		snprintf(err, errlen, "kvmclock-guest-view '%s': expected on or off", v);
		return -1;
	}
	return 0;
}

static int set_kvmclock(struct vm_config *cfg, const char *v, char *err, size_t errlen)
{
	bool on;
	if (!parse_bool(v, &on)) {
		snprintf(err, errlen, "kvmclock '%s': expected on or off", v);
		return -1;
	}
	cfg->kvmclock_off = !on;
	return 0;
}

static int set_seccomp(struct vm_config *cfg, const char *v, char *err, size_t errlen)
{
	bool on;
	if (!parse_bool(v, &on)) {
		snprintf(err, errlen, "seccomp '%s': expected on or off", v);
		return -1;
	}
	cfg->seccomp_off = !on;
	return 0;
}

static bool valid_param_name(const char *name, size_t len)
{
	if (len == 0 || len >= TESTDEV_NAME_MAX)
		return false;
	for (size_t i = 0; i < len; i++)
		if (!strchr("abcdefghijklmnopqrstuvwxyz0123456789_.-", name[i]))
			return false;
	return true;
}

static int add_param(struct vm_config *cfg, const char *name, size_t name_len, const char *value,
		     char *err, size_t errlen)
{
	uint64_t v;
	if (!valid_param_name(name, name_len)) {
		snprintf(err, errlen, "param '%.*s': names are 1-%d characters of [a-z0-9_.-]",
			 (int)name_len, name, TESTDEV_NAME_MAX - 1);
		return -1;
	}
	if (!parse_u64(value, &v)) {
		snprintf(err, errlen, "param '%.*s': value '%s' is not an unsigned number",
			 (int)name_len, name, value);
		return -1;
	}
	struct config_param *p = NULL;
	for (unsigned i = 0; i < cfg->nparams; i++)
		if (strlen(cfg->params[i].name) == name_len &&
		    memcmp(cfg->params[i].name, name, name_len) == 0)
			p = &cfg->params[i];
	if (!p) {
		if (cfg->nparams == CONFIG_MAX_PARAMS) {
			snprintf(err, errlen, "too many params (at most %d)", CONFIG_MAX_PARAMS);
			return -1;
		}
		p = &cfg->params[cfg->nparams++];
		memcpy(p->name, name, name_len);
		p->name[name_len] = '\0';
	}
	p->value = v;
	return 0;
}

/* --param NAME=VALUE */
static int set_param(struct vm_config *cfg, const char *v, char *err, size_t errlen)
{
	const char *eq = strchr(v, '=');
	if (!eq) {
		snprintf(err, errlen, "param '%s': expected NAME=VALUE", v);
		return -1;
	}
	return add_param(cfg, v, (size_t)(eq - v), eq + 1, err, errlen);
}

#ifdef VMM_TEST_FAULTS
static int set_test_fault(struct vm_config *cfg, const char *v, char *err, size_t errlen)
{
	(void)cfg;
	if (!test_fault_enable(v)) {
		snprintf(err, errlen, "test-fault '%s': unknown", v);
		return -1;
	}
	return 0;
}
#endif

struct config_key {
	const char *section; /* where it lives in a config file */
	const char *name;    /* the key, and the long option --name */
	setter_fn set;
};

static const struct config_key config_keys[] = {
	{ "machine", "cpus", set_cpus },
	{ "machine", "sockets", set_sockets },
	{ "machine", "cores", set_cores },
	{ "machine", "threads", set_threads },
	{ "machine", "smp", set_smp },
	{ "machine", "mem", set_mem },
	{ "cpu", "l3-cache", set_l3 },
	{ "cpu", "cpu-vendor", set_vendor },
	{ "cpu", "l1d-size", set_l1d_size },
	{ "cpu", "l1i-size", set_l1i_size },
	{ "cpu", "l2-size", set_l2_size },
	{ "cpu", "l3-size", set_l3_size },
	{ "clock", "kvmclock", set_kvmclock },
	{ "clock", "kvmclock-guest-view", set_kvmclock_guest_view },
	{ "boot", "kernel", set_kernel },
	{ "boot", "initrd", set_initrd },
	{ "boot", "cmdline", set_cmdline },
	{ "run", "timeout", set_timeout },
	{ "run", "expect", set_expect },
	{ "run", "report-memory", set_report_memory },
	{ "run", "dump-dtb", set_dump_dtb },
	{ "run", "control", set_control },
	{ "run", "stats", set_stats },
	{ "run", "stats-json", set_stats_json },
	{ "run", "seccomp", set_seccomp },
	{ NULL, "param", set_param }, /* command line only: the file has [params] */
#ifdef VMM_TEST_FAULTS
	{ NULL, "test-fault", set_test_fault },
#endif
};

static const struct config_key *find_key(const char *section, const char *name)
{
	for (size_t i = 0; i < sizeof(config_keys) / sizeof(config_keys[0]); i++) {
		const struct config_key *k = &config_keys[i];
		if (strcmp(k->name, name) == 0 && (!section || (k->section && strcmp(k->section, section) == 0)))
			return k;
	}
	return NULL;
}

bool config_has_key(const char *key)
{
	return find_key(NULL, key) != NULL;
}

int config_set(struct vm_config *cfg, const char *key, const char *value, char *err, size_t errlen)
{
	const struct config_key *k = find_key(NULL, key);
	if (!k) {
		snprintf(err, errlen, "unknown key '%s'", key);
		return -1;
	}
	return k->set(cfg, value, err, errlen);
}

struct ini_ctx {
	struct vm_config *cfg;
	char *err;
	size_t errlen;
	bool failed; /* inih goes on after an error: keep the first reason */
};

/* inih calls this per key; returning 0 stops the parse and reports the line. */
static int on_ini_entry(void *user, const char *section, const char *name, const char *value)
{
	struct ini_ctx *ctx = user;
	if (ctx->failed)
		return 0;
	int rc;
	if (strcmp(section, "params") == 0) {
		rc = add_param(ctx->cfg, name, strlen(name), value, ctx->err, ctx->errlen);
	} else {
		const struct config_key *k = find_key(section, name);
		if (k) {
			rc = k->set(ctx->cfg, value, ctx->err, ctx->errlen);
		} else {
			snprintf(ctx->err, ctx->errlen, "unknown key '%s' in section [%s]", name, section);
			rc = -1;
		}
	}
	ctx->failed = rc != 0;
	return rc == 0;
}

int config_load_file(struct vm_config *cfg, const char *path, char *err, size_t errlen)
{
	char reason[CONFIG_ERR_MAX] = "syntax error";
	struct ini_ctx ctx = { cfg, reason, sizeof(reason), false };
	FILE *f = fopen(path, "r");
	if (!f) {
		snprintf(err, errlen, "config %s: %s", path, strerror(errno));
		return -1;
	}
	int line = ini_parse_file(f, on_ini_entry, &ctx);
	fclose(f);
	if (line != 0) {
		snprintf(err, errlen, "config %s:%d: %s", path, line, reason);
		return -1;
	}
	return 0;
}

bool config_param(const struct vm_config *cfg, const char *name, uint64_t *value)
{
	for (unsigned i = 0; i < cfg->nparams; i++) {
		if (strcmp(cfg->params[i].name, name) == 0) {
			*value = cfg->params[i].value;
			return true;
		}
	}
	return false;
}
