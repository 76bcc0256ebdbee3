/* pvclock: the TSC-delta scaling, the time at a TSC, and the version-checked
 * read of a record (Linux's arch/x86/include/asm/pvclock.h and
 * pvclock-abi.h; KVM's Documentation/virt/kvm/x86/msr.rst). Every expected
 * value below is worked out by hand from the definition
 *     ns = ((delta << shift, or delta >> -shift) * mul) >> 32
 * with the product taken exactly (96 bits). */
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "../../clock/pvclock.h"
#include "suites.h"

/* Not yet in suites.h: declared here until it is. */
Suite *pvclock_suite(void);

#define TWO_POW_31 0x80000000u /* mul = 2^31 / 2^32 = x0.5 */

/* --- pvclock_scale_delta ------------------------------------------------ */

START_TEST(test_scale_shift0)
{
	/* 1000 * 2^31 / 2^32 = 500. */
	ck_assert_uint_eq(pvclock_scale_delta(1000, TWO_POW_31, 0), 500);
	/* 1001 * 0.5 = 500.5, truncated by the >> 32 to 500. */
	ck_assert_uint_eq(pvclock_scale_delta(1001, TWO_POW_31, 0), 500);
	/* 1 * 0.5 = 0.5 -> 0. */
	ck_assert_uint_eq(pvclock_scale_delta(1, TWO_POW_31, 0), 0);
	/* mul = 0xC0000000 = 3 * 2^30 = x0.75: 1000 * 0.75 = 750. */
	ck_assert_uint_eq(pvclock_scale_delta(1000, 0xC0000000u, 0), 750);
	/* mul = 1 = x2^-32: 2^32 * 2^-32 = 1; (2^32 - 1) * 2^-32 < 1 -> 0. */
	ck_assert_uint_eq(pvclock_scale_delta(1ULL << 32, 1, 0), 1);
	ck_assert_uint_eq(pvclock_scale_delta((1ULL << 32) - 1, 1, 0), 0);
}
END_TEST

START_TEST(test_scale_positive_shift)
{
	/* shift +1: (1000 << 1) * 0.5 = 2000 * 0.5 = 1000. */
	ck_assert_uint_eq(pvclock_scale_delta(1000, TWO_POW_31, 1), 1000);
	/* shift +2: (1000 << 2) * 0.5 = 4000 * 0.5 = 2000. */
	ck_assert_uint_eq(pvclock_scale_delta(1000, TWO_POW_31, 2), 2000);
	/* shift +1, x0.75: 2000 * 0.75 = 1500. */
	ck_assert_uint_eq(pvclock_scale_delta(1000, 0xC0000000u, 1), 1500);
	/* shift +31: 3 << 31 = 3 * 2^31; * 2^31 = 3 * 2^62 (fits in 64 bits);
	 * >> 32 = 3 * 2^30 = 3221225472. */
	ck_assert_uint_eq(pvclock_scale_delta(3, TWO_POW_31, 31), 3221225472ULL);
}
END_TEST

START_TEST(test_scale_negative_shift)
{
	/* shift -1: (1000 >> 1) * 0.5 = 500 * 0.5 = 250. */
	ck_assert_uint_eq(pvclock_scale_delta(1000, TWO_POW_31, -1), 250);
	/* 1001 >> 1 = 500 (the low bit goes before the multiply): 250. */
	ck_assert_uint_eq(pvclock_scale_delta(1001, TWO_POW_31, -1), 250);
	/* shift -5: 1000 = 31 * 32 + 8, so 1000 >> 5 = 31; 31 * 0.5 = 15.5 -> 15. */
	ck_assert_uint_eq(pvclock_scale_delta(1000, TWO_POW_31, -5), 15);
	/* shift -5 of 2^40 = 2^35; * 0.5 = 2^34. */
	ck_assert_uint_eq(pvclock_scale_delta(1ULL << 40, TWO_POW_31, -5), 1ULL << 34);
	/* The shift truncates before the multiply, as in Linux's
	 * pvclock_scale_delta: 3 >> 1 = 1, and 1 * (2^32 - 1) / 2^32 < 1 -> 0
	 * (scaling 3 exactly would give 1.5 * (1 - 2^-32) = 1.49... -> 1). */
	ck_assert_uint_eq(pvclock_scale_delta(3, 0xFFFFFFFFu, -1), 0);
}
END_TEST

