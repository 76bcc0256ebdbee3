/* config: defaults, keys set one by one, and INI files. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../vmm/config.h"
#include "suites.h"
#include "unit_util.h"

static struct vm_config cfg;
static char err[CONFIG_ERR_MAX];
static char path[256];

static void setup(void)
{
	config_init(&cfg);
	memset(err, 0, sizeof(err));
	path[0] = '\0';
}

static void teardown(void)
{
	config_free(&cfg);
	if (path[0])
		unlink(path);
}

START_TEST(test_defaults)
{
	/* No topology given: every count 0 ("derive"), which resolves to one
	 * CPU (1 socket x 1 core x 1 thread). */
	ck_assert_uint_eq(cfg.smp.cpus, 0);
	ck_assert_uint_eq(cfg.smp.sockets, 0);
	ck_assert_uint_eq(cfg.smp.cores, 0);
	ck_assert_uint_eq(cfg.smp.threads, 0);
	struct topology topo;
	ck_assert_int_eq(topology_resolve(&cfg.smp, &topo, err, sizeof(err)), 0);
	ck_assert_uint_eq(topo.cpus, 1);
	ck_assert_uint_eq(cfg.mem_size, 64ULL << 20); /* 64 MiB */
	ck_assert_uint_eq(cfg.timeout_ms, 0);
	ck_assert_ptr_null(cfg.kernel);
	ck_assert_ptr_null(cfg.cmdline);
	ck_assert_ptr_null(cfg.expect);
	ck_assert_uint_eq(cfg.nparams, 0);
	ck_assert(!cfg.report_memory);
}
END_TEST

START_TEST(test_load_full_file)
{
	unit_write_temp(path, sizeof(path),
			"; a machine for the unit tests\n"
			"[machine]\n"
			"cpus = 2\n"
			"mem = 128M\n"
			"[boot]\n"
			"kernel = /boot/k.elf\n"
			"cmdline = console=ttyS0 quiet\n"
			"[run]\n"
			"timeout = 2m\n"
			"expect = ^PASS$\n"
			"report-memory = yes\n"
			"[params]\n"
			"loops = 100\n"
			"stride = 0x40\n");
	ck_assert_msg(config_load_file(&cfg, path, err, sizeof(err)) == 0, "%s", err);
	ck_assert_uint_eq(cfg.smp.cpus, 2);
	ck_assert_uint_eq(cfg.mem_size, 128ULL << 20);
	ck_assert_str_eq(cfg.kernel, "/boot/k.elf");
	ck_assert_str_eq(cfg.cmdline, "console=ttyS0 quiet");
	ck_assert_uint_eq(cfg.timeout_ms, 120000); /* 2 * 60 * 1000 */
	ck_assert_str_eq(cfg.expect, "^PASS$");
	ck_assert(cfg.report_memory);
	uint64_t v = 0;
	ck_assert(config_param(&cfg, "loops", &v));
	ck_assert_uint_eq(v, 100);
	ck_assert(config_param(&cfg, "stride", &v));
	ck_assert_uint_eq(v, 0x40);
	ck_assert(!config_param(&cfg, "missing", &v));
	ck_assert_uint_eq(cfg.nparams, 2);
}
END_TEST

/* err must be "config PATH:LINE: ..." and mention `word`. */
static void assert_error_at(int line, const char *word)
{
	char where[300];
	snprintf(where, sizeof(where), "%s:%d:", path, line);
	ck_assert_msg(strstr(err, where) != NULL, "error '%s' does not name %s", err, where);
	ck_assert_msg(strstr(err, word) != NULL, "error '%s' does not mention '%s'", err, word);
}

START_TEST(test_unknown_key_first_error_line)
{
	unit_write_temp(path, sizeof(path),
			"[machine]\n"     /* 1 */
			"cpus = 2\n"      /* 2 */
			"bogus = 1\n"     /* 3: the first error */
			"[nosuch]\n"      /* 4 */
			"other = 1\n");   /* 5: a second error, not reported */
	ck_assert_int_eq(config_load_file(&cfg, path, err, sizeof(err)), -1);
	assert_error_at(3, "bogus");
	ck_assert_ptr_null(strstr(err, "other"));
}
END_TEST

START_TEST(test_unknown_section)
{
	unit_write_temp(path, sizeof(path),
			"[machine]\n"     /* 1 */
			"cpus = 1\n"      /* 2 */
			"\n"              /* 3 */
			"[nosuch]\n"      /* 4 */
			"key = 1\n");     /* 5: the first key of the unknown section */
	ck_assert_int_eq(config_load_file(&cfg, path, err, sizeof(err)), -1);
	assert_error_at(5, "nosuch");
}
END_TEST

START_TEST(test_key_in_wrong_section)
{
	unit_write_temp(path, sizeof(path),
			"[boot]\n"        /* 1 */
			"cpus = 2\n");    /* 2: cpus belongs to [machine] */
	ck_assert_int_eq(config_load_file(&cfg, path, err, sizeof(err)), -1);
	assert_error_at(2, "cpus");
}
END_TEST

