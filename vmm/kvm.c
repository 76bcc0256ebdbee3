/* The /dev/kvm system handle: opening it, the API version, the capabilities
 * vmm relies on, and named ioctl wrappers whose errors say which call failed. */
#include "kvm.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/kvm.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "log.h"

struct required_cap {
	int cap;
	const char *name;
};

#define CAP(c) { c, #c }
/* What the boot sequence and the run loop use; checked up front so a kernel
 * without one fails with its name instead of an obscure ioctl error later. */
static const struct required_cap required_caps[] = {
	CAP(KVM_CAP_USER_MEMORY),
	CAP(KVM_CAP_SET_TSS_ADDR),
	CAP(KVM_CAP_IRQCHIP),
	CAP(KVM_CAP_PIT2),
	CAP(KVM_CAP_EXT_CPUID),
	CAP(KVM_CAP_IMMEDIATE_EXIT),
	CAP(KVM_CAP_MP_STATE),
};

int kvm_ioctl_named(int fd, unsigned long request, void *arg, const char *name)
{
	int rc = ioctl(fd, request, arg);
	if (rc < 0) {
		int e = errno;
		vmm_log("%s: %s", name, strerror(e));
		return -e;
	}
	return rc;
}

int kvm_open(struct kvm *kvm, const char *path, char *err, size_t errlen)
{
	memset(kvm, 0, sizeof(*kvm));
	kvm->fd = open(path, O_RDWR | O_CLOEXEC);
	if (kvm->fd < 0) {
		snprintf(err, errlen, "%s: %s (is KVM available? run through tests/rig/run)", path,
			 strerror(errno));
		return -1;
	}
	int version = ioctl(kvm->fd, KVM_GET_API_VERSION, 0);
	if (version != KVM_API_VERSION) {
		snprintf(err, errlen, "%s: KVM API version %d, need %d", path, version, KVM_API_VERSION);
		goto fail;
	}
	for (size_t i = 0; i < sizeof(required_caps) / sizeof(required_caps[0]); i++) {
		if (ioctl(kvm->fd, KVM_CHECK_EXTENSION, required_caps[i].cap) <= 0) {
			snprintf(err, errlen, "%s: missing capability %s", path, required_caps[i].name);
			goto fail;
		}
	}
	kvm->run_size = ioctl(kvm->fd, KVM_GET_VCPU_MMAP_SIZE, 0);
	if (kvm->run_size < (int)sizeof(struct kvm_run)) {
		snprintf(err, errlen, "%s: KVM_GET_VCPU_MMAP_SIZE: %s", path, strerror(errno));
		goto fail;
	}
	/* KVM_CAP_MAX_VCPUS may be absent on old kernels: then NR_VCPUS is the limit. */
	kvm->max_vcpus = ioctl(kvm->fd, KVM_CHECK_EXTENSION, KVM_CAP_MAX_VCPUS);
	if (kvm->max_vcpus <= 0)
		kvm->max_vcpus = ioctl(kvm->fd, KVM_CHECK_EXTENSION, KVM_CAP_NR_VCPUS);
	kvm->max_vcpu_id = ioctl(kvm->fd, KVM_CHECK_EXTENSION, KVM_CAP_MAX_VCPU_ID);
	if (kvm->max_vcpu_id <= 0)
		kvm->max_vcpu_id = kvm->max_vcpus;
	return 0;
fail:
	close(kvm->fd);
	kvm->fd = -1;
	return -1;
}

void kvm_close(struct kvm *kvm)
{
	if (kvm->fd >= 0)
		close(kvm->fd);
	kvm->fd = -1;
}
