/* The machine model: what the guest will be told, decided once from the
 * config and the host's facts, before anything is created in KVM. */
#ifndef VMM_MACHINE_H
#define VMM_MACHINE_H

#include <linux/kvm.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../cpu/cpu_model.h"
#include "config.h"

struct machine {
	struct cpu_model cpu;
	uint64_t mem_size;
	bool l3_auto; /* the L3 choice was --l3-cache auto's */
};

/* 0, or -1 with a one-line reason (a usage error) in err. `host` is
 * KVM_GET_SUPPORTED_CPUID's table: the host's vendor and caches. */
int machine_build(struct machine *m, const struct vm_config *cfg, struct kvm_cpuid2 *host,
		  char *err, size_t errlen);

/* A one-line note when the guest's CPU model keeps --l3-cache off from
 * reaching a Linux guest's scheduler, or NULL. */
const char *machine_l3_caveat(const struct machine *m, struct kvm_cpuid2 *host);

#endif
