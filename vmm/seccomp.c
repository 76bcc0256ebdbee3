/* Seccomp allowlists for the vCPU threads and the main thread (seccomp.h:
 * the design). Each list is what that thread's code paths call once the VM
 * runs, plus what glibc does underneath them (malloc, locks, abort). */
#include "seccomp.h"

#include <errno.h>
#include <linux/kvm.h>
#include <sched.h>
#include <stdatomic.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "log.h"
#include "terminal.h"

#define IOCTL(req, role) { req, #req, role }

/* A vCPU thread: KVM_RUN on its own fd; the registers for the one-line
 * report of a fatal exit (vcpu_dump.c); the UART's IRQ line on the VM fd
 * (serial.c raises it from the thread that wrote the register); and the
 * terminal's settings, which the SIGSYS handler puts back. The set-up ioctls
 * (SET_REGS, SET_SREGS, SET_CPUID2) are made by the main thread before the
 * vCPUs start, and pause/resume's GET_MSRS and GET/SET_CLOCK by the main
 * thread while they are parked: none of them is needed here. */
const struct seccomp_ioctl seccomp_vcpu_ioctls[] = {
	IOCTL(KVM_RUN, SECCOMP_FD_VCPU),
	IOCTL(KVM_GET_REGS, SECCOMP_FD_VCPU),
	IOCTL(KVM_GET_SREGS, SECCOMP_FD_VCPU),
	IOCTL(KVM_IRQ_LINE, SECCOMP_FD_VM),
	IOCTL(TCSETS, SECCOMP_FD_STDIN),
};
const size_t seccomp_vcpu_nioctls = sizeof(seccomp_vcpu_ioctls) / sizeof(seccomp_vcpu_ioctls[0]);

/* The main thread: kvmclock's pause and resume (the VM's clock, every
 * vCPU's clock MSRs), and the terminal (FIONREAD before a read, tcgetattr
 * and tcsetattr when leaving raw mode). The statistics fds are read with
 * pread, not ioctl. */
const struct seccomp_ioctl seccomp_main_ioctls[] = {
	IOCTL(KVM_GET_CLOCK, SECCOMP_FD_ANY),
	IOCTL(KVM_SET_CLOCK, SECCOMP_FD_ANY),
	IOCTL(KVM_GET_MSRS, SECCOMP_FD_ANY),
	IOCTL(FIONREAD, SECCOMP_FD_ANY),
	IOCTL(TCGETS, SECCOMP_FD_ANY),
	IOCTL(TCSETS, SECCOMP_FD_ANY),
	IOCTL(TCSETSW, SECCOMP_FD_ANY),
	IOCTL(TCSETSF, SECCOMP_FD_ANY),
};
const size_t seccomp_main_nioctls = sizeof(seccomp_main_ioctls) / sizeof(seccomp_main_ioctls[0]);

/* What every thread needs from glibc: memory (never executable), locks,
 * signal return and masks, time, its own end, and abort()'s raise. */
static const int common_syscalls[] = {
	SCMP_SYS(futex),	 SCMP_SYS(brk),		  SCMP_SYS(munmap),
	SCMP_SYS(madvise),	 SCMP_SYS(mremap),	  SCMP_SYS(rt_sigreturn),
	SCMP_SYS(rt_sigprocmask), SCMP_SYS(restart_syscall), SCMP_SYS(clock_gettime),
	SCMP_SYS(gettimeofday),	 SCMP_SYS(nanosleep),	  SCMP_SYS(clock_nanosleep),
	SCMP_SYS(sched_yield),	 SCMP_SYS(getrandom),	  SCMP_SYS(getpid),
	SCMP_SYS(gettid),	 SCMP_SYS(tgkill),	  SCMP_SYS(fstat),
	SCMP_SYS(newfstatat),	 SCMP_SYS(exit),	  SCMP_SYS(exit_group),
};

/* The main thread's own: the main loop (poll, the signalfd and timerfd it
 * opens, stdin, the eventfds), the control socket's clients, the
 * statistics (pread), the reports at exit (--stats-json opens its file,
 * --report-memory asks getrusage and mincore), and teardown (close, the
 * control socket's unlink). */
static const int main_syscalls[] = {
	SCMP_SYS(read),		SCMP_SYS(write),	  SCMP_SYS(pread64),
	SCMP_SYS(close),	SCMP_SYS(poll),		  SCMP_SYS(ppoll),
	SCMP_SYS(signalfd4),	SCMP_SYS(timerfd_create), SCMP_SYS(timerfd_settime),
	SCMP_SYS(accept4),	SCMP_SYS(recvfrom),	  SCMP_SYS(sendto),
	SCMP_SYS(openat),	SCMP_SYS(lseek),	  SCMP_SYS(unlink),
	SCMP_SYS(unlinkat),	SCMP_SYS(getrusage),	  SCMP_SYS(mincore),
};

