/* One vCPU: its KVM fd and run area, its thread, and its KVM_RUN loop. */
#ifndef VMM_VCPU_H
#define VMM_VCPU_H

#include <linux/kvm.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

struct vm;

struct vcpu {
	struct vm *vm;
	unsigned index;
	uint32_t apic_id; /* also its KVM vcpu id */
	int fd;
	struct kvm_run *run;
	pthread_t thread;
	bool thread_started;
};

/* KVM_CREATE_VCPU with its APIC ID as the vcpu id, map its run area, set
 * its CPUID from the machine's CPU model. 0 or -errno. */
int vcpu_create(struct vm *vm, struct vcpu *vcpu, unsigned index);
void vcpu_destroy(struct vcpu *vcpu);

/* Put the BSP at the kernel's PVH entry. 0 or -errno. */
int vcpu_set_pvh_entry(struct vcpu *vcpu, uint64_t entry);

/* Put the BSP at a bzImage's 64-bit entry (boot_linux.c's state; the zero
 * page, GDT and page tables must be in guest memory). 0 or -errno. */
int vcpu_set_linux_entry(struct vcpu *vcpu);

/* Start the vCPU's thread; it runs until the VM stops. 0 or -errno. */
int vcpu_start(struct vcpu *vcpu);

/* Make the vCPU leave KVM_RUN now (immediate_exit plus a signal). */
void vcpu_kick(struct vcpu *vcpu);
void vcpu_join(struct vcpu *vcpu);

/* The signal used to kick vCPU threads; installed once by vcpu_signals_init(). */
#define VCPU_KICK_SIGNAL SIGUSR1
int vcpu_signals_init(void);

#endif
