/* parse: sizes, durations and numbers as users type them. */
#include <stdint.h>

#include "../../vmm/parse.h"
#include "suites.h"

/* parse_size(s) must succeed with `want`. A sentinel catches "true without
 * writing". */
static void size_ok(const char *s, uint64_t want)
{
	uint64_t v = 0xdeadbeef;
	ck_assert_msg(parse_size(s, &v), "parse_size(\"%s\") failed", s);
	ck_assert_msg(v == want, "parse_size(\"%s\") = %llu, want %llu", s, (unsigned long long)v,
		      (unsigned long long)want);
}

static void size_bad(const char *s)
{
	uint64_t v;
	ck_assert_msg(!parse_size(s, &v), "parse_size(\"%s\") accepted", s);
}

START_TEST(test_sizes)
{
	size_ok("64M", 67108864ULL);      /* 64 * 2^20 */
	size_ok("1G", 1073741824ULL);     /* 2^30 */
	size_ok("512K", 524288ULL);       /* 512 * 2^10 */
	size_ok("4096", 4096);            /* no unit: bytes */
	size_ok("1MiB", 1048576ULL);      /* 2^20 */
	size_ok("1mb", 1048576ULL);       /* case-insensitive; B means the binary unit */
	size_ok("2T", 2199023255552ULL);  /* 2 * 2^40 */
	size_ok("1P", 1125899906842624ULL); /* 2^50 */
	size_ok("3k", 3072);              /* 3 * 1024 */
	size_ok("1KB", 1024);
	size_ok("0", 0);
	/* 16383P = (2^14 - 1) * 2^50 = 2^64 - 2^50: the largest P that fits. */
	size_ok("16383P", 18445618173802708992ULL);
}
END_TEST

START_TEST(test_size_rejects)
{
	size_bad(NULL);
	size_bad("");
	size_bad("M");
	size_bad("-1");
	size_bad("+1");
	size_bad(" 1M");
	size_bad("1 M");
	size_bad("1M ");
	size_bad("1X");
	size_bad("1MX");
	size_bad("1MiBs");
	size_bad("1bib"); /* "B" is not a prefix */
	size_bad("1.5G");
	/* (2^64 - 1) * 1024 overflows. */
	size_bad("18446744073709551615K");
	/* 16384P = 2^14 * 2^50 = 2^64. */
	size_bad("16384P");
	/* 2^64 itself does not fit a uint64_t. */
	size_bad("18446744073709551616");
}
END_TEST

START_TEST(test_size_max)
{
	/* 2^64 - 1 bytes: the largest value, no unit. */
	size_ok("18446744073709551615", UINT64_MAX);
}
END_TEST

static void duration_ok(const char *s, uint64_t want_ms)
{
	uint64_t v = 0xdeadbeef;
	ck_assert_msg(parse_duration_ms(s, &v), "parse_duration_ms(\"%s\") failed", s);
	ck_assert_msg(v == want_ms, "parse_duration_ms(\"%s\") = %llu, want %llu", s,
		      (unsigned long long)v, (unsigned long long)want_ms);
}

static void duration_bad(const char *s)
{
	uint64_t v;
	ck_assert_msg(!parse_duration_ms(s, &v), "parse_duration_ms(\"%s\") accepted", s);
}

START_TEST(test_durations)
{
	duration_ok("30", 30000);     /* seconds by default: 30 * 1000 */
	duration_ok("30s", 30000);
	duration_ok("500ms", 500);
	duration_ok("2m", 120000);    /* 2 * 60 * 1000 */
	duration_ok("1h", 3600000);   /* 60 * 60 * 1000 */
	duration_ok("0", 0);
}
END_TEST

START_TEST(test_duration_rejects)
{
	duration_bad("1d");
	duration_bad("");
	duration_bad("-5");
	duration_bad("s");
	duration_bad("5 s");
	duration_bad(" 5");
	duration_bad("5sec");
	duration_bad("5mss");
	/* (2^64 - 1) * 1000 overflows. */
	duration_bad("18446744073709551615");
	duration_bad(NULL);
}
END_TEST

