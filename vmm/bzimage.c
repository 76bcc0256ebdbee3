/* Linux bzImages (Documentation/arch/x86/boot.rst): the setup header, checked
 * against the file's real size before any field is used. */
#include "bzimage.h"

#include <stdio.h>
#include <string.h>

#define SECTOR_SIZE 512
#define BOOT_FLAG 0xaa55
#define HDRS_MAGIC "HdrS"
/* The byte at 0x201 is the jump's displacement: the header ends at 0x202 + it. */
#define HDR_JUMP_DISP_OFFSET 0x201

/* The setup header's room in boot_params, from 0x1f1 up to 0x290: a newer
 * kernel's header may be longer than this struct, never longer than that. */
#define HDR_ROOM (offsetof(struct boot_params, edd_mbr_sig_buffer) - BZIMAGE_HDR_OFFSET)
/* The fields vmm reads, init_size the last of them. */
#define HDR_NEEDED (offsetof(struct setup_header, init_size) + sizeof(uint32_t))

_Static_assert(offsetof(struct boot_params, hdr) == BZIMAGE_HDR_OFFSET,
	       "the setup header sits at 0x1f1 of boot_params");

#define FAIL(...)                                   \
	do {                                        \
		snprintf(err, errlen, __VA_ARGS__); \
		return -1;                          \
	} while (0)

bool bzimage_detect(const void *image, size_t size)
{
	return size >= BZIMAGE_MAGIC_OFFSET + 4 &&
	       memcmp((const uint8_t *)image + BZIMAGE_MAGIC_OFFSET, HDRS_MAGIC, 4) == 0;
}

/* Copy the header the file has into a zeroed struct: whatever a short
 * header lacks then reads 0, and no field is read from outside the file. */
static int read_header(const uint8_t *image, size_t size, struct bzimage *out, char *err,
		       size_t errlen)
{
	if (!bzimage_detect(image, size))
		FAIL("not a bzImage: no \"HdrS\" magic at 0x202");
	size_t end = BZIMAGE_MAGIC_OFFSET + image[HDR_JUMP_DISP_OFFSET];
	if (end > size)
		FAIL("setup header (to 0x%zx) runs past the end of the file (%zu bytes): "
		     "truncated?",
		     end, size);
	size_t len = end - BZIMAGE_HDR_OFFSET;
	memset(&out->hdr, 0, sizeof(out->hdr));
	size_t known = len < sizeof(out->hdr) ? len : sizeof(out->hdr);
	memcpy(&out->hdr, image + BZIMAGE_HDR_OFFSET, known);
	out->hdr_bytes = image + BZIMAGE_HDR_OFFSET;
	out->hdr_len = len < HDR_ROOM ? len : HDR_ROOM;
	if (out->hdr.boot_flag != BOOT_FLAG)
		FAIL("boot_flag 0x%04x at 0x1fe is not 0xaa55: not a bzImage", out->hdr.boot_flag);
	uint16_t v = out->hdr.version;
	if (v < BZIMAGE_MIN_VERSION)
		FAIL("boot protocol %u.%02u is too old: vmm needs %u.%02u or later (64-bit entry)",
		     (unsigned)(v >> 8), (unsigned)(v & 0xff), (unsigned)(BZIMAGE_MIN_VERSION >> 8),
		     (unsigned)(BZIMAGE_MIN_VERSION & 0xff));
	if (len < HDR_NEEDED)
		FAIL("setup header ends at 0x%zx, before init_size (0x260): corrupt header", end);
	return 0;
}

/* What vmm's way of booting needs from the kernel. */
static int check_capabilities(const struct setup_header *h, char *err, size_t errlen)
{
	if (!(h->loadflags & LOADED_HIGH))
		FAIL("loadflags 0x%02x lack LOADED_HIGH: a zImage, not a bzImage", h->loadflags);
	if (!(h->xloadflags & XLF_KERNEL_64))
		FAIL("no 64-bit entry point (xloadflags 0x%x lack XLF_KERNEL_64)", h->xloadflags);
	/* vmm loads at 1 MiB, which only a relocatable kernel accepts. */
	if (!h->relocatable_kernel)
		FAIL("kernel is not relocatable (relocatable_kernel 0)");
	uint32_t a = h->kernel_alignment;
	if (a == 0 || (a & (a - 1)) != 0)
		FAIL("kernel_alignment 0x%x is not a power of two: corrupt header", a);
	return 0;
}

/* The real-mode setup code comes first, then the protected-mode kernel. */
static int locate_kernel(const uint8_t *image, size_t size, struct bzimage *out, char *err,
			 size_t errlen)
{
	const struct setup_header *h = &out->hdr;
	unsigned sects = h->setup_sects ? h->setup_sects : 4; /* 0 means 4 (boot.rst) */
	uint64_t setup_size = (uint64_t)(sects + 1) * SECTOR_SIZE; /* + the boot sector */
	if (setup_size > size)
		FAIL("setup code (%llu bytes, setup_sects %u) runs past the end of the file "
		     "(%zu bytes): truncated?",
		     (unsigned long long)setup_size, sects, size);
	uint64_t kernel_size = (uint64_t)h->syssize * 16; /* 16-byte paragraphs */
	if (kernel_size == 0)
		FAIL("syssize 0: no protected-mode kernel");
	if (kernel_size > size - setup_size)
		FAIL("protected-mode kernel (%llu bytes at offset %llu) runs past the end of the "
		     "file (%zu bytes): truncated?",
		     (unsigned long long)kernel_size, (unsigned long long)setup_size, size);
	if (h->init_size < kernel_size)
		FAIL("init_size 0x%x is smaller than the kernel's 0x%llx bytes: corrupt header",
		     h->init_size, (unsigned long long)kernel_size);
	out->kernel = image + setup_size;
	out->kernel_size = kernel_size;
	return 0;
}

int bzimage_parse(const void *image, size_t size, struct bzimage *out, char *err, size_t errlen)
{
	if (read_header(image, size, out, err, errlen) < 0 ||
	    check_capabilities(&out->hdr, err, errlen) < 0 ||
	    locate_kernel(image, size, out, err, errlen) < 0)
		return -1;
	return 0;
}

bool bzimage_runtime_range(const struct bzimage *k, uint64_t load_addr, uint64_t *start,
			   uint64_t *end)
{
	uint64_t mask = (uint64_t)k->hdr.kernel_alignment - 1; /* a power of two: parsed */
	uint64_t aligned;
	if (__builtin_add_overflow(load_addr, mask, &aligned))
		return false;
	aligned &= ~mask;
	*start = aligned > k->hdr.pref_address ? aligned : k->hdr.pref_address;
	return !__builtin_add_overflow(*start, (uint64_t)k->hdr.init_size, end);
}