START_TEST(test_bad_value)
{
	unit_write_temp(path, sizeof(path),
			"[machine]\n"      /* 1 */
			"cpus = 1\n"       /* 2 */
			"mem = lots\n");   /* 3 */
	ck_assert_int_eq(config_load_file(&cfg, path, err, sizeof(err)), -1);
	assert_error_at(3, "lots");
}
END_TEST

START_TEST(test_bad_param_in_file)
{
	unit_write_temp(path, sizeof(path),
			"[params]\n"       /* 1 */
			"ok = 1\n"         /* 2 */
			"Loops = 1\n");    /* 3: uppercase is not allowed */
	ck_assert_int_eq(config_load_file(&cfg, path, err, sizeof(err)), -1);
	assert_error_at(3, "Loops");
}
END_TEST

START_TEST(test_bad_param_value_in_file)
{
	unit_write_temp(path, sizeof(path),
			"[params]\n"       /* 1 */
			"loops = many\n"); /* 2 */
	ck_assert_int_eq(config_load_file(&cfg, path, err, sizeof(err)), -1);
	assert_error_at(2, "many");
}
END_TEST

START_TEST(test_syntax_error)
{
	unit_write_temp(path, sizeof(path),
			"[machine]\n"      /* 1 */
			"cpus = 1\n"       /* 2 */
			"not a key line\n"); /* 3 */
	ck_assert_int_eq(config_load_file(&cfg, path, err, sizeof(err)), -1);
	assert_error_at(3, "syntax");
}
END_TEST

START_TEST(test_missing_file)
{
	ck_assert_int_eq(config_load_file(&cfg, "/nonexistent/vmm.ini", err, sizeof(err)), -1);
	ck_assert_ptr_nonnull(strstr(err, "/nonexistent/vmm.ini"));
}
END_TEST

START_TEST(test_config_set)
{
	ck_assert_int_eq(config_set(&cfg, "cpus", "4", err, sizeof(err)), 0);
	ck_assert_uint_eq(cfg.smp.cpus, 4);
	ck_assert_int_eq(config_set(&cfg, "cpus", "4096", err, sizeof(err)), 0);
	ck_assert_uint_eq(cfg.smp.cpus, 4096);
	ck_assert_int_eq(config_set(&cfg, "mem", "1G", err, sizeof(err)), 0);
	ck_assert_uint_eq(cfg.mem_size, 1ULL << 30);
	ck_assert_int_eq(config_set(&cfg, "timeout", "500ms", err, sizeof(err)), 0);
	ck_assert_uint_eq(cfg.timeout_ms, 500);
	ck_assert_int_eq(config_set(&cfg, "cmdline", "a b  c", err, sizeof(err)), 0);
	ck_assert_str_eq(cfg.cmdline, "a b  c");
	ck_assert_int_eq(config_set(&cfg, "cmdline", "replaced", err, sizeof(err)), 0);
	ck_assert_str_eq(cfg.cmdline, "replaced");
}
END_TEST

START_TEST(test_config_set_rejects)
{
	ck_assert_int_eq(config_set(&cfg, "cpus", "0", err, sizeof(err)), -1);
	ck_assert_ptr_nonnull(strstr(err, "cpus"));
	ck_assert_int_eq(config_set(&cfg, "cpus", "4097", err, sizeof(err)), -1);
	ck_assert_int_eq(config_set(&cfg, "cpus", "two", err, sizeof(err)), -1);
	ck_assert_uint_eq(cfg.smp.cpus, 0);
	ck_assert_int_eq(config_set(&cfg, "mem", "0", err, sizeof(err)), -1);
	/* 1000 bytes is not a whole number of 4 KiB pages. */
	ck_assert_int_eq(config_set(&cfg, "mem", "1000", err, sizeof(err)), -1);
	ck_assert_ptr_nonnull(strstr(err, "4 KiB"));
	ck_assert_uint_eq(cfg.mem_size, 64ULL << 20);
	ck_assert_int_eq(config_set(&cfg, "timeout", "1d", err, sizeof(err)), -1);
	ck_assert_int_eq(config_set(&cfg, "report-memory", "maybe", err, sizeof(err)), -1);
	ck_assert(!cfg.report_memory);
	ck_assert_int_eq(config_set(&cfg, "nosuch", "1", err, sizeof(err)), -1);
	ck_assert_ptr_nonnull(strstr(err, "nosuch"));
}
END_TEST

