/* A synthetic bzImage for the bzimage and boot_linux tests. */
#include "bzimage_fixture.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>

void bz_put(uint8_t *image, size_t offset, uint64_t value, unsigned bytes)
{
	for (unsigned i = 0; i < bytes; i++)
		image[offset + i] = (uint8_t)(value >> (8 * i));
}

uint64_t bz_get(const uint8_t *image, size_t offset, unsigned bytes)
{
	uint64_t v = 0;
	for (unsigned i = 0; i < bytes; i++)
		v |= (uint64_t)image[offset + i] << (8 * i);
	return v;
}

uint8_t fix_kernel_byte(size_t i)
{
	return (uint8_t)(i * 7 + 1);
}

void bz_fixture(uint8_t *image)
{
	memset(image, 0, FIX_IMAGE_SIZE);
	bz_put(image, BZ_SETUP_SECTS, FIX_SETUP_SECTS, 1);
	bz_put(image, BZ_SYSSIZE, FIX_KERNEL_SIZE / 16, 4);
	bz_put(image, BZ_BOOT_FLAG, 0xaa55, 2);
	image[BZ_JUMP] = 0xeb; /* jmp short */
	image[BZ_JUMP + 1] = BZ_HEADER_END - 0x202;
	memcpy(image + BZ_HEADER, "HdrS", 4);
	bz_put(image, BZ_VERSION, FIX_VERSION, 2);
	bz_put(image, BZ_LOADFLAGS, 0x01, 1); /* LOADED_HIGH */
	bz_put(image, BZ_CODE32_START, 0x100000, 4);
	bz_put(image, BZ_INITRD_ADDR_MAX, FIX_INITRD_ADDR_MAX, 4);
	bz_put(image, BZ_KERNEL_ALIGNMENT, FIX_ALIGNMENT, 4);
	bz_put(image, BZ_RELOCATABLE, 1, 1);
	bz_put(image, BZ_XLOADFLAGS, 0x1, 2); /* XLF_KERNEL_64 */
	bz_put(image, BZ_CMDLINE_SIZE, FIX_CMDLINE_SIZE, 4);
	bz_put(image, BZ_PREF_ADDRESS, FIX_PREF_ADDRESS, 8);
	bz_put(image, BZ_INIT_SIZE, FIX_INIT_SIZE, 4);
	for (size_t i = 0; i < FIX_KERNEL_SIZE; i++)
		image[FIX_SETUP_SIZE + i] = fix_kernel_byte(i);
}

uint8_t *bz_truncated(const uint8_t *image, size_t size)
{
	uint8_t *copy = malloc(size ? size : 1);
	ck_assert_ptr_nonnull(copy);
	memcpy(copy, image, size);
	return copy;
}
