/* What a vCPU does with each KVM exit: I/O and MMIO go to the buses; fatal
 * exits stop the VM with one line and the vCPU's registers. */
#ifndef VMM_VCPU_EXIT_H
#define VMM_VCPU_EXIT_H

struct vcpu;

enum vcpu_exit_action { VCPU_EXIT_CONTINUE, VCPU_EXIT_STOP };

enum vcpu_exit_action vcpu_handle_exit(struct vcpu *vcpu);

#endif
