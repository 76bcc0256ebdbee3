/* seccomp: the ioctl allowlists are what the code paths need and no more,
 * and the filters really hold. Each filter is loaded in a forked child
 * (seccomp cannot be undone); an allowed call returns (a KVM ioctl on a
 * pipe fails with ENOTTY, past the filter), a forbidden one ends the child
 * with SIGSYS, or with 159 and one line once vmm's handler is installed.
 * No KVM needed. */
#include <errno.h>
#include <fcntl.h>
#include <linux/kvm.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../../vmm/seccomp.h"
#include "suites.h"

static const struct seccomp_ioctl *find(const struct seccomp_ioctl *list, size_t n,
					unsigned long req)
{
	for (size_t i = 0; i < n; i++)
		if (list[i].request == req)
			return &list[i];
	return NULL;
}

START_TEST(vcpu_ioctls_are_exactly_the_run_path)
{
	static const struct {
		unsigned long req;
		enum seccomp_fd_role fd;
	} want[] = {
		{ KVM_RUN, SECCOMP_FD_VCPU },	     { KVM_GET_REGS, SECCOMP_FD_VCPU },
		{ KVM_GET_SREGS, SECCOMP_FD_VCPU }, { KVM_IRQ_LINE, SECCOMP_FD_VM },
		{ TCSETS, SECCOMP_FD_STDIN },
	};
	ck_assert_uint_eq(seccomp_vcpu_nioctls, sizeof(want) / sizeof(want[0]));
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		const struct seccomp_ioctl *e =
			find(seccomp_vcpu_ioctls, seccomp_vcpu_nioctls, want[i].req);
		ck_assert_msg(e != NULL, "request 0x%lx missing", want[i].req);
		ck_assert_int_eq(e->fd, want[i].fd);
		ck_assert_ptr_nonnull(e->name);
	}
	/* Nothing that builds or reshapes a VM. */
	static const unsigned long never[] = { KVM_CREATE_VM, KVM_CREATE_VCPU,
					       KVM_SET_USER_MEMORY_REGION, KVM_SET_CPUID2,
					       KVM_SET_REGS, KVM_SET_SREGS, KVM_SET_MSRS };
	for (size_t i = 0; i < sizeof(never) / sizeof(never[0]); i++)
		ck_assert_ptr_null(find(seccomp_vcpu_ioctls, seccomp_vcpu_nioctls, never[i]));
}
END_TEST

START_TEST(main_ioctls_are_the_clock_and_the_terminal)
{
	static const unsigned long want[] = { KVM_GET_CLOCK, KVM_SET_CLOCK, KVM_GET_MSRS,
					      FIONREAD,	     TCGETS,	    TCSETS };
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++)
		ck_assert_msg(find(seccomp_main_ioctls, seccomp_main_nioctls, want[i]) != NULL,
			      "request 0x%lx missing", want[i]);
	static const unsigned long never[] = { KVM_RUN, KVM_CREATE_VM, KVM_CREATE_VCPU,
					       KVM_SET_USER_MEMORY_REGION, KVM_IRQ_LINE };
	for (size_t i = 0; i < sizeof(never) / sizeof(never[0]); i++)
		ck_assert_ptr_null(find(seccomp_main_ioctls, seccomp_main_nioctls, never[i]));
}
END_TEST

/* The child's world: two pipes stand in for the vCPU and VM fds. */
struct child {
	int vcpu_fd, vm_fd, other_fd;
	bool main_filter;
	bool handler; /* vmm's SIGSYS handler, stderr into err_pipe */
	int err_pipe;
};

typedef void (*child_fn)(const struct child *c);

