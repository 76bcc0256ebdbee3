/* Fuzz target: the ELF loader (vmm/elf_loader.c, elf_load, through libelf).
 * Input: the whole kernel image. Guest RAM is a fixed 2 MiB laid out by
 * guest_mem_layout over a static buffer. Checked besides the sanitizers:
 * the image is never written (libFuzzer compares it after each run), a
 * load that succeeds has its entry point and every byte it loaded inside
 * guest RAM. */
#include <stdbool.h>
#include <stdint.h>

#include "../../vmm/elf_loader.h"
#include "../../vmm/guest_mem.h"
#include "fuzz_util.h"

#define RAM_SIZE (2u << 20)

static uint8_t ram[RAM_SIZE];

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct guest_mem mem;
	static bool ready;
	if (!ready)
		ready = guest_mem_layout(&mem, ram, RAM_SIZE);
	struct kernel_entry out = { 0, 0 };
	char err[256];
	if (elf_load(data, size, &mem, &out, err, sizeof(err)) == 0) {
		FUZZ_ASSERT(out.load_end <= RAM_SIZE);
		FUZZ_ASSERT(out.entry < out.load_end);
		FUZZ_ASSERT(guest_mem_ptr(&mem, out.entry, 1) != NULL);
	} else {
		FUZZ_ASSERT(memchr(err, '\0', sizeof(err)) != NULL && err[0] != '\0');
	}
	return 0;
}
