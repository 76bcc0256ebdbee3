/* Fuzz target: the bzImage parser (vmm/bzimage.c) and the Linux boot loader
 * (vmm/boot_linux.c, linux_load) with a fuzzed RAM size, initrd size and
 * command line.
 * Input:
 *   [0..2)   u16 LE: guest RAM = (v % 256 + 1) * 64 KiB (64 KiB .. 16 MiB)
 *   [2..10)  u64 LE: initrd size (any value: its bytes come from a static
 *            buffer as large as the biggest RAM, so a size linux_load wrongly
 *            accepts reads past it)
 *   [10]     flags: bit 0 an initrd, bit 1 a command line, bit 2 an RSDP
 *   [11..13) u16 LE: command line length (capped to what follows); the
 *            command line ends at its first NUL if it has one
 *   then the command line, then the bzImage itself (the rest). */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

#include "../../vmm/boot_linux.h"
#include "../../vmm/bzimage.h"
#include "../../vmm/guest_mem.h"
#include "../../vmm/layout.h"
#include "fuzz_util.h"

#define RAM_MAX (16u << 20)
#define UNIT (64u << 10)

static uint8_t ram[RAM_MAX];
static uint8_t initrd_bytes[RAM_MAX];

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_in in = { data, size };
	uint64_t ram_size = (fuzz_take(&in, 2) % (RAM_MAX / UNIT) + 1) * UNIT;
	uint64_t initrd_size = fuzz_take(&in, 8);
	unsigned flags = (unsigned)fuzz_take(&in, 1);
	size_t cmdline_len = (size_t)fuzz_take(&in, 2);
	if (cmdline_len > in.left)
		cmdline_len = in.left;
	char *cmdline = malloc(cmdline_len + 1);
	if (!cmdline)
		return 0;
	fuzz_bytes(&in, cmdline, cmdline_len);
	cmdline[cmdline_len] = '\0';

	/* The image in its own allocation of exactly its size. */
	uint8_t *image = malloc(in.left ? in.left : 1);
	size_t image_size = fuzz_bytes(&in, image, in.left);

	struct bzimage k;
	char err[256];
	bool detected = image && bzimage_detect(image, image_size);
	if (image && bzimage_parse(image, image_size, &k, err, sizeof(err)) == 0) {
		FUZZ_ASSERT(detected);
		FUZZ_ASSERT(k.kernel >= image && k.kernel_size <= image_size &&
			    (size_t)(k.kernel - image) <= image_size - k.kernel_size);
		FUZZ_ASSERT(k.hdr_bytes >= image && k.hdr_len <= image_size &&
			    (size_t)(k.hdr_bytes - image) <= image_size - k.hdr_len);
		uint64_t start, end;
		if (bzimage_runtime_range(&k, LINUX_KERNEL_ADDR, &start, &end))
			FUZZ_ASSERT(start <= end);

		struct guest_mem mem;
		guest_mem_layout(&mem, ram, ram_size);
		struct linux_boot boot = {
			.kernel = &k,
			.cmdline = (flags & 2) ? cmdline : NULL,
			.initrd = (flags & 1) ? initrd_bytes : NULL,
			.initrd_size = initrd_size,
			.acpi_rsdp_addr = (flags & 4) ? 0xe0000 : 0,
		};
		enum linux_fault fault = linux_load(&mem, &boot, err, sizeof(err));
		if (fault == LINUX_FAULT_NONE && boot.initrd) {
			FUZZ_ASSERT(initrd_size <= ram_size);
			uint64_t addr;
			FUZZ_ASSERT(linux_initrd_addr(&mem, &k, initrd_size, &addr, err,
						      sizeof(err)) == 0);
			FUZZ_ASSERT(addr % LINUX_INITRD_ALIGN == 0);
			FUZZ_ASSERT(guest_mem_ptr(&mem, addr, initrd_size) != NULL);
		}
	}
	free(image);
	free(cmdline);
	return 0;
}
