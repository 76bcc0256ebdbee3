/* The main thread while the VM runs: waits for a stop request, a signal
 * (SIGINT/SIGTERM through a signalfd) or the --timeout (a timerfd). */
#include "main_loop.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <sys/signalfd.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

#include "exit_status.h"
#include "log.h"
#include "vm.h"

static void stop_signals(sigset_t *set)
{
	sigemptyset(set);
	sigaddset(set, SIGINT);
	sigaddset(set, SIGTERM);
	sigaddset(set, SIGHUP);
}

int main_loop_block_signals(void)
{
	sigset_t set;
	stop_signals(&set);
	/* The kick signal stays blocked everywhere but in vCPU threads. */
	sigaddset(&set, VCPU_KICK_SIGNAL);
	return pthread_sigmask(SIG_BLOCK, &set, NULL) ? -1 : 0;
}

static int open_timer(uint64_t timeout_ms)
{
	if (timeout_ms == 0)
		return -1;
	int fd = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC);
	if (fd < 0)
		return -1;
	struct itimerspec its = {
		.it_value = { .tv_sec = (time_t)(timeout_ms / 1000),
			      .tv_nsec = (long)(timeout_ms % 1000) * 1000000L },
	};
	timerfd_settime(fd, 0, &its, NULL);
	return fd;
}

/* A guest asked, through the test device, to be paused for a while. */
static void guest_pause_cycle(struct vm *vm)
{
	uint32_t ms = vm_pause_take_guest_request(&vm->pause);
	if (!ms)
		return;
	vm_pause_all(vm);
	struct timespec ts = { .tv_sec = ms / 1000, .tv_nsec = (long)(ms % 1000) * 1000000L };
	while (nanosleep(&ts, &ts) < 0 && errno == EINTR && !vm_stop_requested(&vm->stop))
		;
	vm_resume_all(vm);
}

void main_loop_run(struct vm *vm)
{
	sigset_t set;
	stop_signals(&set);
	int sig_fd = signalfd(-1, &set, SFD_CLOEXEC);
	int timer_fd = open_timer(vm->cfg->timeout_ms);
	struct pollfd fds[4 + CONTROL_MAX_CLIENTS + 1] = {
		{ .fd = vm->stop.event_fd, .events = POLLIN },
		{ .fd = sig_fd, .events = POLLIN },
		{ .fd = timer_fd, .events = POLLIN },
		{ .fd = vm->pause.event_fd, .events = POLLIN },
	};
	while (!vm_stop_requested(&vm->stop)) {
		/* Client slots change as clients come and go: list them afresh. */
		unsigned ncontrol = control_pollfds(&vm->control, &fds[4]);
		if (poll(fds, 4 + ncontrol, -1) < 0) {
			if (errno == EINTR)
				continue;
			vmm_log("poll: %s", strerror(errno));
			vm_stop_request(&vm->stop, STOP_VM_ERROR, EXIT_STATUS_VM_FAILURE);
			break;
		}
		if (fds[1].revents & POLLIN) {
			struct signalfd_siginfo si;
			if (read(sig_fd, &si, sizeof(si)) == (ssize_t)sizeof(si) &&
			    vm_stop_request(&vm->stop, STOP_SIGNAL,
					    EXIT_STATUS_SIGNAL_BASE + (int)si.ssi_signo))
				vmm_log("stopping the VM: %s", strsignal((int)si.ssi_signo));
		}
		if (fds[3].revents & POLLIN)
			guest_pause_cycle(vm);
		control_handle(&vm->control, &fds[4], ncontrol);
		if ((fds[2].revents & POLLIN) &&
		    vm_stop_request(&vm->stop, STOP_TIMEOUT, EXIT_STATUS_TIMEOUT))
			vmm_log("--timeout passed: stopping the VM");
	}
	if (sig_fd >= 0)
		close(sig_fd);
	if (timer_fd >= 0)
		close(timer_fd);
}
