/* kvmclock: decoding MSR_KVM_SYSTEM_TIME(_NEW) (KVM's Documentation/virt/
 * kvm/x86/msr.rst: a 4-byte aligned guest-physical address with the enable
 * flag in bit 0) and reading the guest's pvclock record out of guest RAM,
 * which must never read outside it, whatever the guest wrote to the MSR. */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../clock/kvmclock.h"
#include "../../clock/pvclock.h"
#include "../../vmm/guest_mem.h"
#include "../../vmm/layout.h"
#include "suites.h"

/* Not yet in suites.h: declared here until it is. */
Suite *kvmclock_suite(void);

/* --- kvmclock_decode_msr ------------------------------------------------ */

#define GPA_UNSET 0x5a5a5a5a5a5a5a5aULL

START_TEST(test_decode_disabled)
{
	uint64_t gpa = GPA_UNSET;
	/* Bit 0 clear: disabled, whatever the address bits say. */
	ck_assert_int_eq(kvmclock_decode_msr(0, &gpa), KVMCLOCK_MSR_DISABLED);
	ck_assert_int_eq(kvmclock_decode_msr(0x1000, &gpa), KVMCLOCK_MSR_DISABLED);
	/* 0x1002 would be misaligned, but disabled comes first. */
	ck_assert_int_eq(kvmclock_decode_msr(0x1002, &gpa), KVMCLOCK_MSR_DISABLED);
	ck_assert_int_eq(kvmclock_decode_msr(0xfffffffffffffffeULL, &gpa), KVMCLOCK_MSR_DISABLED);
}
END_TEST

START_TEST(test_decode_enabled)
{
	uint64_t gpa = GPA_UNSET;
	/* 0x1001 = gpa 0x1000 | enable. */
	ck_assert_int_eq(kvmclock_decode_msr(0x1001, &gpa), KVMCLOCK_MSR_ENABLED);
	ck_assert_uint_eq(gpa, 0x1000);
	/* 0x1005: gpa 0x1004 is 4-byte aligned (not 32-byte: msr.rst asks
	 * only for 4), page offset 4 + 32 = 36 <= 4096. */
	gpa = GPA_UNSET;
	ck_assert_int_eq(kvmclock_decode_msr(0x1005, &gpa), KVMCLOCK_MSR_ENABLED);
	ck_assert_uint_eq(gpa, 0x1004);
	/* 0x1: gpa 0 is an address like any other. */
	gpa = GPA_UNSET;
	ck_assert_int_eq(kvmclock_decode_msr(0x1, &gpa), KVMCLOCK_MSR_ENABLED);
	ck_assert_uint_eq(gpa, 0);
}
END_TEST

START_TEST(test_decode_misaligned)
{
	uint64_t gpa = GPA_UNSET;
	/* 0x1003: gpa 0x1002, 0x1002 & 3 = 2. */
	ck_assert_int_eq(kvmclock_decode_msr(0x1003, &gpa), KVMCLOCK_MSR_MISALIGNED);
	ck_assert_uint_eq(gpa, 0x1002);
	/* 2^64 - 1: gpa 0xfffffffffffffffe, & 3 = 2. */
	ck_assert_int_eq(kvmclock_decode_msr(UINT64_MAX, &gpa), KVMCLOCK_MSR_MISALIGNED);
	ck_assert_uint_eq(gpa, 0xfffffffffffffffeULL);
}
END_TEST

START_TEST(test_decode_ends_at_page_end)
{
	uint64_t gpa = GPA_UNSET;
	/* gpa 0x1fe0: page offset 0xfe0 = 4064, + 32 = 4096 = the page's end
	 * exactly (0x1fe0 + 0x20 = 0x2000): inside one page. */
	ck_assert_int_eq(kvmclock_decode_msr(0x1fe0 + 1, &gpa), KVMCLOCK_MSR_ENABLED);
	ck_assert_uint_eq(gpa, 0x1fe0);
}
END_TEST