/* Runs fn in a child under the filter; returns its wait status. */
static int run_filtered(child_fn fn, bool main_filter, bool handler, char *err, size_t errlen)
{
	int a[2], b[2], e[2];
	ck_assert_int_eq(pipe(a), 0);
	ck_assert_int_eq(pipe(b), 0);
	ck_assert_int_eq(pipe(e), 0);
	pid_t pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		struct rlimit no_core = { 0, 0 };
		setrlimit(RLIMIT_CORE, &no_core);
		struct child c = { .vcpu_fd = a[0], .vm_fd = b[0], .other_fd = a[1],
				   .main_filter = main_filter, .handler = handler };
		if (handler) {
			dup2(e[1], STDERR_FILENO);
			if (seccomp_prepare() < 0)
				_exit(100);
		}
		struct seccomp_vcpu_fds fds = {
			.vcpu_fd = c.vcpu_fd, .vm_fd = c.vm_fd, .stdin_fd = STDIN_FILENO,
			.write_fds = { STDOUT_FILENO, STDERR_FILENO, b[1] }, .nwrite_fds = 3,
		};
		scmp_filter_ctx ctx = main_filter ? seccomp_main_filter() : seccomp_vcpu_filter(&fds);
		if (seccomp_load_thread(ctx, main_filter ? "main" : "vcpu") < 0)
			_exit(101);
		fn(&c);
		_exit(0);
	}
	close(e[1]);
	int status;
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ssize_t n = read(e[0], err, errlen - 1);
	err[n > 0 ? n : 0] = '\0';
	close(a[0]);
	close(a[1]);
	close(b[0]);
	close(b[1]);
	close(e[0]);
	return status;
}

static int run_child(child_fn fn, bool main_filter)
{
	char err[256];
	return run_filtered(fn, main_filter, false, err, sizeof(err));
}

static void assert_passes(int status)
{
	ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0, "child status 0x%x", status);
}

static void assert_killed(int status)
{
	ck_assert_msg(WIFSIGNALED(status) && WTERMSIG(status) == SIGSYS,
		      "child status 0x%x, expected a SIGSYS kill", status);
}

/* An allowed KVM ioctl gets past the filter to the pipe, which refuses it. */
static void expect_enotty(int fd, unsigned long req)
{
	if (ioctl(fd, req, 0) != -1 || errno != ENOTTY)
		_exit(3);
}

static void kvm_run_on_own_fd(const struct child *c)
{
	expect_enotty(c->vcpu_fd, KVM_RUN);
	struct kvm_regs regs;
	if (ioctl(c->vcpu_fd, KVM_GET_REGS, &regs) != -1 || errno != ENOTTY)
		_exit(4);
	/* The request is the kernel's unsigned int: high bits do not matter. */
	expect_enotty(c->vcpu_fd, KVM_RUN | (1UL << 32));
}
static void irq_line_on_vm_fd(const struct child *c)
{
	struct kvm_irq_level irq = { .irq = 4, .level = 1 };
	if (ioctl(c->vm_fd, KVM_IRQ_LINE, &irq) != -1 || errno != ENOTTY)
		_exit(3);
}
static void create_vm_on_vcpu_fd(const struct child *c) { (void)!ioctl(c->vcpu_fd, KVM_CREATE_VM, 0); }
static void kvm_run_on_vm_fd(const struct child *c) { (void)!ioctl(c->vm_fd, KVM_RUN, 0); }
static void irq_line_on_vcpu_fd(const struct child *c)
{
	(void)!ioctl(c->vcpu_fd, KVM_IRQ_LINE, 0);
}
static void open_socket(const struct child *c)
{
	(void)c;
	(void)!socket(AF_INET, SOCK_STREAM, 0);
}
static void open_file(const struct child *c)
{
	(void)c;
	(void)!open("/dev/null", O_RDONLY);
}

START_TEST(vcpu_filter_allows_its_ioctls)
{
	assert_passes(run_child(kvm_run_on_own_fd, false));
	assert_passes(run_child(irq_line_on_vm_fd, false));
}
END_TEST

START_TEST(vcpu_filter_kills_other_ioctls_and_fds)
{
	assert_killed(run_child(create_vm_on_vcpu_fd, false));
	assert_killed(run_child(kvm_run_on_vm_fd, false));
	assert_killed(run_child(irq_line_on_vcpu_fd, false));
}
END_TEST

START_TEST(vcpu_filter_kills_new_descriptors)
{
	assert_killed(run_child(open_socket, false));
	assert_killed(run_child(open_file, false));
}
END_TEST

