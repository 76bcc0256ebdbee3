/* The contract between vmm and its guest test kernels: test-device ports and message layout.
 * Included by both sides, so it uses only fixed-width types and no libc. */
#ifndef VMM_TESTDEV_ABI_H
#define VMM_TESTDEV_ABI_H

#include <stdint.h>

/* QEMU's isa-debug-exit convention: a 32-bit OUT of v ends the VM and vmm
 * exits with status (v << 1) | 1, so a kernel that "exits 0" makes vmm exit 1
 * (as kvm-unit-tests expects from QEMU). */
#define TESTDEV_EXIT_PORT 0xf4

/* A 32-bit OUT of the guest-physical address of a struct testdev_msg (below
 * 4 GiB, 8-byte aligned) asks the VMM to act on it. One exit per message,
 * whatever the payload: this matters in the nested rig, where an exit costs
 * about a millisecond. */
#define TESTDEV_MSG_PORT 0xf8

enum testdev_op {
	TESTDEV_OP_RESULT = 1, /* report name=value; the VMM collects it */
	TESTDEV_OP_PARAM = 2,  /* ask for parameter `name`; the VMM fills value */
	TESTDEV_OP_PAUSE = 3,  /* pause the whole VM for `value` ms, then resume; the
				* OUT returns after the resume (name: any valid name) */
};

enum testdev_status {
	TESTDEV_OK = 0,
	TESTDEV_UNKNOWN = 1, /* no such parameter */
	TESTDEV_INVALID = 2, /* bad op, name not NUL-terminated or not [a-z0-9_.-] */
};

#define TESTDEV_NAME_MAX 48

struct testdev_msg {
	uint32_t op;     /* enum testdev_op, written by the guest */
	uint32_t status; /* enum testdev_status, written by the VMM */
	uint64_t value;  /* result value (guest) or parameter value (VMM) */
	char name[TESTDEV_NAME_MAX]; /* NUL-terminated */
};

_Static_assert(sizeof(struct testdev_msg) == 64, "testdev_msg is part of the ABI");

#endif