START_TEST(test_decode_crosses_page)
{
	uint64_t gpa = GPA_UNSET;
	/* gpa 0x1fe4: 0xfe4 + 0x20 = 0x1004 > 0x1000, the last 4 bytes
	 * (flags, pad) in the next page. */
	ck_assert_int_eq(kvmclock_decode_msr(0x1fe4 + 1, &gpa), KVMCLOCK_MSR_CROSSES_PAGE);
	ck_assert_uint_eq(gpa, 0x1fe4);
	/* gpa 0xfe4: the same offset in page 0. */
	ck_assert_int_eq(kvmclock_decode_msr(0xfe4 + 1, &gpa), KVMCLOCK_MSR_CROSSES_PAGE);
	ck_assert_uint_eq(gpa, 0xfe4);
	/* gpa 0xffc: aligned, 0xffc + 0x20 = 0x101c > 0x1000. */
	ck_assert_int_eq(kvmclock_decode_msr(0xffc + 1, &gpa), KVMCLOCK_MSR_CROSSES_PAGE);
	/* gpa 0xfffffffffffffff0: page offset 0xff0 + 0x20 = 0x1010 > 0x1000. */
	ck_assert_int_eq(kvmclock_decode_msr(0xfffffffffffffff1ULL, &gpa),
			 KVMCLOCK_MSR_CROSSES_PAGE);
}
END_TEST

START_TEST(test_decode_huge_gpa)
{
	uint64_t gpa = GPA_UNSET;
	/* 0xfffffffffffff001: gpa 0xfffffffffffff000, page offset 0: a valid
	 * encoding; whether it is RAM is kvmclock_guest_time's question. */
	ck_assert_int_eq(kvmclock_decode_msr(0xfffffffffffff001ULL, &gpa), KVMCLOCK_MSR_ENABLED);
	ck_assert_uint_eq(gpa, 0xfffffffffffff000ULL);
	/* 0xffffffffffffffe1: gpa 0xffffffffffffffe0, offset 0xfe0, the
	 * record ends exactly at 2^64. */
	ck_assert_int_eq(kvmclock_decode_msr(0xffffffffffffffe1ULL, &gpa), KVMCLOCK_MSR_ENABLED);
	ck_assert_uint_eq(gpa, 0xffffffffffffffe0ULL);
}
END_TEST

/* --- kvmclock_guest_time over fake RAM ---------------------------------- */

/* Exactly RAM_SIZE bytes of heap: under ASan any byte read past the end
 * is a heap-buffer-overflow. */
#define RAM_SIZE (64 * KiB)
#define NS_UNSET 0xa5a5a5a5a5a5a5a5ULL

static uint8_t *ram;
static struct guest_mem mem;

static void ram_setup(void)
{
	ram = malloc(RAM_SIZE);
	ck_assert_ptr_nonnull(ram);
	memset(ram, 0, RAM_SIZE);
	ck_assert(guest_mem_layout(&mem, ram, RAM_SIZE));
}

static void ram_teardown(void)
{
	free(ram);
	ram = NULL;
}

/* The 2.5 GHz record (pvclock tests: shift -1, mul 0xCCCCCCCC, ns =
 * floor(0.8 (c >> 1) - 0.8 (c >> 1) / 2^32)) stamped at TSC 10^6 = 7 s. */
static struct pvclock_vcpu_time_info record_2_5ghz(uint32_t version)
{
	return (struct pvclock_vcpu_time_info){ .version = version,
						 .tsc_timestamp = 1000000,
						 .system_time = 7000000000ULL,
						 .tsc_to_system_mul = 0xCCCCCCCCu,
						 .tsc_shift = -1,
						 .flags = PVCLOCK_TSC_STABLE_BIT };
}

static void put_record(uint64_t gpa, const struct pvclock_vcpu_time_info *r)
{
	ck_assert_uint_le(gpa + sizeof(*r), RAM_SIZE);
	memcpy(ram + gpa, r, sizeof(*r));
}

START_TEST(test_guest_time_in_ram)
{
	struct pvclock_vcpu_time_info r = record_2_5ghz(2);
	put_record(0x2000, &r);
	uint64_t ns = NS_UNSET;
	/* 2.5 * 10^9 cycles after the stamp: 999999999 ns; 7 s + that. */
	ck_assert(kvmclock_guest_time(&mem, 0x2000, 1000000 + 2500000000ULL, &ns));
	ck_assert_uint_eq(ns, 7999999999ULL);
	/* At the stamp: system_time. */
	ck_assert(kvmclock_guest_time(&mem, 0x2000, 1000000, &ns));
	ck_assert_uint_eq(ns, 7000000000ULL);
}
END_TEST

