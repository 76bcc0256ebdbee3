/* The machine description as a flattened device tree (libfdt): CPUs with
 * their APIC IDs and positions, caches as the devicetree cache binding
 * describes them, memory. The test kernels' expected side of every check. */
#ifndef VMM_MACHINE_FDT_H
#define VMM_MACHINE_FDT_H

#include <stddef.h>

#include "guest_mem.h"
#include "machine.h"

/* Build the blob into buf. Returns its size, or -1 (buf too small). */
int machine_fdt_build(const struct machine *m, const struct guest_mem *mem, void *buf,
		      size_t bufsize);

#endif
