/* console: line-buffered guest output and the --expect matcher. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../vmm/console.h"
#include "../../vmm/console_result.h"
#include "suites.h"

static int pipefd[2];
static struct console con;
static unsigned matches;

static void on_match(void *opaque)
{
	ck_assert_ptr_eq(opaque, &matches);
	matches++;
}

static void setup(void)
{
	ck_assert_int_eq(pipe(pipefd), 0);
	ck_assert_int_eq(fcntl(pipefd[0], F_SETFL, O_NONBLOCK), 0);
	/* The longest test writes about 5 KiB: well inside a 64 KiB pipe. */
	matches = 0;
}

static void teardown(void)
{
	console_destroy(&con);
	close(pipefd[0]);
	close(pipefd[1]);
}

static void init(const char *pattern)
{
	char err[128];
	ck_assert_int_eq(console_init(&con, pipefd[1], pattern, on_match, &matches, err, sizeof(err)),
			 0);
}

/* What the console has written out so far, without flushing. */
static size_t written(char *buf, size_t cap)
{
	size_t total = 0;
	for (;;) {
		ssize_t n = read(pipefd[0], buf + total, cap - 1 - total);
		if (n <= 0) {
			ck_assert(n == 0 || errno == EAGAIN);
			break;
		}
		total += (size_t)n;
	}
	buf[total] = '\0';
	return total;
}

static void put(const char *s)
{
	console_write(&con, s, strlen(s));
}

START_TEST(test_lines_pass_through)
{
	init(NULL);
	put("one\ntw");
	char buf[64];
	/* A complete line is written at once; the rest waits for its newline. */
	ck_assert_uint_eq(written(buf, sizeof(buf)), 4);
	ck_assert_str_eq(buf, "one\n");
	put("o\n");
	written(buf, sizeof(buf));
	ck_assert_str_eq(buf, "two\n");
	put("tail");
	console_flush(&con);
	written(buf, sizeof(buf));
	ck_assert_str_eq(buf, "tail");
}
END_TEST

START_TEST(test_expect_complete_line_only)
{
	init("^ready$");
	put("rea");
	ck_assert_uint_eq(matches, 0);
	put("dy");
	/* "ready" is there, but the line is not finished. */
	ck_assert_uint_eq(matches, 0);
	put("\n");
	ck_assert_uint_eq(matches, 1);
	char buf[64];
	written(buf, sizeof(buf));
	ck_assert_str_eq(buf, "ready\n"); /* the output is unchanged by matching */
}
END_TEST

START_TEST(test_expect_once)
{
	init("PASS");
	put("boot\nall PASS\n");
	ck_assert_uint_eq(matches, 1);
	put("PASS again\nPASS\n");
	ck_assert_uint_eq(matches, 1);
}
END_TEST

START_TEST(test_expect_no_match)
{
	init("^PASS$");
	put("PASSED\nnot PASS\n");
	ck_assert_uint_eq(matches, 0);
}
END_TEST

START_TEST(test_bad_regex)
{
	char err[128] = "";
	ck_assert_int_eq(console_init(&con, pipefd[1], "(", on_match, &matches, err, sizeof(err)),
			 -EINVAL);
	ck_assert_uint_gt(strlen(err), 0);
	/* Re-initialise without a pattern so teardown has something valid. */
	init(NULL);
}
END_TEST

START_TEST(test_write_through)
{
	/* A person at a raw terminal sees the prompt at once, though it ends no
	 * line; the matcher still sees the whole line once it ends. */
	init("^login: root$");
	put("log");
	char buf[64];
	ck_assert_uint_eq(written(buf, sizeof(buf)), 0);
	console_set_write_through(&con, true);
	ck_assert_uint_eq(written(buf, sizeof(buf)), 3);
	ck_assert_str_eq(buf, "log");
	put("in: ");
	written(buf, sizeof(buf));
	ck_assert_str_eq(buf, "in: ");
	ck_assert_uint_eq(matches, 0);
	put("root\n");
	written(buf, sizeof(buf));
	ck_assert_str_eq(buf, "root\n");
	ck_assert_uint_eq(matches, 1);
	/* Back to lines: nothing already out is written twice. */
	put("$ ");
	console_set_write_through(&con, false);
	put("ls");
	ck_assert_uint_eq(written(buf, sizeof(buf)), 2);
	ck_assert_str_eq(buf, "$ ");
	put("\n");
	written(buf, sizeof(buf));
	ck_assert_str_eq(buf, "ls\n");
}
END_TEST