START_TEST(test_guest_time_last_32_bytes)
{
	/* [RAM_SIZE - 32, RAM_SIZE): the last bytes of RAM, all in RAM. 25000
	 * cycles: (25000 >> 1) * 0.8 = 10000 less a hair -> 9999. */
	struct pvclock_vcpu_time_info r = record_2_5ghz(4);
	put_record(RAM_SIZE - 32, &r);
	uint64_t ns = NS_UNSET;
	ck_assert(kvmclock_guest_time(&mem, RAM_SIZE - 32, 1000000 + 25000, &ns));
	ck_assert_uint_eq(ns, 7000000000ULL + 9999);
}
END_TEST

START_TEST(test_guest_time_outside_ram)
{
	uint64_t ns = NS_UNSET;
	/* Starts right at the end of RAM. */
	ck_assert(!kvmclock_guest_time(&mem, RAM_SIZE, 0, &ns));
	/* 1 GiB: far beyond 64 KiB of RAM. */
	ck_assert(!kvmclock_guest_time(&mem, 1 * GiB, 0, &ns));
	/* The MMIO hole and above 4 GiB: no RAM there with 64 KiB. */
	ck_assert(!kvmclock_guest_time(&mem, MMIO_HOLE_START, 0, &ns));
	ck_assert(!kvmclock_guest_time(&mem, MMIO_HOLE_END, 0, &ns));
}
END_TEST

START_TEST(test_guest_time_straddles_end)
{
	uint64_t ns = NS_UNSET;
	/* [RAM_SIZE - 16, RAM_SIZE + 16): half the record past the end. */
	ck_assert(!kvmclock_guest_time(&mem, RAM_SIZE - 16, 0, &ns));
	/* [RAM_SIZE - 28, RAM_SIZE + 4): only flags and pad past the end. */
	ck_assert(!kvmclock_guest_time(&mem, RAM_SIZE - 28, 0, &ns));
	/* [RAM_SIZE - 4, RAM_SIZE + 28): only the version in RAM. */
	ck_assert(!kvmclock_guest_time(&mem, RAM_SIZE - 4, 0, &ns));
}
END_TEST

START_TEST(test_guest_time_wraps)
{
	uint64_t ns = NS_UNSET;
	/* 0xffffffffffffffe0 + 32 = 2^64, wraps to 0. */
	ck_assert(!kvmclock_guest_time(&mem, 0xffffffffffffffe0ULL, 0, &ns));
	/* 0xfffffffffffffff0 + 32 wraps to 0x10, inside RAM: a naive
	 * "gpa + 32 <= end" check would take it. */
	ck_assert(!kvmclock_guest_time(&mem, 0xfffffffffffffff0ULL, 0, &ns));
	ck_assert(!kvmclock_guest_time(&mem, UINT64_MAX, 0, &ns));
}
END_TEST

START_TEST(test_guest_time_huge_msr)
{
	/* The MSR decodes (test_decode_huge_gpa), the address is not RAM. */
	uint64_t gpa = 0, ns = NS_UNSET;
	ck_assert_int_eq(kvmclock_decode_msr(0xfffffffffffff001ULL, &gpa), KVMCLOCK_MSR_ENABLED);
	ck_assert(!kvmclock_guest_time(&mem, gpa, 0, &ns));
}
END_TEST

START_TEST(test_guest_time_odd_version)
{
	/* Version 5: the record is mid-update, and stays so. */
	struct pvclock_vcpu_time_info r = record_2_5ghz(5);
	put_record(0x2000, &r);
	uint64_t ns = NS_UNSET;
	ck_assert(!kvmclock_guest_time(&mem, 0x2000, 1000000, &ns));
}
END_TEST

/* --- kvmclock_init / pause / resume without KVM ------------------------- */

START_TEST(test_init_destroy)
{
	struct kvmclock k;
	const int fds[3] = { -1, -1, -1 };
	ck_assert_int_eq(kvmclock_init(&k, -1, fds, 3, &mem, true), 0);
	ck_assert_ptr_eq(k.vcpu_fds, fds);
	ck_assert_uint_eq(k.nvcpus, 3);
	ck_assert_ptr_eq(k.mem, &mem);
	ck_assert(k.force_guest_view);
	ck_assert(!k.have_saved);
	ck_assert_ptr_nonnull(k.warned);
	ck_assert_ptr_nonnull(k.stale_msr);
	/* Nothing saved: resume does nothing, not even the ioctl. */
	ck_assert_int_eq(kvmclock_resume(&k), 0);
	kvmclock_destroy(&k);
	ck_assert_ptr_null(k.warned);
	ck_assert_ptr_null(k.stale_msr);
}
END_TEST