static void rw_mapping(const struct child *c)
{
	(void)c;
	void *p = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED || mprotect(p, 4096, PROT_READ) != 0 || munmap(p, 4096) != 0)
		_exit(3);
}
static void exec_mapping(const struct child *c)
{
	(void)c;
	(void)mmap(NULL, 4096, PROT_READ | PROT_EXEC, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
}
static void exec_mprotect(const struct child *c)
{
	(void)c;
	void *p = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		_exit(3);
	(void)mprotect(p, 4096, PROT_READ | PROT_EXEC);
}

START_TEST(memory_never_executable)
{
	for (int main_filter = 0; main_filter <= 1; main_filter++) {
		assert_passes(run_child(rw_mapping, main_filter));
		assert_killed(run_child(exec_mapping, main_filter));
		assert_killed(run_child(exec_mprotect, main_filter));
	}
}
END_TEST

static void write_listed(const struct child *c)
{
	/* b[1], the "eventfd", is listed; the vm fd's pipe end is read-only. */
	(void)c;
	if (write(STDERR_FILENO, "", 0) != 0)
		_exit(3);
}
static void write_unlisted(const struct child *c) { (void)!write(c->other_fd, "x", 1); }

START_TEST(vcpu_writes_only_to_its_fds)
{
	assert_passes(run_child(write_listed, false));
	assert_killed(run_child(write_unlisted, false));
}
END_TEST

static void sigaction_other(const struct child *c)
{
	(void)c;
	struct sigaction sa = { .sa_handler = SIG_IGN };
	if (sigaction(SIGUSR2, &sa, NULL) != 0)
		_exit(3);
}
static void sigaction_sigsys(const struct child *c)
{
	(void)c;
	struct sigaction sa = { .sa_handler = SIG_IGN };
	/* Raw, so the high bits are set too: the filter looks at 32 bits. */
	(void)!syscall(SYS_rt_sigaction, (long)SIGSYS | (1L << 32), &sa, NULL, 8);
	(void)!sigaction(SIGSYS, &sa, NULL);
}

START_TEST(sigsys_handler_cannot_be_replaced)
{
	for (int main_filter = 0; main_filter <= 1; main_filter++) {
		assert_passes(run_child(sigaction_other, main_filter));
		assert_killed(run_child(sigaction_sigsys, main_filter));
	}
}
END_TEST

static void main_thread_calls(const struct child *c)
{
	int n;
	if (ioctl(c->vcpu_fd, FIONREAD, &n) != 0)
		_exit(3);
	expect_enotty(c->vm_fd, KVM_GET_CLOCK);
	char buf[1];
	if (write(c->other_fd, "x", 1) != 1 || read(c->vcpu_fd, buf, 1) != 1)
		_exit(4);
	if (close(c->other_fd) != 0)
		_exit(5);
}

START_TEST(main_filter_allows_its_calls_only)
{
	assert_passes(run_child(main_thread_calls, true));
	assert_killed(run_child(kvm_run_on_vm_fd, true));
	assert_killed(run_child(create_vm_on_vcpu_fd, true));
	assert_killed(run_child(open_socket, true));
}
END_TEST

START_TEST(handler_says_one_line_and_exits_159)
{
	char err[256];
	int status = run_filtered(open_socket, false, true, err, sizeof(err));
	ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == SECCOMP_EXIT_STATUS,
		      "child status 0x%x", status);
	char want[96];
	snprintf(want, sizeof(want), "vmm: seccomp: vcpu thread made forbidden syscall %d\n",
		 (int)SYS_socket);
	ck_assert_str_eq(err, want);
	status = run_filtered(kvm_run_on_vm_fd, true, true, err, sizeof(err));
	ck_assert_int_eq(WEXITSTATUS(status), SECCOMP_EXIT_STATUS);
	snprintf(want, sizeof(want), "vmm: seccomp: main thread made forbidden syscall %d\n",
		 (int)SYS_ioctl);
	ck_assert_str_eq(err, want);
}
END_TEST

Suite *seccomp_suite(void)
{
	Suite *s = suite_create("seccomp");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, vcpu_ioctls_are_exactly_the_run_path);
	tcase_add_test(tc, main_ioctls_are_the_clock_and_the_terminal);
	tcase_add_test(tc, vcpu_filter_allows_its_ioctls);
	tcase_add_test(tc, vcpu_filter_kills_other_ioctls_and_fds);
	tcase_add_test(tc, vcpu_filter_kills_new_descriptors);
	tcase_add_test(tc, memory_never_executable);
	tcase_add_test(tc, vcpu_writes_only_to_its_fds);
	tcase_add_test(tc, sigsys_handler_cannot_be_replaced);
	tcase_add_test(tc, main_filter_allows_its_calls_only);
	tcase_add_test(tc, handler_says_one_line_and_exits_159);
	suite_add_tcase(s, tc);
	return s;
}
