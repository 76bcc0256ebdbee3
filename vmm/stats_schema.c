/* KVM's binary statistics format (KVM_GET_STATS_FD): header, descriptors,
 * data block. Parsing is pure; every offset is checked against the blob. */
#include "stats_schema.h"

#include <linux/kvm.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FAIL(...)                                  \
	do {                                       \
		snprintf(err, errlen, __VA_ARGS__); \
		stats_schema_free(s);              \
		return -1;                         \
	} while (0)

/* The largest header KVM could claim that vmm will believe. */
#define STATS_MAX_DESCS 4096
#define STATS_MAX_NAME_SIZE 4096

int stats_schema_parse(const void *blob, size_t len, struct stats_schema *s, char *err,
		       size_t errlen)
{
	memset(s, 0, sizeof(*s));
	struct kvm_stats_header h;
	if (len < sizeof(h))
		FAIL("stats: %zu bytes, shorter than the header", len);
	memcpy(&h, blob, sizeof(h));
	if (h.num_desc > STATS_MAX_DESCS || h.name_size == 0 || h.name_size > STATS_MAX_NAME_SIZE)
		FAIL("stats: implausible header (%u descriptors, names of %u bytes)", h.num_desc,
		     h.name_size);
	uint64_t desc_size = sizeof(struct kvm_stats_desc) + (uint64_t)h.name_size;
	if (h.desc_offset > len || h.num_desc * desc_size > len - h.desc_offset)
		FAIL("stats: descriptors past the end (%u at offset %u)", h.num_desc, h.desc_offset);
	s->field = calloc(h.num_desc ? h.num_desc : 1, sizeof(*s->field));
	if (!s->field)
		FAIL("stats: out of memory");
	s->data_offset = h.data_offset;
	const uint8_t *d = (const uint8_t *)blob + h.desc_offset;
	for (uint32_t i = 0; i < h.num_desc; i++, d += desc_size) {
		struct kvm_stats_desc desc;
		memcpy(&desc, d, sizeof(desc));
		const char *name = (const char *)d + sizeof(desc);
		size_t name_len = strnlen(name, h.name_size);
		if (name_len == h.name_size)
			FAIL("stats: descriptor %u has no NUL-terminated name", i);
		struct stats_field *f = &s->field[s->count++];
		snprintf(f->name, sizeof(f->name), "%.*s", (int)name_len, name);
		f->type = (desc.flags & KVM_STATS_TYPE_MASK) >> KVM_STATS_TYPE_SHIFT;
		f->unit = (desc.flags & KVM_STATS_UNIT_MASK) >> KVM_STATS_UNIT_SHIFT;
		f->base = (desc.flags & KVM_STATS_BASE_MASK) >> KVM_STATS_BASE_SHIFT;
		f->exponent = desc.exponent;
		f->size = desc.size;
		f->offset = desc.offset;
		f->known_type = f->type <= (KVM_STATS_TYPE_MAX >> KVM_STATS_TYPE_SHIFT);
		uint64_t end = (uint64_t)desc.offset + (uint64_t)desc.size * sizeof(uint64_t);
		if (end > UINT32_MAX)
			FAIL("stats: %s's values end past 4 GiB", f->name);
		if (end > s->data_size)
			s->data_size = (uint32_t)end;
	}
	return 0;
}

void stats_schema_free(struct stats_schema *s)
{
	free(s->field);
	s->field = NULL;
	s->count = 0;
}

const struct stats_field *stats_schema_find(const struct stats_schema *s, const char *name)
{
	for (unsigned i = 0; i < s->count; i++)
		if (strcmp(s->field[i].name, name) == 0)
			return &s->field[i];
	return NULL;
}

bool stats_value(const struct stats_schema *s, const struct stats_field *f, const void *data,
		 uint64_t *value)
{
	if (!f || f->size < 1 || (uint64_t)f->offset + sizeof(uint64_t) > s->data_size)
		return false;
	memcpy(value, (const uint8_t *)data + f->offset, sizeof(*value));
	return true;
}