/* ASan and LeakSanitizer, in the sanitizer build only: the leak check at
 * exit runs a tracer task (clone, ptrace, /proc/self/task through the
 * sanitizer's own raw open/getdents/stat) from the main thread, and every
 * thread has an alternate signal stack to drop. */
#if defined(__SANITIZE_ADDRESS__)
#define VMM_SANITIZER 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define VMM_SANITIZER 1
#endif
#endif
#ifdef VMM_SANITIZER
/* fcntl: ASan's fatal-signal report (seen on an injected SIGSEGV). */
static const int sanitizer_syscalls[] = { SCMP_SYS(sigaltstack), SCMP_SYS(fcntl) };
static const int sanitizer_main_syscalls[] = {
	SCMP_SYS(clone),      SCMP_SYS(ptrace),	 SCMP_SYS(wait4),    SCMP_SYS(prctl),
	SCMP_SYS(open),	      SCMP_SYS(openat),	 SCMP_SYS(stat),     SCMP_SYS(lstat),
	SCMP_SYS(getdents),   SCMP_SYS(getdents64), SCMP_SYS(readlink), SCMP_SYS(readlinkat),
	SCMP_SYS(getppid),    SCMP_SYS(kill),
};
#endif

static int add_all(scmp_filter_ctx ctx, const int *nrs, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		int rc = seccomp_rule_add(ctx, SCMP_ACT_ALLOW, nrs[i], 0);
		if (rc < 0)
			return rc;
	}
	return 0;
}

/* mmap and mprotect without PROT_EXEC: no new code in a running vmm. */
static int add_memory_rules(scmp_filter_ctx ctx)
{
	int rc = seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(mmap), 1,
				  SCMP_A2_64(SCMP_CMP_MASKED_EQ, PROT_EXEC, 0));
	if (rc == 0)
		rc = seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(mprotect), 1,
				      SCMP_A2_64(SCMP_CMP_MASKED_EQ, PROT_EXEC, 0));
	/* Any handler but SIGSYS's: the handler stays vmm's. The kernel takes
	 * an int, so a SIGSYS with high bits set would still be SIGSYS: the
	 * rules name the whole 64-bit value, signals 1-30 and 32-64 only. */
	_Static_assert(SIGSYS == 31, "the rt_sigaction rules below assume SIGSYS is 31");
	if (rc == 0)
		rc = seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(rt_sigaction), 1,
				      SCMP_A0_64(SCMP_CMP_LT, SIGSYS));
	if (rc == 0)
		rc = seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(rt_sigaction), 1,
				      SCMP_A0_64(SCMP_CMP_MASKED_EQ, ~(uint64_t)0x1f, 0x20));
	if (rc == 0)
		rc = seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(rt_sigaction), 1,
				      SCMP_A0_64(SCMP_CMP_EQ, 64));
	return rc;
}

/* An argument the kernel takes as an unsigned int (an fd, an ioctl
 * request): only its low 32 bits count, there as here. */
#define ARG_U32_EQ(arg, v) SCMP_CMP64(arg, SCMP_CMP_MASKED_EQ, 0xffffffffULL, (uint32_t)(v))

/* ioctl(fd, request): the request compared on its low 32 bits (the
 * kernel's `unsigned int cmd`), and the fd too where the role names one. */
static int add_ioctls(scmp_filter_ctx ctx, const struct seccomp_ioctl *list, size_t n,
		      const struct seccomp_vcpu_fds *fds)
{
	for (size_t i = 0; i < n; i++) {
		struct scmp_arg_cmp req = ARG_U32_EQ(1, list[i].request);
		int fd = -1;
		switch (list[i].fd) {
		case SECCOMP_FD_ANY:
			break;
		case SECCOMP_FD_VCPU:
			fd = fds->vcpu_fd;
			break;
		case SECCOMP_FD_VM:
			fd = fds->vm_fd;
			break;
		case SECCOMP_FD_STDIN:
			fd = fds->stdin_fd;
			break;
		}
		int rc;
		if (list[i].fd == SECCOMP_FD_ANY)
			rc = seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(ioctl), 1, req);
		else if (fd < 0)
			continue; /* no such fd: nothing to allow */
		else
			rc = seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(ioctl), 2,
					      ARG_U32_EQ(0, fd), req);
		if (rc < 0)
			return rc;
	}
	return 0;
}

static scmp_filter_ctx new_filter(void)
{
	scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_TRAP);
	if (!ctx)
		return NULL;
	/* This thread only: the others have (or will load) their own. */
	/* Also to the kernel log (audit type 1326), where the kernel logs
	 * traps: a task that dies with SIGSYS blocked (a sanitizer's tracer)
	 * prints nothing itself. Best effort: older kernels lack the flag. */
	(void)seccomp_attr_set(ctx, SCMP_FLTATR_CTL_LOG, 1);
	if (seccomp_attr_set(ctx, SCMP_FLTATR_CTL_TSYNC, 0) < 0 ||
	    add_all(ctx, common_syscalls, sizeof(common_syscalls) / sizeof(common_syscalls[0])) < 0 ||
	    add_memory_rules(ctx) < 0
#ifdef VMM_SANITIZER
	    || add_all(ctx, sanitizer_syscalls,
		       sizeof(sanitizer_syscalls) / sizeof(sanitizer_syscalls[0])) < 0
#endif
	) {
		seccomp_release(ctx);
		return NULL;
	}
	return ctx;
}

