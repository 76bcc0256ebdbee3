/* Reading a flattened device tree in place: the header, the structure
 * block's tokens (each bounds-checked on every read, though fdt_open has
 * already walked them all) and the strings block. Devicetree Specification
 * v0.4, chapter 5. */
#include "fdt.h"

#include <stddef.h>

#include "string.h"

enum { FDT_BEGIN_NODE = 1, FDT_END_NODE = 2, FDT_PROP = 3, FDT_NOP = 4, FDT_END = 9 };
#define FDT_BAD 0 /* not a token: malformed, or not inside the structure block */

/* 5.2: the header, ten big-endian 32-bit fields. */
enum {
	HDR_MAGIC = 0,
	HDR_TOTALSIZE = 4,
	HDR_OFF_STRUCT = 8,
	HDR_OFF_STRINGS = 12,
	HDR_VERSION = 20,
	HDR_LAST_COMP = 24,
	HDR_SIZE_STRINGS = 32,
	HDR_SIZE_STRUCT = 36
};

/* Is there a NUL in s[0, max)? */
static bool terminated(const uint8_t *s, uint32_t max)
{
	for (uint32_t i = 0; i < max; i++)
		if (!s[i])
			return true;
	return false;
}

/* The token at structure offset `off` and, in *next, the offset of the one
 * after it (5.4.1: every token is 4-byte aligned, and so is what follows a
 * node name or a property value). FDT_BAD if it runs off the block. */
static uint32_t tag_at(const struct fdt *f, int off, uint32_t *next)
{
	uint32_t size = f->struct_size;
	if (off < 0 || (uint32_t)off % 4 || size < 4 || (uint32_t)off > size - 4)
		return FDT_BAD;
	uint64_t end = (uint32_t)off + 4;
	const uint8_t *p = f->dt_struct + end;
	uint32_t tag = fdt32(p - 4);
	switch (tag) {
	case FDT_BEGIN_NODE: /* the unit name, NUL-terminated */
		if (!terminated(p, (uint32_t)(size - end)))
			return FDT_BAD;
		end += strlen((const char *)p) + 1;
		break;
	case FDT_PROP: { /* u32 len, u32 nameoff, len bytes of value */
		if (size - end < 8)
			return FDT_BAD;
		uint32_t len = fdt32(p), nameoff = fdt32(p + 4);
		end += 8;
		if (len > size - end || nameoff >= f->strings_size ||
		    !terminated(f->dt_strings + nameoff, f->strings_size - nameoff))
			return FDT_BAD;
		end += len;
		break;
	}
	case FDT_END_NODE:
	case FDT_NOP:
	case FDT_END:
		break;
	default:
		return FDT_BAD;
	}
	end = (end + 3) & ~3ULL;
	*next = end > size ? size : (uint32_t)end; /* a short tail: the next read fails */
	return tag;
}

const char *fdt_open(struct fdt *f, const void *blob, uint64_t size)
{
	const uint8_t *b = blob;
	if (size < FDT_HEADER_SIZE)
		return "smaller than an FDT header";
	if (fdt32(b + HDR_MAGIC) != FDT_MAGIC)
		return "no FDT magic 0xd00dfeed";
	uint32_t total = fdt32(b + HDR_TOTALSIZE);
	uint32_t off_struct = fdt32(b + HDR_OFF_STRUCT), off_strings = fdt32(b + HDR_OFF_STRINGS);
	uint32_t struct_size = fdt32(b + HDR_SIZE_STRUCT);
	uint32_t strings_size = fdt32(b + HDR_SIZE_STRINGS);
	if (total < FDT_HEADER_SIZE || total > size || total > INT32_MAX)
		return "totalsize is below the header's, beyond the blob, or 2 GiB or more";
	if (fdt32(b + HDR_VERSION) < 17 || fdt32(b + HDR_LAST_COMP) > 17)
		return "not compatible with version 17";
	if (off_struct < FDT_HEADER_SIZE || off_struct % 4 ||
	    (uint64_t)off_struct + struct_size > total)
		return "structure block misaligned or outside totalsize";
	if (off_strings < FDT_HEADER_SIZE || (uint64_t)off_strings + strings_size > total)
		return "strings block outside totalsize";
	*f = (struct fdt){ b, total, b + off_struct, b + off_strings, struct_size, strings_size };

	/* 5.4.2: NOPs anywhere, one root node, a node's properties before its
	 * children, balanced nesting, then FDT_END. */
	uint32_t off = 0, next, prev = FDT_END, depth = 0, roots = 0;
	for (;; off = next) {
		uint32_t tag = tag_at(f, (int)off, &next);
		switch (tag) {
		case FDT_BEGIN_NODE:
			if (!depth && (roots++ || *(f->dt_struct + off + 4)))
				return "not exactly one root node, with an empty name";
			depth++;
			break;
		case FDT_END_NODE:
			if (!depth--)
				return "FDT_END_NODE outside any node";
			break;
		case FDT_PROP:
			if (prev != FDT_BEGIN_NODE && prev != FDT_PROP)
				return "a property outside a node or after a child node";
			break;
		case FDT_NOP:
			continue;
		case FDT_END:
			return depth || !roots ? "FDT_END inside a node or before the root" : NULL;
		default:
			return "a bad token, or a name or property running off its block";
		}
		prev = tag;
	}
}

