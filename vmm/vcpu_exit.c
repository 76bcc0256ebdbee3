/* What a vCPU does with each KVM exit: I/O and MMIO go to the buses; fatal
 * exits stop the VM with one line and the vCPU's registers. */
#include "vcpu_exit.h"

#include <linux/kvm.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdint.h>

#include "exit_status.h"
#include "io_bus.h"
#include "log.h"
#include "vcpu.h"
#include "vcpu_dump.h"
#include "vm.h"

static enum vcpu_exit_action handle_io(struct vcpu *vcpu)
{
	struct kvm_run *run = vcpu->run;
	uint32_t size = run->io.size;
	uint64_t span = (uint64_t)size * run->io.count;
	/* KVM fills these, but they index our own mapping: check anyway. */
	if ((size != 1 && size != 2 && size != 4) || run->io.data_offset >= (uint64_t)vcpu->vm->kvm.run_size ||
	    span > (uint64_t)vcpu->vm->kvm.run_size - run->io.data_offset) {
		vmm_log("vcpu %u: malformed I/O exit (port 0x%x size %u count %u)", vcpu->index,
			run->io.port, size, run->io.count);
		return VCPU_EXIT_STOP;
	}
	uint8_t *data = (uint8_t *)run + run->io.data_offset;
	bool is_write = run->io.direction == KVM_EXIT_IO_OUT;
	/* String I/O (rep outsb/insb) arrives as `count` consecutive accesses. */
	for (uint32_t i = 0; i < run->io.count; i++)
		io_bus_access(&vcpu->vm->pio, run->io.port, data + (uint64_t)i * size, size, is_write);
	return VCPU_EXIT_CONTINUE;
}

static enum vcpu_exit_action handle_mmio(struct vcpu *vcpu)
{
	struct kvm_run *run = vcpu->run;
	if (run->mmio.len == 0 || run->mmio.len > sizeof(run->mmio.data))
		return VCPU_EXIT_CONTINUE;
	io_bus_access(&vcpu->vm->mmio, run->mmio.phys_addr, run->mmio.data, run->mmio.len,
		      run->mmio.is_write);
	return VCPU_EXIT_CONTINUE;
}

__attribute__((format(printf, 2, 3))) static enum vcpu_exit_action
fail(struct vcpu *vcpu, const char *fmt, ...)
{
	/* Only the first failure reports: a triple fault on one vCPU must not be
	 * buried under the others' "kicked" noise. */
	if (vm_stop_request(&vcpu->vm->stop, STOP_VM_ERROR, EXIT_STATUS_VM_FAILURE)) {
		char what[160];
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(what, sizeof(what), fmt, ap);
		va_end(ap);
		vmm_log("vcpu %u: %s", vcpu->index, what);
		vcpu_dump_registers(vcpu);
	}
	return VCPU_EXIT_STOP;
}

enum vcpu_exit_action vcpu_handle_exit(struct vcpu *vcpu)
{
	struct kvm_run *run = vcpu->run;
	switch (run->exit_reason) {
	case KVM_EXIT_IO:
		return handle_io(vcpu);
	case KVM_EXIT_MMIO:
		return handle_mmio(vcpu);
	case KVM_EXIT_INTR:
		return VCPU_EXIT_CONTINUE;
	case KVM_EXIT_SHUTDOWN:
		return fail(vcpu, "triple fault (KVM_EXIT_SHUTDOWN)");
	case KVM_EXIT_INTERNAL_ERROR:
		return fail(vcpu, "KVM internal error (suberror %u)", run->internal.suberror);
	case KVM_EXIT_FAIL_ENTRY:
		return fail(vcpu, "VM entry failed (hardware reason 0x%llx)",
			    (unsigned long long)run->fail_entry.hardware_entry_failure_reason);
	case KVM_EXIT_SYSTEM_EVENT:
		if (run->system_event.type == KVM_SYSTEM_EVENT_SHUTDOWN ||
		    run->system_event.type == KVM_SYSTEM_EVENT_RESET) {
			vm_stop_request(&vcpu->vm->stop, STOP_POWEROFF, EXIT_STATUS_OK);
			return VCPU_EXIT_STOP;
		}
		return fail(vcpu, "unhandled system event %u", run->system_event.type);
	default:
		return fail(vcpu, "unhandled exit reason %u", run->exit_reason);
	}
}
