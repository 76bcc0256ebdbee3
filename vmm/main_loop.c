/* The main thread while the VM runs: waits for a stop request, a signal
 * (SIGINT/SIGTERM through a signalfd), the --timeout (a timerfd), and host
 * input for the UART (stdin, read only as fast as the guest takes it). */
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
#include "terminal.h"
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

/* The pollfd slots: fixed ones, then the control socket's. */
enum {
	FD_STOP,
	FD_SIGNAL,
	FD_TIMER,
	FD_PAUSE,
	FD_INPUT,      /* stdin, or -1 while the guest cannot take input */
	FD_INPUT_WAKE, /* it may take input again */
	FD_CONTROL,
	FD_MAX = FD_CONTROL + CONTROL_MAX_CLIENTS + 1,
};

/* Host input already read goes to the UART as far as it has room. */
static void input_deliver(struct vm *vm)
{
	struct terminal *t = &vm->terminal;
	if (terminal_has_pending(t))
		t->off += serial_receive(&vm->serial, t->pending + t->off, t->len - t->off);
}

/* Back-pressure: stdin is read only when nothing read waits and the UART
 * can take more; otherwise what the guest has not taken stays in the pipe
 * or terminal, not in vmm. Input that is not a person at a raw terminal (a
 * pipe, a file, a script's loop that vmm merely inherited) also waits until
 * the guest's driver takes input (its receive interrupt on): a guest that
 * never reads, as the test kernels, consumes none of it, and none is lost
 * to the FIFO resets of the driver's probe. A person gets the escapes at
 * once, guest ready or not. */
static int input_fd(struct vm *vm)
{
	struct terminal *t = &vm->terminal;
	if (t->in_fd < 0 || terminal_has_pending(t) || serial_rx_room(&vm->serial) == 0)
		return -1;
	if (!t->raw && !serial_rx_wanted(&vm->serial))
		return -1;
	return t->in_fd;
}

static void input_read(struct vm *vm)
{
	switch (terminal_read(&vm->terminal)) {
	case ESCAPE_QUIT:
		if (vm_stop_request(&vm->stop, STOP_QUIT, EXIT_STATUS_OK))
			vmm_log("quit from the console");
		break;
	case ESCAPE_HELP:
		vmm_log("%s", terminal_escape_help);
		break;
	default:
		break;
	}
	input_deliver(vm);
}

static void handle_signal(struct vm *vm, int sig_fd)
{
	struct signalfd_siginfo si;
	if (read(sig_fd, &si, sizeof(si)) == (ssize_t)sizeof(si) &&
	    vm_stop_request(&vm->stop, STOP_SIGNAL, EXIT_STATUS_SIGNAL_BASE + (int)si.ssi_signo))
		vmm_log("stopping the VM: %s", strsignal((int)si.ssi_signo));
}

void main_loop_run(struct vm *vm)
{
	sigset_t set;
	stop_signals(&set);
	int sig_fd = signalfd(-1, &set, SFD_CLOEXEC);
	int timer_fd = open_timer(vm->cfg->timeout_ms);
	struct pollfd fds[FD_MAX] = {
		[FD_STOP] = { .fd = vm->stop.event_fd, .events = POLLIN },
		[FD_SIGNAL] = { .fd = sig_fd, .events = POLLIN },
		[FD_TIMER] = { .fd = timer_fd, .events = POLLIN },
		[FD_PAUSE] = { .fd = vm->pause.event_fd, .events = POLLIN },
		[FD_INPUT] = { .fd = -1, .events = POLLIN },
		[FD_INPUT_WAKE] = { .fd = vm->terminal.wake_fd, .events = POLLIN },
	};
	while (!vm_stop_requested(&vm->stop)) {
		input_deliver(vm);
		fds[FD_INPUT].fd = input_fd(vm);
		/* Client slots change as clients come and go: list them afresh. */
		unsigned ncontrol = control_pollfds(&vm->control, &fds[FD_CONTROL]);
		int ready = poll(fds, FD_CONTROL + ncontrol, -1);
		if (ready < 0) {
			if (errno == EINTR)
				continue;
			vmm_log("poll: %s", strerror(errno));
			vm_stop_request(&vm->stop, STOP_VM_ERROR, EXIT_STATUS_VM_FAILURE);
			break;
		}
		if (fds[FD_SIGNAL].revents & POLLIN)
			handle_signal(vm, sig_fd);
		if (fds[FD_PAUSE].revents & POLLIN)
			guest_pause_cycle(vm);
		if (fds[FD_INPUT_WAKE].revents & POLLIN)
			terminal_clear_wake(&vm->terminal);
		/* Any event: data, end of file, a hang-up or an error, which the
		 * read then sees (and stops reading for good on). */
		if (fds[FD_INPUT].fd >= 0 && fds[FD_INPUT].revents)
			input_read(vm);
		control_handle(&vm->control, &fds[FD_CONTROL], ncontrol);
		if ((fds[FD_TIMER].revents & POLLIN) &&
		    vm_stop_request(&vm->stop, STOP_TIMEOUT, EXIT_STATUS_TIMEOUT))
			vmm_log("--timeout passed: stopping the VM");
	}
	if (sig_fd >= 0)
		close(sig_fd);
	if (timer_fd >= 0)
		close(timer_fd);
}
