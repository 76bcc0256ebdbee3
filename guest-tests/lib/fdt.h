/* A read-only reader of flattened device trees (Devicetree Specification
 * v0.4, chapter 5), checked against the blob's bounds at every step. */
#ifndef GUEST_FDT_H
#define GUEST_FDT_H

#include <stdbool.h>
#include <stdint.h>

#define FDT_MAGIC 0xd00dfeed
#define FDT_HEADER_SIZE 40 /* version 17 */

/* A blob fdt_open() accepted. Nodes are named by their offset in the
 * structure block (an int >= 0); -1 means none. */
struct fdt {
	const uint8_t *blob;
	uint32_t size; /* totalsize */
	const uint8_t *dt_struct, *dt_strings;
	uint32_t struct_size, strings_size;
};

/* Checks the header and walks the whole structure block once (tokens,
 * bounds, names, property-name offsets, nesting, one root, FDT_END); NULL
 * if the blob is sound, else what is wrong. `size` is what the blob may
 * span at most; its totalsize must fit in it. */
const char *fdt_open(struct fdt *f, const void *blob, uint64_t size);

/* The next node in document order after `node` (-1: the root). *depth is
 * the node's depth relative to the one iteration started from (the root
 * is at depth 0 when starting from -1). False when the walk leaves the
 * subtree of the starting node or the tree ends. */
bool fdt_next_node(const struct fdt *f, int *node, int *depth);

/* The node's name with its unit address ("cpu@1"; "" for the root). */
const char *fdt_node_name(const struct fdt *f, int node);

/* A child of `parent` by name: "cpu@1" matches exactly, "cpus" also matches
 * "cpus@..." when it has no '@' itself. -1 if none. */
int fdt_subnode(const struct fdt *f, int parent, const char *name);

/* An absolute path, "/" or "/cpus/cpu@0". -1 if none. */
int fdt_path(const struct fdt *f, const char *path);

/* The node whose "phandle" property is `phandle`; -1 if none. */
int fdt_node_by_phandle(const struct fdt *f, uint32_t phandle);

/* A property's value and length; NULL if the node has none by that name. */
const void *fdt_getprop(const struct fdt *f, int node, const char *name, uint32_t *len);

/* A property of exactly one cell (4 bytes), in host order. */
bool fdt_prop_u32(const struct fdt *f, int node, const char *name, uint32_t *value);

/* A property holding one NUL-terminated string; NULL otherwise. */
const char *fdt_prop_string(const struct fdt *f, int node, const char *name);

/* A big-endian 32-bit cell. */
static inline uint32_t fdt32(const void *p)
{
	const uint8_t *b = p;
	return (uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 | (uint32_t)b[2] << 8 | b[3];
}

#endif
