/* Facts about the host machine vmm runs on. */
#ifndef VMM_HOST_H
#define VMM_HOST_H

#include <stdint.h>

/* Physical memory in bytes, or 0 if unknown. */
uint64_t host_memory_bytes(void);

#endif
