/* vmm's entry point: parse the command line, build the VM, run it, report. */
#include <stdio.h>
#include <string.h>

#include "ab.h"
#include "cli.h"
#include "config.h"
#include "exit_status.h"
#include "main_loop.h"
#include "terminal.h"
#include "vcpu.h"
#include "vm.h"

#ifndef VMM_VERSION
#define VMM_VERSION "dev"
#endif

int main(int argc, char **argv)
{
	/* Process set-up, before vmm opens anything of its own: a closed
	 * stdin/stdout/stderr must not become one of vmm's fds. */
	terminal_reserve_stdio();
	if (argc > 1 && strcmp(argv[1], "ab") == 0)
		return ab_main(argc, argv);
	struct vm_config cfg;
	enum cli_command cmd;
	config_init(&cfg);
	int status = cli_parse(argc, argv, &cfg, &cmd);
	if (status == 0 && cmd == CLI_HELP)
		cli_print_help();
	if (status == 0 && cmd == CLI_VERSION)
		printf("vmm %s\n", VMM_VERSION);
	if (status != 0 || cmd != CLI_RUN) {
		config_free(&cfg);
		return status;
	}

	if (main_loop_block_signals() < 0 || vcpu_signals_init() < 0) {
		config_free(&cfg);
		return EXIT_STATUS_VM_FAILURE;
	}
	static struct vm vm;
	status = vm_create(&vm, &cfg);
	if (status == 0)
		status = vm_run(&vm);
	vm_destroy(&vm);
	config_free(&cfg);
	return status;
}
