/* The register dump printed after a fatal exit. */
#include "vcpu_dump.h"

#include <linux/kvm.h>
#include <stdio.h>
#include <sys/ioctl.h>

#include "vcpu.h"

void vcpu_dump_registers(const struct vcpu *vcpu)
{
	struct kvm_regs r;
	struct kvm_sregs s;
	if (ioctl(vcpu->fd, KVM_GET_REGS, &r) < 0 || ioctl(vcpu->fd, KVM_GET_SREGS, &s) < 0) {
		fprintf(stderr, "  (registers unavailable)\n");
		return;
	}
	fprintf(stderr,
		"  rip=%016llx rsp=%016llx rflags=%016llx\n"
		"  rax=%016llx rbx=%016llx rcx=%016llx rdx=%016llx\n"
		"  rsi=%016llx rdi=%016llx rbp=%016llx\n"
		"  cr0=%016llx cr2=%016llx cr3=%016llx cr4=%016llx efer=%016llx\n"
		"  cs=%04x base=%016llx l=%u db=%u  ss=%04x  apic_base=%016llx\n",
		r.rip, r.rsp, r.rflags, r.rax, r.rbx, r.rcx, r.rdx, r.rsi, r.rdi, r.rbp, s.cr0, s.cr2,
		s.cr3, s.cr4, s.efer, s.cs.selector, s.cs.base, s.cs.l, s.cs.db, s.ss.selector,
		s.apic_base);
	/* SVM: "the VMCB is undefined after a SHUTDOWN intercept", so KVM
	 * re-initializes the vCPU before reporting the exit. */
	if (r.rip == 0xfff0 && s.cs.selector == 0xf000)
		fprintf(stderr, "  (a vCPU's reset state: on AMD, KVM re-initializes a vCPU that shut "
				"down, so its registers at the fault are gone)\n");
}
