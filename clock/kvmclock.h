/* The kvmclock device: what the VMM does to the guest's clock on pause and
 * resume (QEMU's semantics). On pause, KVM_GET_CLOCK; where KVM does not
 * vouch for that value (no KVM_CLOCK_TSC_STABLE), or when forced, also the
 * guest's own view: each vCPU's MSR_KVM_SYSTEM_TIME(_NEW), read with
 * KVM_GET_MSRS at that moment (never cached: seed 001's bug), its pvclock
 * record read through the bounds-checked guest-memory helper. On resume,
 * KVM_SET_CLOCK with the later of the two, so the guest neither sees the
 * paused interval nor time going backwards. */
#ifndef CLOCK_KVMCLOCK_H
#define CLOCK_KVMCLOCK_H

#include <stdbool.h>
#include <stdint.h>

#include "../vmm/guest_mem.h"

/* KVM's MSRs (Documentation/virt/kvm/x86/msr.rst). */
#define MSR_KVM_SYSTEM_TIME 0x12
#define MSR_KVM_SYSTEM_TIME_NEW 0x4b564d01
#define MSR_IA32_TSC 0x10

#define KVMCLOCK_MAX_VCPUS 4096

struct kvmclock {
	int vm_fd;
	const int *vcpu_fds;
	unsigned nvcpus;
	const struct guest_mem *mem;
	bool force_guest_view; /* take the guest's view even when KVM says stable */
	bool have_saved;
	uint64_t saved_ns;     /* the clock to restore on resume */
	uint8_t *warned;       /* per vCPU: the bad-MSR warning was printed */
	uint64_t *stale_msr;   /* test build only: the first MSR value, kept */
};

int kvmclock_init(struct kvmclock *k, int vm_fd, const int *vcpu_fds, unsigned nvcpus,
		  const struct guest_mem *mem, bool force_guest_view);
void kvmclock_destroy(struct kvmclock *k);

/* Called with every vCPU parked. 0 or -errno. */
int kvmclock_pause(struct kvmclock *k);
int kvmclock_resume(struct kvmclock *k);

/* How an MSR_KVM_SYSTEM_TIME(_NEW) value decodes. Pure. */
enum kvmclock_msr_state {
	KVMCLOCK_MSR_DISABLED,   /* bit 0 clear */
	KVMCLOCK_MSR_MISALIGNED, /* not 4-byte aligned (msr.rst) */
	KVMCLOCK_MSR_CROSSES_PAGE, /* the 32-byte record would span two pages */
	KVMCLOCK_MSR_ENABLED,
};
enum kvmclock_msr_state kvmclock_decode_msr(uint64_t msr, uint64_t *gpa);

/* The guest's time from its pvclock record at `gpa` and its TSC, if the
 * record is in RAM and consistent. Pure but for reading guest memory. */
bool kvmclock_guest_time(const struct guest_mem *mem, uint64_t gpa, uint64_t guest_tsc,
			 uint64_t *ns);

#endif
