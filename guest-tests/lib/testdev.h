/* The guest side of devices/testdev_abi.h: exit, named results, named
 * parameters. */
#ifndef GUEST_TESTDEV_H
#define GUEST_TESTDEV_H

#include <stdint.h>

#include "testdev_abi.h"

/* The status of a message nobody answered: no VMM behind port 0xf8 (QEMU). */
#define TESTDEV_NO_VMM 0xffffffffu

/* 32-bit OUT of code to TESTDEV_EXIT_PORT: the VMM exits with (code << 1) | 1. */
void __attribute__((noreturn)) exit(int code);

/* Reports name=value to the VMM; returns the status it answered
 * (enum testdev_status) or TESTDEV_NO_VMM. Also printed on the console. */
uint32_t testdev_result(const char *name, uint64_t value);

/* Parameter `name`: from the VMM, else from a name=value word of the boot
 * command line, else def. Prints where it came from. */
uint64_t testdev_param(const char *name, uint64_t def);

#endif