START_TEST(test_scale_mul_max)
{
	/* mul = 2^32 - 1: delta * (2^32 - 1) / 2^32 = delta - delta / 2^32,
	 * floored: delta - ceil(delta / 2^32). */
	/* 1: 1 - ceil(2^-32) = 1 - 1 = 0. */
	ck_assert_uint_eq(pvclock_scale_delta(1, 0xFFFFFFFFu, 0), 0);
	/* 1000: 1000 - 1 = 999. */
	ck_assert_uint_eq(pvclock_scale_delta(1000, 0xFFFFFFFFu, 0), 999);
	/* 2^32: 2^32 - ceil(1) = 2^32 - 1 (exact: 2^32 * (2^32 - 1) / 2^32). */
	ck_assert_uint_eq(pvclock_scale_delta(1ULL << 32, 0xFFFFFFFFu, 0), (1ULL << 32) - 1);
	/* 2^32 + 1: (2^32 + 1)(2^32 - 1) = 2^64 - 1, >> 32 = 2^32 - 1;
	 * likewise 2^32 + 1 - ceil(1 + 2^-32) = 2^32 + 1 - 2. */
	ck_assert_uint_eq(pvclock_scale_delta((1ULL << 32) + 1, 0xFFFFFFFFu, 0), (1ULL << 32) - 1);
	/* 2^40: 2^40 - 2^8 = 1099511627776 - 256 = 1099511627520. */
	ck_assert_uint_eq(pvclock_scale_delta(1ULL << 40, 0xFFFFFFFFu, 0), 1099511627520ULL);
	/* 2^64 - 1: (2^64 - 1)(2^32 - 1) = 2^96 - 2^64 - 2^32 + 1; >> 32 =
	 * floor(2^64 - 2^32 - 1 + 2^-32) = 2^64 - 2^32 - 1 = 0xFFFFFFFEFFFFFFFF. */
	ck_assert_uint_eq(pvclock_scale_delta(UINT64_MAX, 0xFFFFFFFFu, 0), 0xFFFFFFFEFFFFFFFFULL);
}
END_TEST

START_TEST(test_scale_product_beyond_64_bits)
{
	/* 2^40 * 2^31 = 2^71 does not fit in 64 bits; 2^71 >> 32 = 2^39. */
	ck_assert_uint_eq(pvclock_scale_delta(1ULL << 40, TWO_POW_31, 0), 1ULL << 39);
	/* 2^63 * 2^31 = 2^94; >> 32 = 2^62. */
	ck_assert_uint_eq(pvclock_scale_delta(1ULL << 63, TWO_POW_31, 0), 1ULL << 62);
	/* (2^64 - 1) * 0.5 = 2^63 - 0.5 -> 2^63 - 1. */
	ck_assert_uint_eq(pvclock_scale_delta(UINT64_MAX, TWO_POW_31, 0), (1ULL << 63) - 1);
}
END_TEST

START_TEST(test_scale_zero)
{
	/* delta 0 is 0 whatever the scale. */
	ck_assert_uint_eq(pvclock_scale_delta(0, TWO_POW_31, 0), 0);
	ck_assert_uint_eq(pvclock_scale_delta(0, 0xFFFFFFFFu, 31), 0);
	ck_assert_uint_eq(pvclock_scale_delta(0, 0xFFFFFFFFu, -31), 0);
	/* mul 0 is 0 whatever the delta. */
	ck_assert_uint_eq(pvclock_scale_delta(UINT64_MAX, 0, 0), 0);
}
END_TEST

/* KVM's kvm_get_time_scale(NSEC_PER_SEC, tsc_hz) (arch/x86/kvm/x86.c):
 * halve tsc_hz (shift--) while it exceeds 2 * 10^9 or 32 bits, double it
 * (shift++) while it is <= 10^9, then mul = (10^9 << 32) / tsc_hz'. */

START_TEST(test_scale_1ghz_tsc)
{
	/* 1 GHz: 10^9 is not > 2 * 10^9, but 10^9 <= 10^9, so double once:
	 * tsc_hz' = 2 * 10^9, shift = +1; mul = 10^9 * 2^32 / (2 * 10^9) = 2^31.
	 * ns = (cycles << 1) * 0.5 = cycles exactly. */
	ck_assert_uint_eq(pvclock_scale_delta(123456789, TWO_POW_31, 1), 123456789);
	/* An hour of cycles, 3600 * 10^9, is an hour of ns. */
	ck_assert_uint_eq(pvclock_scale_delta(3600000000000ULL, TWO_POW_31, 1), 3600000000000ULL);
}
END_TEST

