/* cli: `vmm run [options] KERNEL`; options win over the config file. */
#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "../../vmm/cli.h"
#include "../../vmm/exit_status.h"
#include "suites.h"
#include "unit_util.h"

static struct vm_config cfg;
static char path[256];
static enum cli_command cmd;

/* cli_parse sets optind itself, which glibc does not take as "start over";
 * optind = 0 does (it re-initialises getopt's private state). Each call
 * below starts from a clean getopt. */
static void reset_getopt(void)
{
	static char arg0[] = "reset";
	char *argv[] = { arg0, NULL };
	optind = 0;
	opterr = 0;
	ck_assert_int_eq(getopt(1, argv, ""), -1);
}

#define ARGC(a) ((int)(sizeof(a) / sizeof((a)[0])) - 1)

static int parse(int argc, char **argv)
{
	reset_getopt();
	cmd = (enum cli_command)-1;
	return cli_parse(argc, argv, &cfg, &cmd);
}

static void setup(void)
{
	config_init(&cfg);
	/* Line numbers matter to no test here; the file says cpus = 2. */
	unit_write_temp(path, sizeof(path),
			"[machine]\n"
			"cpus = 2\n"
			"mem = 128M\n"
			"[boot]\n"
			"cmdline = from-file\n"
			"[params]\n"
			"loops = 100\n");
}

static void teardown(void)
{
	config_free(&cfg);
	unlink(path);
}

START_TEST(test_run_kernel)
{
	char *argv[] = { "vmm", "run", "kernel.elf", NULL };
	ck_assert_int_eq(parse(ARGC(argv), argv), 0);
	ck_assert_int_eq(cmd, CLI_RUN);
	ck_assert_str_eq(cfg.kernel, "kernel.elf");
	ck_assert_uint_eq(cfg.smp.cpus, 0); /* not given: derived later (1) */
	ck_assert_uint_eq(cfg.mem_size, 64ULL << 20);
}
END_TEST

START_TEST(test_options)
{
	char *argv[] = { "vmm",	      "run",	  "--cpus",   "4",	   "--mem", "1G",
			 "--cmdline", "a b",	  "--timeout", "500ms",	   "--expect", "^ok$",
			 "k.elf",     NULL };
	ck_assert_int_eq(parse(ARGC(argv), argv), 0);
	ck_assert_int_eq(cmd, CLI_RUN);
	ck_assert_uint_eq(cfg.smp.cpus, 4);
	ck_assert_uint_eq(cfg.mem_size, 1ULL << 30);
	ck_assert_str_eq(cfg.cmdline, "a b");
	ck_assert_uint_eq(cfg.timeout_ms, 500);
	ck_assert_str_eq(cfg.expect, "^ok$");
	ck_assert_str_eq(cfg.kernel, "k.elf");
}
END_TEST

START_TEST(test_report_memory_flag)
{
	char *argv[] = { "vmm", "run", "--report-memory", "k.elf", NULL };
	ck_assert_int_eq(parse(ARGC(argv), argv), 0);
	ck_assert(cfg.report_memory);
	/* A flag takes no value: "--report-memory=off" is a usage error. */
	config_free(&cfg);
	config_init(&cfg);
	char *withval[] = { "vmm", "run", "--report-memory=off", "k.elf", NULL };
	ck_assert_int_eq(parse(ARGC(withval), withval), EXIT_STATUS_USAGE);
}
END_TEST

START_TEST(test_kernel_before_options)
{
	/* GNU getopt permutes: the kernel may come first. */
	char *argv[] = { "vmm", "run", "k.elf", "--cpus", "2", NULL };
	ck_assert_int_eq(parse(ARGC(argv), argv), 0);
	ck_assert_uint_eq(cfg.smp.cpus, 2);
	ck_assert_str_eq(cfg.kernel, "k.elf");
}
END_TEST

START_TEST(test_option_after_config_wins)
{
	char *argv[] = { "vmm", "run", "--config", path, "--cpus", "3", "k.elf", NULL };
	ck_assert_int_eq(parse(ARGC(argv), argv), 0);
	ck_assert_uint_eq(cfg.smp.cpus, 3);
	/* Keys the options do not set come from the file. */
	ck_assert_uint_eq(cfg.mem_size, 128ULL << 20);
	ck_assert_str_eq(cfg.cmdline, "from-file");
	uint64_t v;
	ck_assert(config_param(&cfg, "loops", &v));
	ck_assert_uint_eq(v, 100);
}
END_TEST

START_TEST(test_option_before_config_wins)
{
	char *argv[] = { "vmm", "run", "--cpus", "3", "--config", path, "k.elf", NULL };
	ck_assert_int_eq(parse(ARGC(argv), argv), 0);
	ck_assert_uint_eq(cfg.smp.cpus, 3);
	ck_assert_uint_eq(cfg.mem_size, 128ULL << 20);
}
END_TEST

START_TEST(test_param_overrides_file)
{
	char *argv[] = { "vmm", "run", "--param", "loops=5", "--config", path,
			 "--param", "extra=0x10", "k.elf", NULL };
	ck_assert_int_eq(parse(ARGC(argv), argv), 0);
	uint64_t v;
	ck_assert(config_param(&cfg, "loops", &v));
	ck_assert_uint_eq(v, 5);
	ck_assert(config_param(&cfg, "extra", &v));
	ck_assert_uint_eq(v, 16);
	ck_assert_uint_eq(cfg.nparams, 2);
}
END_TEST

