/* The command line: `vmm run [options] KERNEL`, --help, --version. Options
 * and config-file keys share one table (config.c); options win over the file. */
#include "cli.h"

#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "exit_status.h"
#include "log.h"

enum { OPT_CONFIG = 256, OPT_HELP, OPT_VERSION, OPT_KEY, OPT_FLAG, OPT_FLAG_OFF };

/* Every option that sets a config key is spelled like the key. */
static const struct option long_options[] = {
	{ "cpus", required_argument, NULL, OPT_KEY },
	{ "smp", required_argument, NULL, OPT_KEY },
	{ "sockets", required_argument, NULL, OPT_KEY },
	{ "cores", required_argument, NULL, OPT_KEY },
	{ "threads", required_argument, NULL, OPT_KEY },
	{ "mem", required_argument, NULL, OPT_KEY },
	{ "l3-cache", required_argument, NULL, OPT_KEY },
	{ "cpu-vendor", required_argument, NULL, OPT_KEY },
	{ "l1d-size", required_argument, NULL, OPT_KEY },
	{ "l1i-size", required_argument, NULL, OPT_KEY },
	{ "l2-size", required_argument, NULL, OPT_KEY },
	{ "l3-size", required_argument, NULL, OPT_KEY },
	{ "dump-dtb", required_argument, NULL, OPT_KEY },
	{ "control", required_argument, NULL, OPT_KEY },
	{ "stats", no_argument, NULL, OPT_FLAG },
	{ "stats-json", required_argument, NULL, OPT_KEY },
	{ "kvmclock", required_argument, NULL, OPT_KEY },
	{ "kvmclock-guest-view", no_argument, NULL, OPT_FLAG },
	{ "kernel", required_argument, NULL, OPT_KEY },
	{ "initrd", required_argument, NULL, OPT_KEY },
	{ "cmdline", required_argument, NULL, OPT_KEY },
	{ "timeout", required_argument, NULL, OPT_KEY },
	{ "expect", required_argument, NULL, OPT_KEY },
	{ "param", required_argument, NULL, OPT_KEY },
	{ "report-memory", no_argument, NULL, OPT_FLAG }, /* boolean keys: the flag means "on" */
	{ "seccomp", no_argument, NULL, OPT_FLAG },
	{ "no-seccomp", no_argument, NULL, OPT_FLAG_OFF }, /* "no-KEY": the key "off" */
#ifdef VMM_TEST_FAULTS
	{ "test-fault", required_argument, NULL, OPT_KEY },
#endif
	{ "config", required_argument, NULL, OPT_CONFIG },
	{ "help", no_argument, NULL, OPT_HELP },
	{ "version", no_argument, NULL, OPT_VERSION },
	{ NULL, 0, NULL, 0 },
};

void cli_print_help(void)
{
	printf("usage: vmm run [options] KERNEL | --kernel KERNEL\n"
	       "       vmm ab --vary KEY=V1,V2[,...] [--rounds N] [--metric NAME]... [--json FILE]\n"
	       "              [run options] KERNEL\n"
	       "       vmm --help | --version\n"
	       "\n"
	       "Runs KERNEL on KVM: a Linux bzImage (with --initrd, --cmdline), or an\n"
	       "ELF64 x86-64 kernel with a PVH entry note (the bundled test kernels).\n"
	       "\n"
	       "options:\n"
	       "  --cpus N            vCPUs (default 1, or the --smp product)\n"
	       "  --smp [cpus=]N,sockets=S,cores=C,threads=T\n"
	       "                      topology, any subset (the rest is derived as QEMU does)\n"
	       "  --mem SIZE          guest RAM, e.g. 64M, 1G (default 64M)\n"
	       "  --cpu-vendor V      host, intel or amd: the vendor string and CPUID encodings\n"
	       "  --l3-cache MODE     on, off or auto (default auto = off; see README)\n"
	       "  --l1d-size, --l1i-size, --l2-size, --l3-size SIZE\n"
	       "                      cache sizes (default: the host's)\n"
	       "  --dump-dtb FILE     write the machine's flattened device tree and exit\n"
	       "  --kvmclock on|off   offer kvmclock in CPUID (default on, as KVM supports it)\n"
	       "  --kvmclock-guest-view\n"
	       "                      on pause, also derive the clock from the guest's pvclock\n"
	       "                      records even when KVM reports a stable clock\n"
	       "  --kernel FILE       the kernel (same as the KERNEL argument)\n"
	       "  --initrd FILE       initial RAM disk for a Linux bzImage\n"
	       "  --cmdline TEXT      kernel command line (bzImage default:\n"
	       "                      \"console=ttyS0 reboot=k pci=off\")\n"
	       "  --config FILE       INI machine config; options given here override it\n"
	       "  --timeout DURATION  stop the VM and exit 124 after DURATION (30, 30s, 500ms, 2m)\n"
	       "  --expect REGEX      exit 0 when a console line matches (extended regex)\n"
	       "  --param NAME=VALUE  a number the test kernel can ask for (repeatable)\n"
	       "  --control PATH      a UNIX socket taking JSON lines: pause, resume, status, quit\n"
	       "  --report-memory     at exit, print vmm's peak RSS and the guest RAM touched\n"
	       "  --stats             at exit, print KVM's per-vCPU statistics (exits, HLTs, ...)\n"
	       "  --stats-json FILE   write them to FILE as JSON\n"
	       "  --no-seccomp        run without the system-call filters (for debugging)\n"
	       "\n"
	       "exit status: the guest's debug-exit status ((v << 1) | 1) when it reports one;\n"
	       "0 on power-off or --expect match; 1 on VM failure; 2 on bad input; 124 on timeout.\n");
}