START_TEST(test_smp)
{
	/* QEMU's -smp spelling: a bare number is cpus. */
	ck_assert_msg(config_set(&cfg, "smp", "8,sockets=2,threads=2", err, sizeof(err)) == 0, "%s",
		      err);
	ck_assert_uint_eq(cfg.smp.cpus, 8);
	ck_assert_uint_eq(cfg.smp.sockets, 2);
	ck_assert_uint_eq(cfg.smp.threads, 2);
	ck_assert_uint_eq(cfg.smp.cores, 0);
	ck_assert_int_eq(config_set(&cfg, "smp", "cores=4", err, sizeof(err)), 0);
	ck_assert_uint_eq(cfg.smp.cores, 4);
	ck_assert_int_eq(config_set(&cfg, "smp", "dies=2", err, sizeof(err)), -1);
	ck_assert_ptr_nonnull(strstr(err, "dies"));
	ck_assert_int_eq(config_set(&cfg, "smp", "", err, sizeof(err)), -1);
	ck_assert_int_eq(config_set(&cfg, "smp", "sockets=0", err, sizeof(err)), -1);
	ck_assert_int_eq(config_set(&cfg, "cores", "0", err, sizeof(err)), -1);
	ck_assert_int_eq(config_set(&cfg, "threads", "x", err, sizeof(err)), -1);
}
END_TEST

START_TEST(test_has_key)
{
	ck_assert(config_has_key("cpus"));
	ck_assert(config_has_key("mem"));
	ck_assert(config_has_key("cmdline"));
	ck_assert(config_has_key("timeout"));
	ck_assert(config_has_key("expect"));
	ck_assert(config_has_key("param"));
	ck_assert(config_has_key("report-memory"));
	ck_assert(!config_has_key("config"));
	ck_assert(!config_has_key("nosuch"));
}
END_TEST

START_TEST(test_param_names)
{
	uint64_t v;
	ck_assert_int_eq(config_set(&cfg, "param", "a.b_c-9=7", err, sizeof(err)), 0);
	ck_assert(config_param(&cfg, "a.b_c-9", &v));
	ck_assert_uint_eq(v, 7);
	/* Setting it again replaces the value, not adds a second entry. */
	ck_assert_int_eq(config_set(&cfg, "param", "a.b_c-9=8", err, sizeof(err)), 0);
	ck_assert(config_param(&cfg, "a.b_c-9", &v));
	ck_assert_uint_eq(v, 8);
	ck_assert_uint_eq(cfg.nparams, 1);

	/* 47 characters + NUL fill the 48-byte name exactly. */
	char name[80];
	memset(name, 'n', 47);
	strcpy(name + 47, "=1");
	ck_assert_int_eq(config_set(&cfg, "param", name, err, sizeof(err)), 0);
	/* 48 characters leave no room for the NUL. */
	memset(name, 'n', 48);
	strcpy(name + 48, "=1");
	ck_assert_int_eq(config_set(&cfg, "param", name, err, sizeof(err)), -1);

	ck_assert_int_eq(config_set(&cfg, "param", "Upper=1", err, sizeof(err)), -1);
	ck_assert_int_eq(config_set(&cfg, "param", "sp ace=1", err, sizeof(err)), -1);
	ck_assert_int_eq(config_set(&cfg, "param", "=1", err, sizeof(err)), -1);
	ck_assert_int_eq(config_set(&cfg, "param", "novalue", err, sizeof(err)), -1);
	ck_assert_int_eq(config_set(&cfg, "param", "x=", err, sizeof(err)), -1);
	ck_assert_int_eq(config_set(&cfg, "param", "x=-1", err, sizeof(err)), -1);
	ck_assert_uint_eq(cfg.nparams, 2);
}
END_TEST

START_TEST(test_too_many_params)
{
	char arg[32];
	for (unsigned i = 0; i < CONFIG_MAX_PARAMS; i++) {
		snprintf(arg, sizeof(arg), "p%u=%u", i, i);
		ck_assert_int_eq(config_set(&cfg, "param", arg, err, sizeof(err)), 0);
	}
	ck_assert_int_eq(config_set(&cfg, "param", "onemore=1", err, sizeof(err)), -1);
	/* An existing name can still be updated. */
	ck_assert_int_eq(config_set(&cfg, "param", "p0=99", err, sizeof(err)), 0);
	uint64_t v;
	ck_assert(config_param(&cfg, "p0", &v));
	ck_assert_uint_eq(v, 99);
	ck_assert(config_param(&cfg, "p31", &v));
	ck_assert_uint_eq(v, 31);
}
END_TEST

Suite *config_suite(void)
{
	Suite *s = suite_create("config");
	TCase *tc = tcase_create("core");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_defaults);
	tcase_add_test(tc, test_load_full_file);
	tcase_add_test(tc, test_unknown_key_first_error_line);
	tcase_add_test(tc, test_unknown_section);
	tcase_add_test(tc, test_key_in_wrong_section);
	tcase_add_test(tc, test_bad_value);
	tcase_add_test(tc, test_bad_param_in_file);
	tcase_add_test(tc, test_bad_param_value_in_file);
	tcase_add_test(tc, test_syntax_error);
	tcase_add_test(tc, test_missing_file);
	tcase_add_test(tc, test_config_set);
	tcase_add_test(tc, test_config_set_rejects);
	tcase_add_test(tc, test_smp);
	tcase_add_test(tc, test_has_key);
	tcase_add_test(tc, test_param_names);
	tcase_add_test(tc, test_too_many_params);
	suite_add_tcase(s, tc);
	return s;
}