START_TEST(test_bad_param)
{
	char *upper[] = { "vmm", "run", "--param", "Loops=1", "k.elf", NULL };
	ck_assert_int_eq(parse(ARGC(upper), upper), EXIT_STATUS_USAGE);
	char *noeq[] = { "vmm", "run", "--param", "loops", "k.elf", NULL };
	ck_assert_int_eq(parse(ARGC(noeq), noeq), EXIT_STATUS_USAGE);
	char *badval[] = { "vmm", "run", "--param", "loops=ten", "k.elf", NULL };
	ck_assert_int_eq(parse(ARGC(badval), badval), EXIT_STATUS_USAGE);
	char *empty[] = { "vmm", "run", "--param", "=1", "k.elf", NULL };
	ck_assert_int_eq(parse(ARGC(empty), empty), EXIT_STATUS_USAGE);
}
END_TEST

START_TEST(test_unknown_option)
{
	char *argv[] = { "vmm", "run", "--bogus", "k.elf", NULL };
	ck_assert_int_eq(parse(ARGC(argv), argv), EXIT_STATUS_USAGE);
	ck_assert_int_eq(EXIT_STATUS_USAGE, 2);
	char *shortopt[] = { "vmm", "run", "-x", "k.elf", NULL };
	ck_assert_int_eq(parse(ARGC(shortopt), shortopt), EXIT_STATUS_USAGE);
}
END_TEST

START_TEST(test_missing_value)
{
	char *argv[] = { "vmm", "run", "k.elf", "--cpus", NULL };
	ck_assert_int_eq(parse(ARGC(argv), argv), EXIT_STATUS_USAGE);
	char *cfgv[] = { "vmm", "run", "k.elf", "--config", NULL };
	ck_assert_int_eq(parse(ARGC(cfgv), cfgv), EXIT_STATUS_USAGE);
}
END_TEST

START_TEST(test_cpus_zero)
{
	char *argv[] = { "vmm", "run", "--cpus", "0", "k.elf", NULL };
	ck_assert_int_eq(parse(ARGC(argv), argv), EXIT_STATUS_USAGE);
}
END_TEST

START_TEST(test_bad_config_file)
{
	char *argv[] = { "vmm", "run", "--config", "/nonexistent/vmm.ini", "k.elf", NULL };
	ck_assert_int_eq(parse(ARGC(argv), argv), EXIT_STATUS_USAGE);
}
END_TEST

START_TEST(test_commands)
{
	char *help[] = { "vmm", "--help", NULL };
	ck_assert_int_eq(parse(ARGC(help), help), 0);
	ck_assert_int_eq(cmd, CLI_HELP);
	char *version[] = { "vmm", "--version", NULL };
	ck_assert_int_eq(parse(ARGC(version), version), 0);
	ck_assert_int_eq(cmd, CLI_VERSION);
	char *runhelp[] = { "vmm", "run", "--help", NULL };
	ck_assert_int_eq(parse(ARGC(runhelp), runhelp), 0);
	ck_assert_int_eq(cmd, CLI_HELP);
}
END_TEST

START_TEST(test_usage_errors)
{
	char *none[] = { "vmm", NULL };
	ck_assert_int_eq(parse(ARGC(none), none), EXIT_STATUS_USAGE);
	char *unknown[] = { "vmm", "start", "k.elf", NULL };
	ck_assert_int_eq(parse(ARGC(unknown), unknown), EXIT_STATUS_USAGE);
	/* Options without the "run" command. */
	char *nocmd[] = { "vmm", "--cpus", "2", "k.elf", NULL };
	ck_assert_int_eq(parse(ARGC(nocmd), nocmd), EXIT_STATUS_USAGE);
	char *extra[] = { "vmm", "run", "k.elf", "other.elf", NULL };
	ck_assert_int_eq(parse(ARGC(extra), extra), EXIT_STATUS_USAGE);
}
END_TEST

START_TEST(test_repeated_calls)
{
	/* The same process parsing twice (as a test harness does) gets the
	 * second command line's values, not leftovers of the first. */
	char *first[] = { "vmm", "run", "--cpus", "3", "a.elf", NULL };
	ck_assert_int_eq(parse(ARGC(first), first), 0);
	config_free(&cfg);
	config_init(&cfg);
	char *second[] = { "vmm", "run", "b.elf", "--mem", "256M", NULL };
	ck_assert_int_eq(parse(ARGC(second), second), 0);
	ck_assert_uint_eq(cfg.smp.cpus, 0);
	ck_assert_uint_eq(cfg.mem_size, 256ULL << 20);
	ck_assert_str_eq(cfg.kernel, "b.elf");
}
END_TEST

Suite *cli_suite(void)
{
	Suite *s = suite_create("cli");
	TCase *tc = tcase_create("core");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_run_kernel);
	tcase_add_test(tc, test_options);
	tcase_add_test(tc, test_report_memory_flag);
	tcase_add_test(tc, test_kernel_before_options);
	tcase_add_test(tc, test_option_after_config_wins);
	tcase_add_test(tc, test_option_before_config_wins);
	tcase_add_test(tc, test_param_overrides_file);
	tcase_add_test(tc, test_bad_param);
	tcase_add_test(tc, test_unknown_option);
	tcase_add_test(tc, test_missing_value);
	tcase_add_test(tc, test_cpus_zero);
	tcase_add_test(tc, test_bad_config_file);
	tcase_add_test(tc, test_commands);
	tcase_add_test(tc, test_usage_errors);
	tcase_add_test(tc, test_repeated_calls);
	suite_add_tcase(s, tc);
	return s;
}
