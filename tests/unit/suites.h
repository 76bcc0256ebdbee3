/* The unit-test suites, one per module under test; main.c runs them all. */
#ifndef TESTS_UNIT_SUITES_H
#define TESTS_UNIT_SUITES_H

#include <check.h>

Suite *guest_mem_suite(void);
Suite *io_bus_suite(void);
Suite *parse_suite(void);
Suite *config_suite(void);
Suite *cli_suite(void);
Suite *elf_loader_suite(void);
Suite *boot_pvh_suite(void);
Suite *bzimage_suite(void);
Suite *boot_linux_suite(void);
Suite *testdev_suite(void);
Suite *debug_exit_suite(void);
Suite *serial_suite(void);
Suite *i8042_suite(void);
Suite *terminal_suite(void);
Suite *console_suite(void);
Suite *cpuid_suite(void);
Suite *topology_suite(void);
Suite *cache_suite(void);
Suite *cpuid_leaves_suite(void);
Suite *machine_fdt_suite(void);
Suite *pvclock_suite(void);
Suite *kvmclock_suite(void);
Suite *vm_pause_suite(void);
Suite *stats_schema_suite(void);
Suite *stats_report_suite(void);
Suite *ab_math_suite(void);
Suite *control_protocol_suite(void);
Suite *acpi_suite(void);
Suite *acpi_pm_suite(void);
Suite *seccomp_suite(void);

#endif
