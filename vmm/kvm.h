/* The /dev/kvm system handle: opening it, the API version, the capabilities
 * vmm relies on, and named ioctl wrappers whose errors say which call failed. */
#ifndef VMM_KVM_H
#define VMM_KVM_H

#include <stddef.h>

struct kvm {
	int fd;
	int run_size;    /* KVM_GET_VCPU_MMAP_SIZE */
	int max_vcpus;   /* KVM_CAP_MAX_VCPUS */
	int max_vcpu_id; /* KVM_CAP_MAX_VCPU_ID: APIC IDs must stay below it */
};

/* Open /dev/kvm and check the API version and every required capability.
 * 0, or -1 with a one-line reason in err (naming the missing capability). */
int kvm_open(struct kvm *kvm, const char *path, char *err, size_t errlen);
void kvm_close(struct kvm *kvm);

/* ioctl() that names the request on failure: returns the ioctl's result, or
 * -errno after printing "vmm: NAME: strerror" (the selftests' vm_ioctl tier). */
int kvm_ioctl_named(int fd, unsigned long request, void *arg, const char *name);
#define kvm_ioctl(fd, request, arg) kvm_ioctl_named((fd), (request), (arg), #request)

#endif
