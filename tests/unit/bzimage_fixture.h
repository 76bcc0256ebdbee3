/* A synthetic bzImage for the bzimage and boot_linux tests: a crafted setup
 * header (Documentation/arch/x86/boot.rst's offsets, written byte by byte,
 * not through the kernel's structs) and a small patterned kernel. */
#ifndef TESTS_UNIT_BZIMAGE_FIXTURE_H
#define TESTS_UNIT_BZIMAGE_FIXTURE_H

#include <stddef.h>
#include <stdint.h>

/* Setup header fields: offset in the file (and in boot_params). */
#define BZ_SETUP_SECTS 0x1f1      /* u8 */
#define BZ_SYSSIZE 0x1f4          /* u32, 16-byte paragraphs */
#define BZ_BOOT_FLAG 0x1fe        /* u16, 0xaa55 */
#define BZ_JUMP 0x200             /* u16: 0xeb, displacement */
#define BZ_HEADER 0x202           /* "HdrS" */
#define BZ_VERSION 0x206          /* u16 */
#define BZ_TYPE_OF_LOADER 0x210   /* u8 */
#define BZ_LOADFLAGS 0x211        /* u8 */
#define BZ_CODE32_START 0x214     /* u32 */
#define BZ_RAMDISK_IMAGE 0x218    /* u32 */
#define BZ_RAMDISK_SIZE 0x21c     /* u32 */
#define BZ_CMD_LINE_PTR 0x228     /* u32 */
#define BZ_INITRD_ADDR_MAX 0x22c  /* u32 */
#define BZ_KERNEL_ALIGNMENT 0x230 /* u32 */
#define BZ_RELOCATABLE 0x234      /* u8 */
#define BZ_XLOADFLAGS 0x236       /* u16 */
#define BZ_CMDLINE_SIZE 0x238     /* u32 */
#define BZ_HARDWARE_SUBARCH 0x23c /* u32 */
#define BZ_SETUP_DATA 0x250       /* u64 */
#define BZ_PREF_ADDRESS 0x258     /* u64 */
#define BZ_INIT_SIZE 0x260        /* u32 */
#define BZ_HEADER_END 0x26c       /* 0x202 + 0x6a, protocol 2.15's header */

/* The fixture's values. */
#define FIX_SETUP_SECTS 4
#define FIX_SETUP_SIZE ((FIX_SETUP_SECTS + 1) * 512) /* boot sector + setup: 2560 */
#define FIX_KERNEL_SIZE 0x1000
#define FIX_IMAGE_SIZE (FIX_SETUP_SIZE + FIX_KERNEL_SIZE)
#define FIX_VERSION 0x020f            /* 2.15 */
#define FIX_ALIGNMENT 0x200000        /* 2 MiB */
#define FIX_PREF_ADDRESS 0x1000000    /* 16 MiB, as x86-64's LOAD_PHYSICAL_ADDR */
#define FIX_INIT_SIZE 0x400000        /* 4 MiB: runs in [16 MiB, 20 MiB) */
#define FIX_CMDLINE_SIZE 2047         /* COMMAND_LINE_SIZE 2048 - 1 */
#define FIX_INITRD_ADDR_MAX 0x7fffffff

void bz_put(uint8_t *image, size_t offset, uint64_t value, unsigned bytes);
uint64_t bz_get(const uint8_t *image, size_t offset, unsigned bytes);

/* Fill image[0, FIX_IMAGE_SIZE) with a bzImage vmm accepts: the kernel's
 * byte i is fix_kernel_byte(i). */
void bz_fixture(uint8_t *image);
uint8_t fix_kernel_byte(size_t i);

/* A malloc'd copy of the first `size` bytes (exactly that many, so a
 * sanitizer catches any read past them). */
uint8_t *bz_truncated(const uint8_t *image, size_t size);

#endif
