/* Fuzz target: the KVM binary statistics parser (vmm/stats_schema.c): the
 * header and descriptors as read from a stats fd, then a data block of the
 * size the schema asks for, read through stats_value for every field.
 * Input: the blob (header, id, descriptors) read from offset 0 of the fd. */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../vmm/stats_schema.h"
#include "fuzz_util.h"

#define DATA_MAX (1u << 20)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* Exactly `size` bytes, so a read past the blob is caught. */
	uint8_t *blob = malloc(size ? size : 1);
	if (!blob)
		return 0;
	memcpy(blob, data, size);
	struct stats_schema s;
	char err[256];
	if (stats_schema_parse(blob, size, &s, err, sizeof(err)) == 0) {
		uint8_t *block = NULL;
		if (s.data_size <= DATA_MAX) {
			block = malloc(s.data_size ? s.data_size : 1);
			if (block)
				memset(block, 0x5a, s.data_size);
		}
		for (unsigned i = 0; i < s.count; i++) {
			const struct stats_field *f = &s.field[i];
			FUZZ_ASSERT(strnlen(f->name, STATS_NAME_MAX) < STATS_NAME_MAX);
			FUZZ_ASSERT((uint64_t)f->offset + (uint64_t)f->size * 8 <= s.data_size);
			const struct stats_field *g = stats_schema_find(&s, f->name);
			FUZZ_ASSERT(g != NULL && strcmp(g->name, f->name) == 0);
			uint64_t v;
			if (block && stats_value(&s, f, block, &v))
				FUZZ_ASSERT(v == 0x5a5a5a5a5a5a5a5aULL);
		}
		free(block);
		stats_schema_free(&s);
	} else {
		FUZZ_ASSERT(s.field == NULL && s.count == 0);
	}
	free(blob);
	return 0;
}
