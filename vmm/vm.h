/* A virtual machine: everything one run owns, built by one linear boot
 * sequence (config -> KVM VM -> memory -> devices -> kernel -> vCPUs) and
 * torn down in reverse. */
#ifndef VMM_VM_H
#define VMM_VM_H

#include <linux/kvm.h>

#include "../clock/kvmclock.h"
#include "../devices/acpi_pm.h"
#include "../devices/i8042.h"
#include "../devices/serial.h"
#include "../devices/testdev.h"
#include "config.h"
#include "console.h"
#include "control.h"
#include "guest_mem.h"
#include "io_bus.h"
#include "kvm.h"
#include "machine.h"
#include "results.h"
#include "stats.h"
#include "terminal.h"
#include "vcpu.h"
#include "vm_pause.h"
#include "vm_stop.h"

struct vm {
	const struct vm_config *cfg;
	struct machine machine;
	struct kvm_cpuid2 *host_cpuid; /* KVM_GET_SUPPORTED_CPUID */
	uint32_t fdt_size;
	struct kvm kvm;
	int fd;
	struct guest_mem mem;
	struct io_bus pio;
	struct io_bus mmio;
	struct vm_stop stop;
	struct vm_pause pause;
	struct kvmclock kvmclock;
	bool paused; /* by the control socket; main thread only */
	struct vm_stats stats;
	bool have_stats; /* KVM's statistics are being sampled */
	struct control control;
	int *vcpu_fds; /* for the clock, which reads every vCPU's MSRs */
	struct console console;
	struct results results;
	struct serial serial;
	struct terminal terminal; /* stdin, the serial console's input */
	struct i8042 i8042;
	struct acpi_pm acpi_pm; /* the PM1 registers: S5 power-off */
	struct testdev testdev;
	struct vcpu *vcpus;
	unsigned nvcpus;
	/* How far vm_create got, so vm_destroy undoes exactly that. */
	unsigned built;
};

/* Build the VM. Returns 0, or an exit status (EXIT_STATUS_USAGE for bad
 * input, EXIT_STATUS_VM_FAILURE otherwise) after printing one line. On
 * failure the caller still calls vm_destroy(). */
int vm_create(struct vm *vm, const struct vm_config *cfg);

/* Run until the VM stops; returns vmm's exit status. */
int vm_run(struct vm *vm);

/* Main thread: park every vCPU and save the guest's clock; and back. */
int vm_pause_all(struct vm *vm);
int vm_resume_all(struct vm *vm);

void vm_destroy(struct vm *vm);

#endif
