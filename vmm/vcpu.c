/* One vCPU: its KVM fd and run area, its thread, and its KVM_RUN loop. */
#include "vcpu.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "../cpu/cpuid.h"
#include "boot_linux.h"
#include "boot_pvh.h"
#include "exit_status.h"
#include "kvm.h"
#include "log.h"
#include "seccomp.h"
#include "test_fault.h"
#include "vcpu_exit.h"
#include "vm.h"

int vcpu_create(struct vm *vm, struct vcpu *vcpu, unsigned index)
{
	const struct cpu_model *model = &vm->machine.cpu;
	uint32_t apic_id = topology_apic_id(&model->topo, index);
	*vcpu = (struct vcpu){ .vm = vm, .index = index, .apic_id = apic_id, .fd = -1 };
	int fd = kvm_ioctl(vm->fd, KVM_CREATE_VCPU, (void *)(uintptr_t)apic_id);
	if (fd < 0)
		return fd;
	vcpu->fd = fd;
	void *run = mmap(NULL, (size_t)vm->kvm.run_size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (run == MAP_FAILED) {
		int e = errno;
		vmm_log("vcpu %u: mmap of kvm_run: %s", index, strerror(e));
		return -e;
	}
	vcpu->run = run;
	struct kvm_cpuid2 *cpuid = cpuid_for_vcpu(vm->host_cpuid, model, index);
	if (!cpuid)
		return -ENOMEM;
	int rc = kvm_ioctl(fd, KVM_SET_CPUID2, cpuid);
	free(cpuid);
	return rc < 0 ? rc : 0;
}

void vcpu_destroy(struct vcpu *vcpu)
{
	if (vcpu->run)
		munmap(vcpu->run, (size_t)vcpu->vm->kvm.run_size);
	if (vcpu->fd >= 0)
		close(vcpu->fd);
	vcpu->run = NULL;
	vcpu->fd = -1;
}

/* The entry state goes on top of the vCPU's reset sregs: what a boot
 * protocol does not name (LDT, IDT, APIC base) stays as KVM set it. */
static int set_entry_state(struct vcpu *vcpu, uint64_t pvh_entry, bool linux64)
{
	struct kvm_sregs sregs;
	struct kvm_regs regs;
	int rc = kvm_ioctl(vcpu->fd, KVM_GET_SREGS, &sregs);
	if (rc < 0)
		return rc;
	if (linux64)
		linux_entry_regs(&regs, &sregs);
	else
		pvh_entry_regs(pvh_entry, &regs, &sregs);
	rc = kvm_ioctl(vcpu->fd, KVM_SET_SREGS, &sregs);
	if (rc < 0)
		return rc;
	rc = kvm_ioctl(vcpu->fd, KVM_SET_REGS, &regs);
	return rc < 0 ? rc : 0;
}

int vcpu_set_pvh_entry(struct vcpu *vcpu, uint64_t entry)
{
	return set_entry_state(vcpu, entry, false);
}

int vcpu_set_linux_entry(struct vcpu *vcpu)
{
	return set_entry_state(vcpu, 0, true);
}

static void kick_handler(int sig)
{
	(void)sig; /* its only job is to interrupt KVM_RUN with EINTR */
}

int vcpu_signals_init(void)
{
	struct sigaction sa = { .sa_handler = kick_handler };
	sigemptyset(&sa.sa_mask);
	/* No SA_RESTART: KVM_RUN must return EINTR. */
	return sigaction(VCPU_KICK_SIGNAL, &sa, NULL) < 0 ? -errno : 0;
}

/* This thread's allowlist (seccomp.h), loaded before it first runs the
 * guest: the guest's device accesses run here. */
static int vcpu_seccomp(struct vcpu *vcpu)
{
	struct vm *vm = vcpu->vm;
	struct seccomp_vcpu_fds fds = {
		.vcpu_fd = vcpu->fd,
		.vm_fd = vm->fd,
		.stdin_fd = STDIN_FILENO,
		.write_fds = { STDOUT_FILENO, STDERR_FILENO, vm->stop.event_fd, vm->pause.event_fd,
			       vm->terminal.wake_fd },
		.nwrite_fds = 5,
	};
	if (seccomp_load_thread(seccomp_vcpu_filter(&fds), "vcpu") < 0)
		return -1;
	/* The test build's proof that the filter holds: a VM-creating ioctl
	 * on a vCPU fd, which no vCPU thread makes. */
	if (test_fault_active(TEST_FAULT_SECCOMP_VCPU))
		(void)!ioctl(vcpu->fd, KVM_CREATE_VM, 0);
	return 0;
}

static void *vcpu_thread(void *arg)
{
	struct vcpu *vcpu = arg;
	struct vm_stop *stop = &vcpu->vm->stop;
	sigset_t kick;
	sigemptyset(&kick);
	sigaddset(&kick, VCPU_KICK_SIGNAL);
	pthread_sigmask(SIG_UNBLOCK, &kick, NULL);
	if (!vcpu->vm->cfg->seccomp_off && vcpu_seccomp(vcpu) < 0) {
		vm_stop_request(stop, STOP_VM_ERROR, EXIT_STATUS_VM_FAILURE);
		return NULL;
	}

	for (;;) {
		/* Clear the kick before looking at the flags: a kick that lands
		 * after this store makes KVM_RUN return at once, and one before
		 * it came with a flag this thread is about to see. */
		__atomic_store_n(&vcpu->run->immediate_exit, 0, __ATOMIC_SEQ_CST);
		if (vm_stop_requested(stop))
			break;
		if (vm_pause_requested(&vcpu->vm->pause)) {
			vm_pause_park(&vcpu->vm->pause);
			continue;
		}
		if (ioctl(vcpu->fd, KVM_RUN, 0) < 0) {
			if (errno == EINTR || errno == EAGAIN)
				continue; /* kicked: the flags decide */
			vmm_log("vcpu %u: KVM_RUN: %s", vcpu->index, strerror(errno));
			vm_stop_request(stop, STOP_VM_ERROR, EXIT_STATUS_VM_FAILURE);
			break;
		}
		if (vcpu_handle_exit(vcpu) == VCPU_EXIT_STOP)
			break;
	}
	return NULL;
}

int vcpu_start(struct vcpu *vcpu)
{
	int rc = pthread_create(&vcpu->thread, NULL, vcpu_thread, vcpu);
	if (rc) {
		vmm_log("vcpu %u: pthread_create: %s", vcpu->index, strerror(rc));
		return -rc;
	}
	vcpu->thread_started = true;
	return 0;
}

void vcpu_kick(struct vcpu *vcpu)
{
	if (!vcpu->thread_started)
		return;
	/* immediate_exit covers the window before the thread enters KVM_RUN;
	 * the signal covers a thread already inside it. */
	__atomic_store_n(&vcpu->run->immediate_exit, 1, __ATOMIC_SEQ_CST);
	pthread_kill(vcpu->thread, VCPU_KICK_SIGNAL);
}

void vcpu_join(struct vcpu *vcpu)
{
	if (vcpu->thread_started)
		pthread_join(vcpu->thread, NULL);
	vcpu->thread_started = false;
}
