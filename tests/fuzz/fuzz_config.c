/* Fuzz target: the configuration (vmm/config.c): config_set with a fuzzed
 * value for one key (--smp, the sizes, counts, durations, ...), then
 * config_load_file on a fuzzed INI file (written to a memfd and opened by
 * its /proc/self/fd path), then config_param.
 * Input:
 *   [0]      which key config_set gets (an index into keys[] below; past its
 *            end, the value's text before a ':' is taken as the key)
 *   then the value, up to the first '\n' (a NUL in it ends the string)
 *   then the INI file: everything after that newline. */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "../../vmm/config.h"
#include "fuzz_util.h"

static const char *const keys[] = {
	"smp",	    "cpus",	"sockets",  "cores",	  "threads",	 "mem",
	"l1d-size", "l1i-size", "l2-size",  "l3-size",	  "timeout",	 "param",
	"l3-cache", "cpu-vendor", "kvmclock", "kvmclock-guest-view", "stats",
	"report-memory", "kernel", "cmdline", "expect",	  "initrd",	 "control",
};
#define NKEYS (sizeof(keys) / sizeof(keys[0]))

static int ini_fd = -1;
static char ini_path[64];

static void check_config(const struct vm_config *cfg)
{
	FUZZ_ASSERT(cfg->smp.cpus <= CONFIG_MAX_CPUS && cfg->smp.sockets <= CONFIG_MAX_CPUS &&
		    cfg->smp.cores <= CONFIG_MAX_CPUS && cfg->smp.threads <= CONFIG_MAX_CPUS);
	FUZZ_ASSERT(cfg->mem_size != 0 && cfg->mem_size % 4096 == 0);
	FUZZ_ASSERT(cfg->nparams <= CONFIG_MAX_PARAMS);
	for (unsigned i = 0; i < cfg->nparams; i++) {
		size_t n = strnlen(cfg->params[i].name, TESTDEV_NAME_MAX);
		FUZZ_ASSERT(n > 0 && n < TESTDEV_NAME_MAX);
		uint64_t v;
		FUZZ_ASSERT(config_param(cfg, cfg->params[i].name, &v));
	}
	for (unsigned i = 0; i < 4; i++) {
		uint64_t s = cfg->cache_sizes.size[i];
		FUZZ_ASSERT(s == 0 || (s >= 1024 && s <= (1ULL << 30) && !(s & (s - 1))));
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (ini_fd < 0) {
		ini_fd = memfd_create("fuzz-config", 0);
		if (ini_fd < 0)
			abort();
		snprintf(ini_path, sizeof(ini_path), "/proc/self/fd/%d", ini_fd);
	}
	if (size == 0)
		return 0;
	unsigned which = data[0];
	const uint8_t *rest = data + 1;
	size_t left = size - 1;
	const uint8_t *nl = memchr(rest, '\n', left);
	size_t vlen = nl ? (size_t)(nl - rest) : left;
	char *value = malloc(vlen + 1);
	if (!value)
		return 0;
	memcpy(value, rest, vlen);
	value[vlen] = '\0';
	const uint8_t *ini = nl ? nl + 1 : rest + left;
	size_t ini_len = (size_t)(rest + left - ini);

	struct vm_config cfg;
	char err[CONFIG_ERR_MAX];
	config_init(&cfg);
	const char *key = which < NKEYS ? keys[which] : NULL;
	const char *val = value;
	if (!key) {
		char *colon = strchr(value, ':');
		key = value;
		val = colon ? (*colon = '\0', colon + 1) : "";
	}
	bool known = config_has_key(key);
	if (config_set(&cfg, key, val, err, sizeof(err)) == 0)
		FUZZ_ASSERT(known);
	else
		FUZZ_ASSERT(err[0] != '\0');
	check_config(&cfg);

	if (ftruncate(ini_fd, 0) == 0 && pwrite(ini_fd, ini, ini_len, 0) == (ssize_t)ini_len) {
		if (config_load_file(&cfg, ini_path, err, sizeof(err)) != 0)
			FUZZ_ASSERT(strncmp(err, "config ", 7) == 0);
		check_config(&cfg);
	}
	config_free(&cfg);
	free(value);
	return 0;
}
