/* Named numeric results the guest reports through the test device. */
#ifndef VMM_RESULTS_H
#define VMM_RESULTS_H

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>

#include "../devices/testdev_abi.h"

#define RESULTS_MAX 256

struct result {
	char name[TESTDEV_NAME_MAX];
	uint64_t value;
};

struct results {
	pthread_mutex_t lock;
	struct result item[RESULTS_MAX];
	unsigned count;
	unsigned dropped; /* reports past RESULTS_MAX: counted, not stored */
};

void results_init(struct results *r);
void results_destroy(struct results *r);

/* Record name=value; a name reported again keeps its latest value. */
void results_add(struct results *r, const char *name, uint64_t value);

/* "vmm: result NAME=VALUE" lines, in report order. */
void results_print(struct results *r, FILE *out);

#endif