START_TEST(test_scale_2_5ghz_tsc)
{
	/* 2.5 GHz: 2.5 * 10^9 > 2 * 10^9, halve once: tsc_hz' = 1.25 * 10^9,
	 * shift = -1; 1.25 * 10^9 > 10^9, no doubling.
	 * mul = floor(10^9 * 2^32 / (1.25 * 10^9)) = floor(0.8 * 2^32)
	 *     = floor(0.8 * 4294967296) = floor(3435973836.8) = 3435973836
	 *     = 0xCCCCCCCC. So mul = 0.8 * 2^32 - 0.8, and
	 * ns = ((c >> 1) * (0.8 * 2^32 - 0.8)) >> 32 = floor(0.8 h - 0.8 h / 2^32)
	 * where h = c >> 1 (0.4 ns per cycle, a hair under). */
	const uint32_t mul = 0xCCCCCCCCu;
	ck_assert_uint_eq(mul, 3435973836u);
	/* One second, c = 2.5 * 10^9: h = 1.25 * 10^9, 0.8 h = 10^9;
	 * 10^9 / 2^32 = 0.2328..., so floor(10^9 - 0.2328...) = 999999999. */
	ck_assert_uint_eq(pvclock_scale_delta(2500000000ULL, mul, -1), 999999999ULL);
	/* 10 us, c = 25000: h = 12500, 0.8 h = 10000; 10000 / 2^32 < 1,
	 * so floor(10000 - 0.0000023...) = 9999. */
	ck_assert_uint_eq(pvclock_scale_delta(25000, mul, -1), 9999);
	/* One hour, c = 9 * 10^12 (the product 4.5 * 10^12 * 3435973836 ~
	 * 1.5 * 10^22 is past 2^64 ~ 1.8 * 10^19): h = 4.5 * 10^12,
	 * 0.8 h = 3.6 * 10^12; 3.6 * 10^12 / 2^32 = 838.19..., so
	 * floor(3.6 * 10^12 - 838.19...) = 3.6 * 10^12 - 839 = 3599999999161. */
	ck_assert_uint_eq(pvclock_scale_delta(9000000000000ULL, mul, -1), 3599999999161ULL);
}
END_TEST

/* --- pvclock_time_at ---------------------------------------------------- */

/* A 1 GHz record (shift +1, mul 2^31: ns = cycles, see above) stamped at
 * TSC 1000000 = 5 s of guest time. */
static struct pvclock_vcpu_time_info record_1ghz(void)
{
	return (struct pvclock_vcpu_time_info){ .version = 2,
						 .tsc_timestamp = 1000000,
						 .system_time = 5000000000ULL,
						 .tsc_to_system_mul = TWO_POW_31,
						 .tsc_shift = 1,
						 .flags = PVCLOCK_TSC_STABLE_BIT };
}

START_TEST(test_time_at_stamp)
{
	struct pvclock_vcpu_time_info r = record_1ghz();
	/* At tsc_timestamp itself: delta 0, system_time. */
	ck_assert_uint_eq(pvclock_time_at(&r, 1000000), 5000000000ULL);
	/* 500 cycles later at 1 ns each: 5 s + 500 ns. */
	ck_assert_uint_eq(pvclock_time_at(&r, 1000500), 5000000500ULL);
}
END_TEST

START_TEST(test_time_at_2_5ghz)
{
	struct pvclock_vcpu_time_info r = record_1ghz();
	r.tsc_to_system_mul = 0xCCCCCCCCu;
	r.tsc_shift = -1;
	/* 2.5 * 10^9 cycles after the stamp: 999999999 ns (test_scale_2_5ghz_tsc),
	 * 5 * 10^9 + 999999999 = 5999999999. */
	ck_assert_uint_eq(pvclock_time_at(&r, 1000000 + 2500000000ULL), 5999999999ULL);
}
END_TEST

START_TEST(test_time_at_tsc_behind_stamp)
{
	struct pvclock_vcpu_time_info r = record_1ghz();
	/* A TSC behind tsc_timestamp counts as zero delta: system_time. */
	ck_assert_uint_eq(pvclock_time_at(&r, 999999), 5000000000ULL);
	ck_assert_uint_eq(pvclock_time_at(&r, 0), 5000000000ULL);
	/* Stamp 2^63, TSC 1: a wrapped delta would be 2^64 - 2^63 + 1 =
	 * 2^63 + 1 cycles, some 292 years; zero delta gives system_time. */
	r.tsc_timestamp = 1ULL << 63;
	ck_assert_uint_eq(pvclock_time_at(&r, 1), 5000000000ULL);
}
END_TEST

/* --- pvclock_read ------------------------------------------------------- */

