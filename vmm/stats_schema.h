/* KVM's binary statistics format (KVM_GET_STATS_FD, Documentation/virt/kvm/
 * api.rst 4.133): a header, descriptors naming each statistic, and a data
 * block of u64 values. Parsing is pure, so crafted blobs can test it. */
#ifndef VMM_STATS_SCHEMA_H
#define VMM_STATS_SCHEMA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define STATS_NAME_MAX 64

struct stats_field {
	char name[STATS_NAME_MAX];
	unsigned type;  /* KVM_STATS_TYPE_* >> shift: 0 cumulative, 1 instant, 2 peak, 3-4 histograms */
	unsigned unit;  /* KVM_STATS_UNIT_* >> shift */
	unsigned base;  /* KVM_STATS_BASE_* >> shift: 0 pow10, 1 pow2 */
	int exponent;
	uint32_t size;   /* number of u64 values (1 for a counter) */
	uint32_t offset; /* bytes from the data block's start */
	bool known_type; /* a type this version of vmm understands */
};

struct stats_schema {
	struct stats_field *field;
	unsigned count;
	uint32_t data_offset; /* in the fd */
	uint32_t data_size;   /* bytes of the data block vmm reads per sample */
};

/* Parse `len` bytes holding the header and every descriptor (read from
 * offset 0 of the stats fd). 0, or -1 with a reason in err: a descriptor or
 * data range outside what the header allows, a name not NUL-terminated. */
int stats_schema_parse(const void *blob, size_t len, struct stats_schema *s, char *err,
		       size_t errlen);
void stats_schema_free(struct stats_schema *s);

/* The field called `name`, or NULL. */
const struct stats_field *stats_schema_find(const struct stats_schema *s, const char *name);

/* A counter's value from one sample of the data block, or false if the
 * field lies outside it. */
bool stats_value(const struct stats_schema *s, const struct stats_field *f, const void *data,
		 uint64_t *value);

#endif
