/* Runs every unit-test suite; exits non-zero if any test fails. */
#include <stdlib.h>

#include "suites.h"

int main(void)
{
	Suite *(*const suites[])(void) = {
		guest_mem_suite, io_bus_suite,	 parse_suite,	   config_suite,
		cli_suite,	 elf_loader_suite, boot_pvh_suite, testdev_suite,
		bzimage_suite, boot_linux_suite,
		i8042_suite, terminal_suite,
		debug_exit_suite, serial_suite,	 console_suite,	   cpuid_suite,
		topology_suite,	  cache_suite,	 cpuid_leaves_suite, machine_fdt_suite,
		pvclock_suite,	  kvmclock_suite, vm_pause_suite,
		stats_schema_suite, stats_report_suite, ab_math_suite, control_protocol_suite,
		acpi_suite, acpi_pm_suite, seccomp_suite,
	};
	SRunner *sr = srunner_create(NULL);
	for (size_t i = 0; i < sizeof(suites) / sizeof(suites[0]); i++)
		srunner_add_suite(sr, suites[i]());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
