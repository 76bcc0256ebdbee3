/* Seccomp allowlists (libseccomp): once the VM is built, each vCPU thread
 * and the main thread run under their own filter, so a guest that takes
 * over a device model can make only the system calls (and KVM ioctls) that
 * thread already makes. On by default; --no-seccomp turns both off.
 *
 * What a forbidden call does: the filters' default action is SCMP_ACT_TRAP,
 * a SIGSYS the thread cannot avoid (the kernel unblocks it, and a SIGSYS
 * that is ignored or met in its own handler kills the process). vmm's
 * handler restores the terminal, writes one line
 *     vmm: seccomp: vcpu thread made forbidden syscall N
 * with write(2) and ends the process with _exit(159) (128 + SIGSYS, what a
 * shell shows for a SIGSYS kill). KILL_PROCESS would end it as surely but
 * silently, and with the terminal left raw. The handler cannot be replaced
 * afterwards: rt_sigaction is allowed for every signal but SIGSYS. */
#ifndef VMM_SECCOMP_H
#define VMM_SECCOMP_H

#include <seccomp.h>
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>

#define SECCOMP_EXIT_STATUS (128 + SIGSYS)

/* Which descriptor an allowed ioctl may be made on. */
enum seccomp_fd_role {
	SECCOMP_FD_ANY,   /* any (the main thread's: several vCPU fds, a terminal) */
	SECCOMP_FD_VCPU,  /* the vCPU thread's own vCPU fd */
	SECCOMP_FD_VM,    /* the VM fd */
	SECCOMP_FD_STDIN, /* the terminal on stdin (restored by the SIGSYS handler) */
};

struct seccomp_ioctl {
	unsigned long request;
	const char *name;
	enum seccomp_fd_role fd;
};

extern const struct seccomp_ioctl seccomp_vcpu_ioctls[];
extern const size_t seccomp_vcpu_nioctls;
extern const struct seccomp_ioctl seccomp_main_ioctls[];
extern const size_t seccomp_main_nioctls;

/* The descriptors a vCPU thread's filter names. */
#define SECCOMP_MAX_WRITE_FDS 8
struct seccomp_vcpu_fds {
	int vcpu_fd;
	int vm_fd;
	int stdin_fd;
	int write_fds[SECCOMP_MAX_WRITE_FDS]; /* stdout, stderr, the eventfds it signals */
	unsigned nwrite_fds;
};

/* Built, not loaded; NULL on failure. seccomp_release() when done. */
scmp_filter_ctx seccomp_vcpu_filter(const struct seccomp_vcpu_fds *fds);
scmp_filter_ctx seccomp_main_filter(void);

/* Before any filter: the process-wide SIGSYS handler, and libseccomp's
 * one-time probing of the kernel (so threads building their own filters
 * later only read its results). 0 or -errno. */
int seccomp_prepare(void);

/* Load a filter on the calling thread only (no TSYNC); `role` ("vcpu",
 * "main") names the thread in the SIGSYS line. Releases the filter. 0 or
 * -errno, with one line logged. */
int seccomp_load_thread(scmp_filter_ctx ctx, const char *role);

#endif