START_TEST(test_long_line)
{
	init("^END$");
	/* 5 buffers' worth of one line, one byte at a time. */
	size_t n = 5 * CONSOLE_LINE_MAX + 17;
	char *line = malloc(n + 1);
	ck_assert_ptr_nonnull(line);
	for (size_t i = 0; i < n; i++)
		line[i] = (char)('a' + i % 26);
	line[n] = '\n';
	for (size_t i = 0; i < n; i++) {
		console_write(&con, line + i, 1);
		ck_assert(con.len < CONSOLE_LINE_MAX);
	}
	/* Output is bounded: all but less than one buffer's worth is already out. */
	char *buf = malloc(n + 2);
	ck_assert_ptr_nonnull(buf);
	size_t early = written(buf, n + 2);
	ck_assert_uint_gt(early, n - CONSOLE_LINE_MAX);
	console_write(&con, line + n, 1);
	size_t rest = written(buf + early, n + 2 - early);
	/* Every byte arrives, once, in order. */
	ck_assert_uint_eq(early + rest, n + 1);
	ck_assert_mem_eq(buf, line, n + 1);
	ck_assert_uint_eq(matches, 0);
	/* The console still works line by line afterwards. */
	put("END\n");
	ck_assert_uint_eq(matches, 1);
	free(line);
	free(buf);
}
END_TEST

START_TEST(test_long_line_one_write)
{
	init(NULL);
	size_t n = 3 * CONSOLE_LINE_MAX;
	char *line = malloc(n);
	ck_assert_ptr_nonnull(line);
	memset(line, 'q', n - 1);
	line[n - 1] = '\n';
	console_write(&con, line, n);
	ck_assert_uint_eq(con.len, 0);
	char *buf = malloc(n + 1);
	ck_assert_ptr_nonnull(buf);
	ck_assert_uint_eq(written(buf, n + 1), n);
	ck_assert_mem_eq(buf, line, n);
	free(line);
	free(buf);
}
END_TEST

static bool parse(const char *line, uint64_t *value, char *name)
{
	return console_result_parse(line, name, TESTDEV_NAME_MAX, value);
}

START_TEST(test_result_line_parsed)
{
	char name[TESTDEV_NAME_MAX];
	uint64_t v = 0;
	ck_assert(parse("vmm-result: usecs_per_loop=1234", &v, name));
	ck_assert_str_eq(name, "usecs_per_loop");
	ck_assert_uint_eq(v, 1234);
	/* The guest's tty turns \n into \r\n: the \r is not part of the value. */
	ck_assert(parse("vmm-result: cpu.0:res=7\r", &v, name));
	ck_assert_str_eq(name, "cpu.0:res");
	ck_assert_uint_eq(v, 7);
	ck_assert(parse("vmm-result: max=18446744073709551615", &v, name));
	ck_assert_uint_eq(v, UINT64_MAX);
}
END_TEST

START_TEST(test_result_line_rejected)
{
	char name[TESTDEV_NAME_MAX];
	uint64_t v = 42;
	static const char *const bad[] = {
		"vmm-result:x=1",		   /* no space after the colon */
		" vmm-result: x=1",		   /* not at the start of the line */
		"vmm-result: =1",		   /* empty name */
		"vmm-result: X=1",		   /* upper case is not in the name alphabet */
		"vmm-result: x=",		   /* no value */
		"vmm-result: x=-1",		   /* unsigned only */
		"vmm-result: x=1.5",		   /* integers only */
		"vmm-result: x=18446744073709551616", /* 2^64 */
		"vmm-result: x=1 2",
		/* 48 characters: no room for the NUL in a TESTDEV_NAME_MAX name */
		"vmm-result: abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuv=1",
		"result: x=1",
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		ck_assert_msg(!parse(bad[i], &v, name), "accepted '%s'", bad[i]);
	ck_assert_uint_eq(v, 42);
}
END_TEST

START_TEST(test_console_collects_results)
{
	struct results r;
	results_init(&r);
	init(NULL);
	console_collect_results(&con, &r);
	const char out[] = "boot\nvmm-result: loops=10\r\nvmm-result: loops=12\nvmm-result: unfinished=1";
	console_write(&con, out, sizeof(out) - 1);
	/* The last line has no newline yet: only whole lines count. */
	ck_assert_uint_eq(r.count, 1);
	ck_assert_str_eq(r.item[0].name, "loops");
	ck_assert_uint_eq(r.item[0].value, 12);
	results_destroy(&r);
}
END_TEST

Suite *console_suite(void)
{
	Suite *s = suite_create("console");
	TCase *tc = tcase_create("core");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_lines_pass_through);
	tcase_add_test(tc, test_expect_complete_line_only);
	tcase_add_test(tc, test_expect_once);
	tcase_add_test(tc, test_expect_no_match);
	tcase_add_test(tc, test_bad_regex);
	tcase_add_test(tc, test_write_through);
	tcase_add_test(tc, test_long_line);
	tcase_add_test(tc, test_long_line_one_write);
	tcase_add_test(tc, test_result_line_parsed);
	tcase_add_test(tc, test_result_line_rejected);
	tcase_add_test(tc, test_console_collects_results);
	suite_add_tcase(s, tc);
	return s;
}