scmp_filter_ctx seccomp_vcpu_filter(const struct seccomp_vcpu_fds *fds)
{
	scmp_filter_ctx ctx = new_filter();
	if (!ctx)
		return NULL;
	int rc = add_ioctls(ctx, seccomp_vcpu_ioctls, seccomp_vcpu_nioctls, fds);
	/* write: the console (stdout), messages (stderr), and the eventfds a
	 * vCPU signals (a stop request, a guest's pause request, UART room). */
	for (unsigned i = 0; rc == 0 && i < fds->nwrite_fds && i < SECCOMP_MAX_WRITE_FDS; i++)
		if (fds->write_fds[i] >= 0)
			rc = seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(write), 1,
					      ARG_U32_EQ(0, fds->write_fds[i]));
	if (rc < 0) {
		seccomp_release(ctx);
		return NULL;
	}
	return ctx;
}

scmp_filter_ctx seccomp_main_filter(void)
{
	scmp_filter_ctx ctx = new_filter();
	if (!ctx)
		return NULL;
	if (add_all(ctx, main_syscalls, sizeof(main_syscalls) / sizeof(main_syscalls[0])) < 0 ||
#ifdef VMM_SANITIZER
	    add_all(ctx, sanitizer_main_syscalls,
		    sizeof(sanitizer_main_syscalls) / sizeof(sanitizer_main_syscalls[0])) < 0 ||
#endif
	    add_ioctls(ctx, seccomp_main_ioctls, seccomp_main_nioctls, NULL) < 0) {
		seccomp_release(ctx);
		return NULL;
	}
	return ctx;
}

/* The thread's name in the SIGSYS line. */
static _Thread_local const char *thread_role;

static size_t append(char *buf, size_t len, size_t cap, const char *s)
{
	while (*s && len < cap)
		buf[len++] = *s++;
	return len;
}

/* Async-signal-safe: no stdio, no malloc. */
static void on_sigsys(int sig, siginfo_t *si, void *uc)
{
	(void)sig;
	(void)uc;
	/* One line per process: a second thread trapping meanwhile waits for
	 * the first one's _exit, which ends it too. */
	static atomic_int said;
	if (atomic_exchange(&said, 1))
		for (;;)
			sched_yield();
	terminal_restore();
	char line[96], digits[16];
	size_t len = append(line, 0, sizeof(line), "vmm: seccomp: ");
	len = append(line, len, sizeof(line), thread_role ? thread_role : "unfiltered");
	len = append(line, len, sizeof(line), " thread made forbidden syscall ");
	int nr = si->si_syscall;
	size_t nd = 0;
	unsigned v = nr < 0 ? 0u - (unsigned)nr : (unsigned)nr;
	do
		digits[nd++] = (char)('0' + v % 10);
	while ((v /= 10) && nd < sizeof(digits));
	if (nr < 0 && len < sizeof(line))
		line[len++] = '-';
	while (nd && len < sizeof(line))
		line[len++] = digits[--nd];
	if (len < sizeof(line))
		line[len++] = '\n';
	(void)!write(STDERR_FILENO, line, len);
	_exit(SECCOMP_EXIT_STATUS);
}

int seccomp_prepare(void)
{
	/* Probes the kernel's seccomp features once, here, before threads
	 * build filters: afterwards libseccomp only reads what it found. */
	if (seccomp_api_get() < 2) {
		vmm_log("seccomp: the kernel lacks the seccomp() system call "
			"(use --no-seccomp)");
		return -ENOSYS;
	}
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_sigsys;
	sa.sa_flags = SA_SIGINFO;
	sigfillset(&sa.sa_mask);
	if (sigaction(SIGSYS, &sa, NULL) < 0) {
		int e = errno;
		vmm_log("seccomp: sigaction(SIGSYS): %s", strerror(e));
		return -e;
	}
	return 0;
}

int seccomp_load_thread(scmp_filter_ctx ctx, const char *role)
{
	if (!ctx) {
		vmm_log("seccomp: %s thread: cannot build its filter", role);
		return -ENOMEM;
	}
	thread_role = role;
	int rc = seccomp_load(ctx);
	seccomp_release(ctx);
	if (rc < 0) {
		thread_role = NULL;
		vmm_log("seccomp: %s thread: loading its filter: %s (use --no-seccomp)", role,
			strerror(-rc));
		return rc;
	}
	return 0;
}
