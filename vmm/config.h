/* The machine configuration: what the user asked for, from a config file and
 * the command line, through one table of keys so both spell things alike. */
#ifndef VMM_CONFIG_H
#define VMM_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../cpu/cache.h"
#include "../cpu/topology.h"
#include "../devices/testdev_abi.h"

#define CONFIG_MAX_PARAMS 32
#define CONFIG_MAX_CPUS 4096 /* syntactic bound; KVM's own limit is checked at VM creation */

struct config_param {
	char name[TESTDEV_NAME_MAX];
	uint64_t value;
};

/* --l3-cache: auto is decided by the machine model (README: why). */
enum l3_mode { L3_AUTO, L3_ON, L3_OFF };
/* --cpu-vendor: host takes the host's vendor and its encodings. */
enum vendor_choice { VENDOR_HOST, VENDOR_INTEL, VENDOR_AMD };

struct vm_config {
	char *kernel;
	char *initrd;  /* Linux only: the initial RAM disk */
	char *cmdline;
	char *expect;
	char *dump_dtb;                 /* write the FDT here and exit */
	char *control;                  /* the control socket's path */
	char *stats_json;               /* write KVM statistics here at exit */
	bool stats;                     /* print KVM statistics at exit */
	struct topology_request smp; /* cpus, sockets, cores, threads; 0 = derive */
	enum l3_mode l3;
	enum vendor_choice vendor;
	struct cache_overrides cache_sizes;
	uint64_t mem_size;
	uint64_t timeout_ms; /* 0: none */
	bool report_memory;  /* print peak RSS and guest-touched RAM at exit */
	bool kvmclock_guest_view; /* take the guest's pvclock view on pause even if KVM says stable */
	bool kvmclock_off;        /* hide kvmclock's CPUID feature bits */
	bool seccomp_off;         /* --no-seccomp: no syscall filters (debugging) */
	struct config_param params[CONFIG_MAX_PARAMS];
	unsigned nparams;
};

#define CONFIG_ERR_MAX 256

void config_init(struct vm_config *cfg);
void config_free(struct vm_config *cfg);

/* Set one key (a config-file key or a long option's name) from its text.
 * 0, or -1 with a one-line reason in err. */
int config_set(struct vm_config *cfg, const char *key, const char *value, char *err, size_t errlen);

/* True if `key` takes a value from the command line as --key VALUE. */
bool config_has_key(const char *key);

/* Read an INI file ([machine] cpus/mem, [boot] kernel/cmdline, [run]
 * timeout/expect, [params] any name = number). 0, or -1 with err
 * "FILE:LINE: reason". */
int config_load_file(struct vm_config *cfg, const char *path, char *err, size_t errlen);

/* The value of a test parameter, if set. */
bool config_param(const struct vm_config *cfg, const char *name, uint64_t *value);

#endif
