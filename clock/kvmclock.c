/* The kvmclock device: what the VMM does to the guest's clock on pause and
 * resume (see kvmclock.h for the rules and the bug they avoid). */
#include "kvmclock.h"

#include <errno.h>
#include <linux/kvm.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>

#include "../vmm/log.h"
#include "../vmm/test_fault.h"
#include "pvclock.h"

#define PVCLOCK_READ_TRIES 16
#define PAGE_SIZE_4K 4096ULL

enum kvmclock_msr_state kvmclock_decode_msr(uint64_t msr, uint64_t *gpa)
{
	if (!(msr & 1))
		return KVMCLOCK_MSR_DISABLED;
	*gpa = msr & ~1ULL;
	if (*gpa & 3)
		return KVMCLOCK_MSR_MISALIGNED;
	if ((*gpa & (PAGE_SIZE_4K - 1)) + sizeof(struct pvclock_vcpu_time_info) > PAGE_SIZE_4K)
		return KVMCLOCK_MSR_CROSSES_PAGE;
	return KVMCLOCK_MSR_ENABLED;
}

bool kvmclock_guest_time(const struct guest_mem *mem, uint64_t gpa, uint64_t guest_tsc,
			 uint64_t *ns)
{
	const volatile struct pvclock_vcpu_time_info *src =
		guest_mem_ptr(mem, gpa, sizeof(struct pvclock_vcpu_time_info));
	struct pvclock_vcpu_time_info r;
	if (!src || !pvclock_read(src, &r, PVCLOCK_READ_TRIES))
		return false;
	*ns = pvclock_time_at(&r, guest_tsc);
	return true;
}

int kvmclock_init(struct kvmclock *k, int vm_fd, const int *vcpu_fds, unsigned nvcpus,
		  const struct guest_mem *mem, bool force_guest_view)
{
	*k = (struct kvmclock){ .vm_fd = vm_fd, .vcpu_fds = vcpu_fds, .nvcpus = nvcpus,
				.mem = mem, .force_guest_view = force_guest_view };
	k->warned = calloc(nvcpus, 1);
	k->stale_msr = calloc(nvcpus, sizeof(*k->stale_msr));
	return k->warned && k->stale_msr ? 0 : -ENOMEM;
}

void kvmclock_destroy(struct kvmclock *k)
{
	free(k->warned);
	free(k->stale_msr);
	k->warned = NULL;
	k->stale_msr = NULL;
}

/* KVM_GET_MSRS for the two system-time MSRs and the TSC of one vCPU. */
static int read_clock_msrs(int vcpu_fd, uint64_t *new_msr, uint64_t *old_msr, uint64_t *tsc)
{
	/* struct kvm_msrs ends in a flexible array: room for 3 entries after it. */
	union {
		struct kvm_msrs msrs;
		uint8_t bytes[sizeof(struct kvm_msrs) + 3 * sizeof(struct kvm_msr_entry)];
	} m;
	memset(&m, 0, sizeof(m));
	struct kvm_msr_entry *e = m.msrs.entries;
	m.msrs.nmsrs = 3;
	e[0].index = MSR_KVM_SYSTEM_TIME_NEW;
	e[1].index = MSR_KVM_SYSTEM_TIME;
	e[2].index = MSR_IA32_TSC;
	int n = ioctl(vcpu_fd, KVM_GET_MSRS, &m);
	if (n != 3)
		return n < 0 ? -errno : -EIO;
	*new_msr = e[0].data;
	*old_msr = e[1].data;
	*tsc = e[2].data;
	return 0;
}

/* The MSR value to use: the one just read, except in the test build's
 * "stale" mode, which keeps the first value it ever saw (seed 001's bug). */
static uint64_t msr_to_use(struct kvmclock *k, unsigned vcpu, uint64_t fresh)
{
	if (!test_fault_active(TEST_FAULT_STALE_KVMCLOCK_MSR))
		return fresh;
	if (!(k->stale_msr[vcpu] & 1))
		k->stale_msr[vcpu] = fresh;
	return k->stale_msr[vcpu];
}

static void warn_once(struct kvmclock *k, unsigned vcpu, uint64_t msr, const char *why)
{
	if (k->warned[vcpu])
		return;
	k->warned[vcpu] = 1;
	vmm_log("vcpu %u: kvmclock MSR 0x%llx %s: treating its kvmclock as inactive", vcpu,
		(unsigned long long)msr, why);
}

/* The latest time any vCPU's own pvclock record shows, or 0. */
static uint64_t guest_view_ns(struct kvmclock *k)
{
	uint64_t latest = 0;
	for (unsigned i = 0; i < k->nvcpus; i++) {
		uint64_t new_msr = 0, old_msr = 0, tsc = 0, gpa = 0, ns = 0;
		if (read_clock_msrs(k->vcpu_fds[i], &new_msr, &old_msr, &tsc) < 0)
			continue;
		uint64_t msr = msr_to_use(k, i, (new_msr & 1) ? new_msr : old_msr);
		switch (kvmclock_decode_msr(msr, &gpa)) {
		case KVMCLOCK_MSR_DISABLED:
			continue;
		case KVMCLOCK_MSR_MISALIGNED:
			warn_once(k, i, msr, "is not 4-byte aligned");
			continue;
		case KVMCLOCK_MSR_CROSSES_PAGE:
			warn_once(k, i, msr, "puts the record across a page boundary");
			continue;
		case KVMCLOCK_MSR_ENABLED:
			break;
		}
		if (!kvmclock_guest_time(k->mem, gpa, tsc, &ns)) {
			warn_once(k, i, msr, "points outside guest RAM or at a record being written");
			continue;
		}
		if (ns > latest)
			latest = ns;
	}
	return latest;
}

int kvmclock_pause(struct kvmclock *k)
{
	struct kvm_clock_data data = { 0 };
	if (ioctl(k->vm_fd, KVM_GET_CLOCK, &data) < 0) {
		int e = errno; /* vmm_log may change errno */
		vmm_log("KVM_GET_CLOCK: %s", strerror(e));
		return -e;
	}
	k->saved_ns = data.clock;
	if (!(data.flags & KVM_CLOCK_TSC_STABLE) || k->force_guest_view) {
		uint64_t guest = guest_view_ns(k);
		if (guest > k->saved_ns)
			k->saved_ns = guest;
	}
	k->have_saved = true;
	return 0;
}

int kvmclock_resume(struct kvmclock *k)
{
	if (!k->have_saved)
		return 0;
	struct kvm_clock_data data = { .clock = k->saved_ns };
	if (ioctl(k->vm_fd, KVM_SET_CLOCK, &data) < 0) {
		int e = errno; /* vmm_log may change errno */
		vmm_log("KVM_SET_CLOCK: %s", strerror(e));
		return -e;
	}
	k->have_saved = false;
	return 0;
}