/* Point stderr at `path` for the duration of one call; the old stderr comes
 * back from the returned fd. */
static int stderr_to(const char *path)
{
	int saved = dup(STDERR_FILENO);
	ck_assert_int_ge(saved, 0);
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(dup2(fd, STDERR_FILENO), STDERR_FILENO);
	close(fd);
	return saved;
}

static void stderr_back(int saved)
{
	dup2(saved, STDERR_FILENO);
	close(saved);
}

START_TEST(test_pause_bad_vm_fd)
{
	struct kvmclock k;
	const int fds[1] = { -1 };
	ck_assert_int_eq(kvmclock_init(&k, -1, fds, 1, &mem, false), 0);
	/* KVM_GET_CLOCK on fd -1 fails with EBADF; nothing is saved. */
	int saved = stderr_to("/dev/null");
	int rc = kvmclock_pause(&k);
	stderr_back(saved);
	ck_assert_int_eq(rc, -EBADF);
	ck_assert(!k.have_saved);
	ck_assert_int_eq(kvmclock_resume(&k), 0);
	kvmclock_destroy(&k);
}
END_TEST

/* The error returned is the ioctl's, even when the log line about it
 * cannot be written (stderr on /dev/full: every write fails with ENOSPC). */
START_TEST(test_pause_error_survives_failing_log)
{
	struct kvmclock k;
	const int fds[1] = { -1 };
	ck_assert_int_eq(kvmclock_init(&k, -1, fds, 1, &mem, false), 0);
	int saved = stderr_to("/dev/full");
	int rc = kvmclock_pause(&k);
	stderr_back(saved);
	kvmclock_destroy(&k);
	ck_assert_int_eq(rc, -EBADF);
}
END_TEST

START_TEST(test_resume_error_survives_failing_log)
{
	struct kvmclock k;
	const int fds[1] = { -1 };
	ck_assert_int_eq(kvmclock_init(&k, -1, fds, 1, &mem, false), 0);
	/* A clock to restore, as a successful pause would have left it. */
	k.have_saved = true;
	k.saved_ns = 1;
	int saved = stderr_to("/dev/full");
	int rc = kvmclock_resume(&k);
	stderr_back(saved);
	/* Still saved: a later resume can try again. */
	bool still_saved = k.have_saved;
	kvmclock_destroy(&k);
	ck_assert_int_eq(rc, -EBADF);
	ck_assert(still_saved);
}
END_TEST

Suite *kvmclock_suite(void)
{
	Suite *s = suite_create("kvmclock");
	TCase *tc = tcase_create("decode_msr");
	tcase_add_test(tc, test_decode_disabled);
	tcase_add_test(tc, test_decode_enabled);
	tcase_add_test(tc, test_decode_misaligned);
	tcase_add_test(tc, test_decode_ends_at_page_end);
	tcase_add_test(tc, test_decode_crosses_page);
	tcase_add_test(tc, test_decode_huge_gpa);
	suite_add_tcase(s, tc);

	tc = tcase_create("guest_time");
	tcase_add_checked_fixture(tc, ram_setup, ram_teardown);
	tcase_add_test(tc, test_guest_time_in_ram);
	tcase_add_test(tc, test_guest_time_last_32_bytes);
	tcase_add_test(tc, test_guest_time_outside_ram);
	tcase_add_test(tc, test_guest_time_straddles_end);
	tcase_add_test(tc, test_guest_time_wraps);
	tcase_add_test(tc, test_guest_time_huge_msr);
	tcase_add_test(tc, test_guest_time_odd_version);
	suite_add_tcase(s, tc);

	tc = tcase_create("no_kvm");
	tcase_add_test(tc, test_init_destroy);
	tcase_add_test(tc, test_pause_bad_vm_fd);
	tcase_add_test(tc, test_pause_error_survives_failing_log);
	tcase_add_test(tc, test_resume_error_survives_failing_log);
	suite_add_tcase(s, tc);
	return s;
}
