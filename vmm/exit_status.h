/* vmm's exit statuses, as the shell sees them. */
#ifndef VMM_EXIT_STATUS_H
#define VMM_EXIT_STATUS_H

enum {
	EXIT_STATUS_OK = 0,        /* clean power-off, or --expect matched */
	EXIT_STATUS_VM_FAILURE = 1, /* KVM error, triple fault, unhandled exit */
	EXIT_STATUS_USAGE = 2,      /* bad option, config, kernel file, ... */
	EXIT_STATUS_TIMEOUT = 124,  /* --timeout passed, as timeout(1) */
	EXIT_STATUS_SIGNAL_BASE = 128, /* + signal number, as a shell reports it */
};
/* A guest test status arrives through the debug-exit port as (v << 1) | 1. */

#endif