/* Every field a distinct, recognisable value; pads zero as KVM writes them. */
static struct pvclock_vcpu_time_info record_distinct(uint32_t version)
{
	return (struct pvclock_vcpu_time_info){ .version = version,
						 .tsc_timestamp = 0x0123456789abcdefULL,
						 .system_time = 0xfedcba9876543210ULL,
						 .tsc_to_system_mul = 0x89abcdefu,
						 .tsc_shift = -3,
						 .flags = PVCLOCK_TSC_STABLE_BIT };
}

START_TEST(test_read_consistent)
{
	struct pvclock_vcpu_time_info src = record_distinct(6);
	struct pvclock_vcpu_time_info out;
	memset(&out, 0xa5, sizeof(out));
	ck_assert(pvclock_read(&src, &out, 1));
	/* All 32 bytes, pads included, are the record's. */
	ck_assert_mem_eq(&out, &src, sizeof(src));
	ck_assert_uint_eq(out.version, 6);
	ck_assert_uint_eq(out.tsc_timestamp, 0x0123456789abcdefULL);
	ck_assert_uint_eq(out.system_time, 0xfedcba9876543210ULL);
	ck_assert_uint_eq(out.tsc_to_system_mul, 0x89abcdefu);
	ck_assert_int_eq(out.tsc_shift, -3);
	ck_assert_uint_eq(out.flags, PVCLOCK_TSC_STABLE_BIT);
}
END_TEST

START_TEST(test_read_version_zero)
{
	/* Version 0 is even: a record KVM has written once... or never; a
	 * consistent read either way. */
	struct pvclock_vcpu_time_info src = record_distinct(0);
	struct pvclock_vcpu_time_info out;
	ck_assert(pvclock_read(&src, &out, 16));
	ck_assert_mem_eq(&out, &src, sizeof(src));
}
END_TEST

START_TEST(test_read_odd_version_fails)
{
	/* Odd: KVM is mid-update; every try sees it, so all tries fail. */
	struct pvclock_vcpu_time_info src = record_distinct(7);
	struct pvclock_vcpu_time_info out;
	ck_assert(!pvclock_read(&src, &out, 1));
	ck_assert(!pvclock_read(&src, &out, 16));
	src.version = 0xffffffffu;
	ck_assert(!pvclock_read(&src, &out, 16));
}
END_TEST

START_TEST(test_read_zero_tries)
{
	/* "False after max_tries": zero tries read nothing, even a good record. */
	struct pvclock_vcpu_time_info src = record_distinct(2);
	struct pvclock_vcpu_time_info out;
	ck_assert(!pvclock_read(&src, &out, 0));
}
END_TEST

/* A version that changes across the copy, deterministically and on one
 * thread: the record straddles two pages, version and pad0 in the last 8
 * bytes of the first page, everything from tsc_timestamp on in the second,
 * which starts PROT_NONE. The reader's first touch of the second page (its
 * read of tsc_timestamp, after the first version read) faults; the handler
 * plays KVM completing an update (version 2 -> 4, new times) and opens the
 * page; the faulting read then resumes and sees the new values, and the
 * second version read sees 4 != 2. */
static uint8_t *torn_pages;
static long torn_page_size;
static volatile sig_atomic_t torn_faults;

static volatile struct pvclock_vcpu_time_info *torn_record(void)
{
	return (volatile struct pvclock_vcpu_time_info *)(torn_pages + torn_page_size - 8);
}

static void torn_on_segv(int sig, siginfo_t *si, void *ctx)
{
	(void)ctx;
	uint8_t *second = torn_pages + torn_page_size;
	uint8_t *addr = si->si_addr;
	if (torn_faults || addr < second || addr >= second + torn_page_size) {
		/* Not the fault this test set up: die of it. */
		signal(sig, SIG_DFL);
		return;
	}
	torn_faults++;
	mprotect(second, (size_t)torn_page_size, PROT_READ | PROT_WRITE);
	volatile struct pvclock_vcpu_time_info *r = torn_record();
	r->version = 4;
	r->tsc_timestamp = 2000;
	r->system_time = 9000;
}

