/* Small helpers shared by the fuzz targets: a cursor over the input that
 * hands out fixed-width fields and yields zeros once the input runs out. */
#ifndef TESTS_FUZZ_UTIL_H
#define TESTS_FUZZ_UTIL_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

struct fuzz_in {
	const uint8_t *p;
	size_t left;
};

static inline uint64_t fuzz_take(struct fuzz_in *in, unsigned bytes)
{
	uint64_t v = 0;
	for (unsigned i = 0; i < bytes; i++) {
		uint8_t b = 0;
		if (in->left) {
			b = *in->p++;
			in->left--;
		}
		v |= (uint64_t)b << (8 * i);
	}
	return v;
}

/* Up to `want` bytes into dst; returns how many there were. */
static inline size_t fuzz_bytes(struct fuzz_in *in, void *dst, size_t want)
{
	size_t n = want < in->left ? want : in->left;
	memcpy(dst, in->p, n);
	in->p += n;
	in->left -= n;
	return n;
}

/* Stop the run loudly on a broken property (libFuzzer and the replay
 * driver both report a crash). */
#define FUZZ_ASSERT(cond)                                                           \
	do {                                                                        \
		if (!(cond)) {                                                      \
			__builtin_trap();                                           \
		}                                                                   \
	} while (0)

#endif
