/* Linux bzImages (Documentation/arch/x86/boot.rst): the setup header, checked
 * against the file's real size before any field is used. Pure: no I/O, no
 * guest memory. */
#ifndef VMM_BZIMAGE_H
#define VMM_BZIMAGE_H

#include <asm/bootparam.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define BZIMAGE_HDR_OFFSET 0x1f1   /* the setup header, in the file and in boot_params */
#define BZIMAGE_MAGIC_OFFSET 0x202 /* "HdrS" */
/* 2.12 added xloadflags, the only place a kernel says it has a 64-bit entry. */
#define BZIMAGE_MIN_VERSION 0x020c
/* The 64-bit entry, from the start of the protected-mode kernel (XLF_KERNEL_64). */
#define BZIMAGE_ENTRY64_OFFSET 0x200

struct bzimage {
	struct setup_header hdr; /* the file's header; fields past its end read 0 */
	const uint8_t *hdr_bytes; /* the header as the file has it, for the zero page */
	size_t hdr_len;           /* its bytes from 0x1f1, up to what boot_params holds */
	const uint8_t *kernel;    /* the protected-mode kernel, inside the image */
	uint64_t kernel_size;     /* syssize * 16 */
};

/* True if the image has the setup header's "HdrS" magic at 0x202. */
bool bzimage_detect(const void *image, size_t size);

/* Check the header of a bzImage vmm can boot (64-bit entry, loaded high,
 * relocatable, every part inside the file). 0, or -1 with a one-line reason
 * in err. `out` points into `image`, which must outlive it. */
int bzimage_parse(const void *image, size_t size, struct bzimage *out, char *err, size_t errlen);

/* Where the kernel runs and decompresses when loaded at load_addr: from
 * max(load_addr aligned up to kernel_alignment, pref_address), init_size
 * bytes (boot.rst, init_size; the decompressor never goes below
 * pref_address, its LOAD_PHYSICAL_ADDR). False if that wraps. */
bool bzimage_runtime_range(const struct bzimage *k, uint64_t load_addr, uint64_t *start,
			   uint64_t *end);

#endif