static void u64_ok(const char *s, uint64_t want)
{
	uint64_t v = 0xdeadbeef;
	ck_assert_msg(parse_u64(s, &v), "parse_u64(\"%s\") failed", s);
	ck_assert_msg(v == want, "parse_u64(\"%s\") = %llu, want %llu", s, (unsigned long long)v,
		      (unsigned long long)want);
}

static void u64_bad(const char *s)
{
	uint64_t v;
	ck_assert_msg(!parse_u64(s, &v), "parse_u64(\"%s\") accepted", s);
}

START_TEST(test_u64)
{
	u64_ok("0", 0);
	u64_ok("100", 100);
	u64_ok("0x1f", 31);   /* 1 * 16 + 15 */
	u64_ok("0XFF", 255);
	u64_ok("18446744073709551615", UINT64_MAX);
	u64_ok("0xffffffffffffffff", UINT64_MAX);
}
END_TEST

START_TEST(test_u64_decimal_not_octal)
{
	/* The contract is "decimal (or 0x hex)": a leading zero is still
	 * decimal, as a user typing --cpus 010 or --param n=08 means it. */
	u64_ok("010", 10);
	u64_ok("08", 8);
	u64_ok("007", 7);
	size_ok("010M", 10 * 1048576ULL);
}
END_TEST

START_TEST(test_u64_rejects)
{
	u64_bad("12abc");
	u64_bad("12 ");
	u64_bad(" 12");
	u64_bad("");
	u64_bad("-1");
	u64_bad("+1");
	u64_bad("0x");
	u64_bad("0xg");
	u64_bad("1M"); /* units are for sizes only */
	u64_bad("18446744073709551616"); /* 2^64 */
	u64_bad("0x10000000000000000");  /* 2^64 */
	u64_bad(NULL);
}
END_TEST

START_TEST(test_bool)
{
	static const char *const yes[] = { "on", "yes", "true", "1", "ON", "Yes", "TRUE" };
	static const char *const no[] = { "off", "no", "false", "0", "OFF", "No", "False" };
	for (unsigned i = 0; i < sizeof(yes) / sizeof(yes[0]); i++) {
		bool v = false;
		ck_assert_msg(parse_bool(yes[i], &v) && v, "parse_bool(\"%s\")", yes[i]);
	}
	for (unsigned i = 0; i < sizeof(no) / sizeof(no[0]); i++) {
		bool v = true;
		ck_assert_msg(parse_bool(no[i], &v) && !v, "parse_bool(\"%s\")", no[i]);
	}
	static const char *const bad[] = { "", "2", "onn", "of", "y", " on", "on ", "enable" };
	for (unsigned i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		bool v;
		ck_assert_msg(!parse_bool(bad[i], &v), "parse_bool(\"%s\") accepted", bad[i]);
	}
}
END_TEST

Suite *parse_suite(void)
{
	Suite *s = suite_create("parse");
	TCase *tc = tcase_create("size");
	tcase_add_test(tc, test_sizes);
	tcase_add_test(tc, test_size_rejects);
	tcase_add_test(tc, test_size_max);
	suite_add_tcase(s, tc);
	tc = tcase_create("duration");
	tcase_add_test(tc, test_durations);
	tcase_add_test(tc, test_duration_rejects);
	suite_add_tcase(s, tc);
	tc = tcase_create("u64");
	tcase_add_test(tc, test_u64);
	tcase_add_test(tc, test_u64_decimal_not_octal);
	tcase_add_test(tc, test_u64_rejects);
	suite_add_tcase(s, tc);
	tc = tcase_create("bool");
	tcase_add_test(tc, test_bool);
	suite_add_tcase(s, tc);
	return s;
}