struct pending_option {
	const char *key;
	const char *value;
};

int cli_parse(int argc, char **argv, struct vm_config *cfg, enum cli_command *cmd)
{
	if (argc < 2) {
		vmm_log("no command given (see vmm --help)");
		return EXIT_STATUS_USAGE;
	}
	*cmd = CLI_RUN;
	int first = 1;
	if (strcmp(argv[1], "run") == 0)
		first = 2;
	else if (argv[1][0] != '-') {
		vmm_log("unknown command '%s' (see vmm --help)", argv[1]);
		return EXIT_STATUS_USAGE;
	}

	/* Options are applied after the config file, whatever their order. */
	struct pending_option pending[64];
	unsigned npending = 0;
	const char *config_path = NULL;
	char err[CONFIG_ERR_MAX];

	optind = first;
	opterr = 0;
	int opt, index;
	while ((opt = getopt_long(argc, argv, ":", long_options, &index)) != -1) {
		switch (opt) {
		case OPT_KEY:
		case OPT_FLAG:
		case OPT_FLAG_OFF:
			if (npending == sizeof(pending) / sizeof(pending[0])) {
				vmm_log("too many options");
				return EXIT_STATUS_USAGE;
			}
			pending[npending++] = (struct pending_option){
				opt == OPT_FLAG_OFF ? long_options[index].name + 3 : long_options[index].name,
				opt == OPT_FLAG ? "on" : opt == OPT_FLAG_OFF ? "off" : optarg
			};
			break;
		case OPT_CONFIG:
			config_path = optarg;
			break;
		case OPT_HELP:
			*cmd = CLI_HELP;
			return 0;
		case OPT_VERSION:
			*cmd = CLI_VERSION;
			return 0;
		case ':':
			vmm_log("option '%s' needs a value", argv[optind - 1]);
			return EXIT_STATUS_USAGE;
		default:
			vmm_log("unknown option '%s' (see vmm --help)", argv[optind - 1]);
			return EXIT_STATUS_USAGE;
		}
	}
	if (first == 1) {
		vmm_log("no command given (see vmm --help)");
		return EXIT_STATUS_USAGE;
	}
	if (config_path && config_load_file(cfg, config_path, err, sizeof(err)) < 0) {
		vmm_log("%s", err);
		return EXIT_STATUS_USAGE;
	}
	for (unsigned i = 0; i < npending; i++) {
		if (config_set(cfg, pending[i].key, pending[i].value, err, sizeof(err)) < 0) {
			vmm_log("--%s", err);
			return EXIT_STATUS_USAGE;
		}
	}
	if (optind < argc && config_set(cfg, "kernel", argv[optind++], err, sizeof(err)) < 0) {
		vmm_log("%s", err);
		return EXIT_STATUS_USAGE;
	}
	if (optind < argc) {
		vmm_log("unexpected argument '%s' after the kernel", argv[optind]);
		return EXIT_STATUS_USAGE;
	}
	return 0;
}