bool fdt_next_node(const struct fdt *f, int *node, int *depth)
{
	uint32_t off = 0, next;
	int level = 0;
	if (*node >= 0) { /* start inside *node, after its name */
		if (tag_at(f, *node, &off) != FDT_BEGIN_NODE)
			return false;
		level = *depth + 1;
	}
	for (;; off = next) {
		switch (tag_at(f, (int)off, &next)) {
		case FDT_BEGIN_NODE:
			*node = (int)off;
			*depth = level;
			return true;
		case FDT_END_NODE:
			if (--level <= 0)
				return false;
			break;
		case FDT_PROP:
		case FDT_NOP:
			break;
		default:
			return false;
		}
	}
}

const char *fdt_node_name(const struct fdt *f, int node)
{
	uint32_t next;
	if (tag_at(f, node, &next) != FDT_BEGIN_NODE)
		return "";
	return (const char *)f->dt_struct + node + 4;
}

static bool has_unit_address(const char *name)
{
	for (; *name; name++)
		if (*name == '@')
			return true;
	return false;
}

static bool name_matches(const char *node_name, const char *name)
{
	size_t n = strlen(name);
	if (strncmp(node_name, name, n))
		return false;
	return !node_name[n] || (node_name[n] == '@' && !has_unit_address(name));
}

int fdt_subnode(const struct fdt *f, int parent, const char *name)
{
	int node = parent, depth = 0;
	if (parent < 0)
		return -1;
	while (fdt_next_node(f, &node, &depth))
		if (depth == 1 && name_matches(fdt_node_name(f, node), name))
			return node;
	return -1;
}

int fdt_path(const struct fdt *f, const char *path)
{
	int node = -1, depth = 0;
	if (*path != '/' || !fdt_next_node(f, &node, &depth))
		return -1;
	while (*path && node >= 0) {
		char part[64];
		size_t n = 0;
		while (*path == '/')
			path++;
		while (*path && *path != '/' && n < sizeof(part) - 1)
			part[n++] = *path++;
		if (*path && *path != '/')
			return -1; /* a component longer than any we look for */
		part[n] = '\0';
		if (n)
			node = fdt_subnode(f, node, part);
	}
	return node;
}

int fdt_node_by_phandle(const struct fdt *f, uint32_t phandle)
{
	int node = -1, depth = 0;
	uint32_t v;
	if (phandle == 0 || phandle == 0xffffffff) /* 2.3.3: not valid phandles */
		return -1;
	while (fdt_next_node(f, &node, &depth))
		if (fdt_prop_u32(f, node, "phandle", &v) && v == phandle)
			return node;
	return -1;
}

const void *fdt_getprop(const struct fdt *f, int node, const char *name, uint32_t *len)
{
	uint32_t off, next;
	if (tag_at(f, node, &off) != FDT_BEGIN_NODE)
		return NULL;
	for (;; off = next) {
		uint32_t tag = tag_at(f, (int)off, &next);
		if (tag == FDT_NOP)
			continue;
		if (tag != FDT_PROP) /* properties come first: this node has no more */
			return NULL;
		const uint8_t *p = f->dt_struct + off;
		if (!strcmp((const char *)f->dt_strings + fdt32(p + 8), name)) {
			if (len)
				*len = fdt32(p + 4);
			return p + 12;
		}
	}
}

bool fdt_prop_u32(const struct fdt *f, int node, const char *name, uint32_t *value)
{
	uint32_t len;
	const void *p = fdt_getprop(f, node, name, &len);
	if (!p || len != 4)
		return false;
	*value = fdt32(p);
	return true;
}

const char *fdt_prop_string(const struct fdt *f, int node, const char *name)
{
	uint32_t len;
	const char *p = fdt_getprop(f, node, name, &len);
	if (!p || !len || strnlen(p, len) != len - 1)
		return NULL;
	return p;
}
