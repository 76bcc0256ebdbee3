/* The command line: `vmm run [options] KERNEL`, --help, --version. Options
 * and config-file keys share one table (config.c); options win over the file. */
#ifndef VMM_CLI_H
#define VMM_CLI_H

#include "config.h"

enum cli_command { CLI_RUN, CLI_HELP, CLI_VERSION };

/* 0 with *cmd set and cfg filled, or EXIT_STATUS_USAGE after one line on stderr. */
int cli_parse(int argc, char **argv, struct vm_config *cfg, enum cli_command *cmd);

void cli_print_help(void);

#endif