/* Sets up the two pages and the handler; returns the previous action. */
static struct sigaction torn_setup(void)
{
	torn_page_size = sysconf(_SC_PAGESIZE);
	ck_assert_int_gt(torn_page_size, 32);
	void *m = mmap(NULL, 2 * (size_t)torn_page_size, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ck_assert_ptr_ne(m, MAP_FAILED);
	torn_pages = m;
	torn_faults = 0;
	volatile struct pvclock_vcpu_time_info *r = torn_record();
	r->version = 2;
	r->pad0 = 0;
	r->tsc_timestamp = 1000;
	r->system_time = 5000;
	r->tsc_to_system_mul = TWO_POW_31;
	r->tsc_shift = 1;
	r->flags = 0;
	ck_assert_int_eq(mprotect(torn_pages + torn_page_size, (size_t)torn_page_size, PROT_NONE),
			 0);
	struct sigaction sa, old;
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = torn_on_segv;
	sa.sa_flags = SA_SIGINFO;
	sigemptyset(&sa.sa_mask);
	ck_assert_int_eq(sigaction(SIGSEGV, &sa, &old), 0);
	return old;
}

static void torn_teardown(const struct sigaction *old)
{
	sigaction(SIGSEGV, old, NULL);
	munmap(torn_pages, 2 * (size_t)torn_page_size);
	torn_pages = NULL;
}

START_TEST(test_read_version_changes_one_try)
{
	struct sigaction old = torn_setup();
	struct pvclock_vcpu_time_info out;
	/* One try: version 2 before the copy, 4 after -> no consistent copy. */
	bool ok = pvclock_read(torn_record(), &out, 1);
	int faults = torn_faults;
	torn_teardown(&old);
	ck_assert_int_eq(faults, 1);
	ck_assert(!ok);
}
END_TEST

START_TEST(test_read_version_changes_then_retries)
{
	struct sigaction old = torn_setup();
	struct pvclock_vcpu_time_info out;
	/* Try 1 is torn (2 -> 4); try 2 reads version 4 on both sides and
	 * the new values, never the mix of old version and new times. */
	bool ok = pvclock_read(torn_record(), &out, 2);
	int faults = torn_faults;
	torn_teardown(&old);
	ck_assert_int_eq(faults, 1);
	ck_assert(ok);
	ck_assert_uint_eq(out.version, 4);
	ck_assert_uint_eq(out.tsc_timestamp, 2000);
	ck_assert_uint_eq(out.system_time, 9000);
	ck_assert_uint_eq(out.tsc_to_system_mul, TWO_POW_31);
	ck_assert_int_eq(out.tsc_shift, 1);
}
END_TEST

/* A guest can write any tsc_shift into its record: found by the sanitizer
 * run of the stale-MSR test, where the VMM read a record full of 0x5a. */
START_TEST(test_scale_shift_out_of_range)
{
	/* 1 << 90 and 1 >> 90 both lose every bit: 0, without undefined behaviour. */
	ck_assert_uint_eq(pvclock_scale_delta(1, 0xffffffffu, 90), 0);
	ck_assert_uint_eq(pvclock_scale_delta(UINT64_MAX, 0xffffffffu, -90), 0);
	ck_assert_uint_eq(pvclock_scale_delta(UINT64_MAX, 0xffffffffu, 64), 0);
	ck_assert_uint_eq(pvclock_scale_delta(UINT64_MAX, 0xffffffffu, -64), 0);
	ck_assert_uint_eq(pvclock_scale_delta(UINT64_MAX, 0xffffffffu, INT8_MIN), 0);
	/* 0x5a = 90: the garbage the kvmclock test writes. */
	ck_assert_uint_eq(pvclock_scale_delta(0x5a5a5a5a5a5a5a5aull, 0x5a5a5a5au, 0x5a), 0);
}
END_TEST

Suite *pvclock_suite(void)
{
	Suite *s = suite_create("pvclock");
	TCase *tc = tcase_create("scale_delta");
	tcase_add_test(tc, test_scale_shift0);
	tcase_add_test(tc, test_scale_positive_shift);
	tcase_add_test(tc, test_scale_negative_shift);
	tcase_add_test(tc, test_scale_mul_max);
	tcase_add_test(tc, test_scale_product_beyond_64_bits);
	tcase_add_test(tc, test_scale_zero);
	tcase_add_test(tc, test_scale_1ghz_tsc);
	tcase_add_test(tc, test_scale_2_5ghz_tsc);
	tcase_add_test(tc, test_scale_shift_out_of_range);
	suite_add_tcase(s, tc);

	tc = tcase_create("time_at");
	tcase_add_test(tc, test_time_at_stamp);
	tcase_add_test(tc, test_time_at_2_5ghz);
	tcase_add_test(tc, test_time_at_tsc_behind_stamp);
	suite_add_tcase(s, tc);

	tc = tcase_create("read");
	tcase_add_test(tc, test_read_consistent);
	tcase_add_test(tc, test_read_version_zero);
	tcase_add_test(tc, test_read_odd_version_fails);
	tcase_add_test(tc, test_read_zero_tries);
	tcase_add_test(tc, test_read_version_changes_one_try);
	tcase_add_test(tc, test_read_version_changes_then_retries);
	suite_add_tcase(s, tc);
	return s;
}
