/* A virtual machine: everything one run owns, built by one linear boot
 * sequence (config -> KVM VM -> memory -> devices -> kernel -> vCPUs) and
 * torn down in reverse. */
#include "vm.h"

#include <elf.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "../cpu/cpuid.h"
#include "../devices/debug_exit.h"
#include "acpi.h"
#include "boot_linux.h"
#include "boot_pvh.h"
#include "bzimage.h"
#include "elf_loader.h"
#include "exit_status.h"
#include "file.h"
#include "host.h"
#include "layout.h"
#include "log.h"
#include "machine_fdt.h"
#include "main_loop.h"
#include "seccomp.h"
#include "stats_report.h"
#include "vm_control.h"
#include "memory_report.h"

/* Stages of vm_create, in order; vm_destroy unwinds from `built` down. */
enum vm_stage {
	BUILT_NOTHING,
	BUILT_STOP,
	BUILT_KVM,
	BUILT_VM_FD,
	BUILT_MEMORY,
	BUILT_DEVICES,
	BUILT_VCPUS,
	BUILT_CONTROL,
};

static int usage_error(const char *what, const char *why)
{
	vmm_log("%s: %s", what, why);
	return EXIT_STATUS_USAGE;
}

/* The machine model, from the config and what KVM says the host offers. */
static int build_machine(struct vm *vm)
{
	char err[CONFIG_ERR_MAX];
	vm->host_cpuid = cpuid_get_supported(vm->kvm.fd);
	if (!vm->host_cpuid)
		return EXIT_STATUS_VM_FAILURE;
	if (machine_build(&vm->machine, vm->cfg, vm->host_cpuid, err, sizeof(err)) < 0)
		return usage_error("--smp", err);
	return 0;
}

static int check_machine_fits(struct vm *vm)
{
	char why[128];
	const struct topology *t = &vm->machine.cpu.topo;
	if (t->cpus > (unsigned)vm->kvm.max_vcpus) {
		snprintf(why, sizeof(why), "%u vCPUs, but KVM supports at most %d", t->cpus,
			 vm->kvm.max_vcpus);
		return usage_error("--cpus", why);
	}
	/* Sparse APIC IDs (3 cores use 2 bits) can exceed the count. */
	uint32_t last_apic_id = topology_apic_id(t, t->cpus - 1);
	if (last_apic_id >= (uint32_t)vm->kvm.max_vcpu_id) {
		snprintf(why, sizeof(why), "APIC ID %u, but KVM allows IDs below %d", last_apic_id,
			 vm->kvm.max_vcpu_id);
		return usage_error("--smp", why);
	}
	uint64_t host_ram = host_memory_bytes();
	if (host_ram && vm->cfg->mem_size > host_ram) {
		snprintf(why, sizeof(why), "%llu MiB is more than the host's %llu MiB",
			 (unsigned long long)(vm->cfg->mem_size >> 20),
			 (unsigned long long)(host_ram >> 20));
		return usage_error("--mem", why);
	}
	return 0;
}

static int create_vm_fd(struct vm *vm)
{
	vm->fd = kvm_ioctl(vm->kvm.fd, KVM_CREATE_VM, 0);
	if (vm->fd < 0)
		return EXIT_STATUS_VM_FAILURE;
	/* Intel needs the TSS (and identity map) pages set before the first run;
	 * AMD accepts and ignores them. Both sit in the MMIO hole, never RAM. */
	if (kvm_ioctl(vm->fd, KVM_SET_TSS_ADDR, (void *)(uintptr_t)KVM_TSS_ADDR) < 0)
		return EXIT_STATUS_VM_FAILURE;
	uint64_t identity = KVM_IDENTITY_MAP_ADDR;
	if (kvm_ioctl(vm->fd, KVM_SET_IDENTITY_MAP_ADDR, &identity) < 0)
		return EXIT_STATUS_VM_FAILURE;
	/* The in-kernel LAPIC/IOAPIC/PIC and PIT: interrupts, IPIs, INIT-SIPI
	 * and HLT are handled in KVM, never in user space. */
	if (kvm_ioctl(vm->fd, KVM_CREATE_IRQCHIP, NULL) < 0)
		return EXIT_STATUS_VM_FAILURE;
	struct kvm_pit_config pit = { .flags = 0 };
	if (kvm_ioctl(vm->fd, KVM_CREATE_PIT2, &pit) < 0)
		return EXIT_STATUS_VM_FAILURE;
	return 0;
}

static int create_memory(struct vm *vm)
{
	int rc = guest_mem_alloc(&vm->mem, vm->cfg->mem_size);
	if (rc < 0)
		return usage_error("--mem", "cannot map that much guest RAM");
	if (guest_mem_register(&vm->mem, vm->fd) < 0) {
		vmm_log("KVM_SET_USER_MEMORY_REGION: %s", strerror(errno));
		return EXIT_STATUS_VM_FAILURE;
	}
	return 0;
}

/* Answers the test device's parameter requests: the machine's own facts
 * first, then the user's --param values. */
static bool vm_param(void *opaque, const char *name, uint64_t *value)
{
	struct vm *vm = opaque;
	if (strcmp(name, "cpus") == 0) {
		*value = vm->nvcpus;
		return true;
	}
	if (strcmp(name, "mem") == 0) {
		*value = vm->mem.ram_size;
		return true;
	}
	if (strcmp(name, "fdt_addr") == 0 || strcmp(name, "fdt_size") == 0) {
		*value = strcmp(name, "fdt_addr") == 0 ? FDT_ADDR : vm->fdt_size;
		return vm->fdt_size != 0;
	}
	return config_param(vm->cfg, name, value);
}

static void vm_guest_pause_cycle(void *opaque, uint32_t ms)
{
	struct vm *vm = opaque;
	vm_pause_guest_cycle(&vm->pause, ms);
}

static void on_expect_match(void *opaque)
{
	struct vm *vm = opaque;
	vm_stop_request(&vm->stop, STOP_EXPECT, EXIT_STATUS_OK);
}

/* The UART's interrupt line: COM1's IRQ 4 on the in-kernel PIC and IOAPIC. */
static void serial_set_irq(void *opaque, bool level)
{
	struct vm *vm = opaque;
	struct kvm_irq_level irq = { .irq = SERIAL_COM1_IRQ, .level = level };
	/* Fails only on a VM without an irqchip, which vmm never builds; the
	 * guest then sees a UART without interrupts, as Linux can cope with. */
	static bool said; /* callbacks run under the UART's lock */
	if (ioctl(vm->fd, KVM_IRQ_LINE, &irq) < 0 && !said) {
		said = true;
		vmm_log("KVM_IRQ_LINE (serial): %s", strerror(errno));
	}
}

/* The UART can take host input again: wake the main loop. */
static void serial_input_room(void *opaque)
{
	struct vm *vm = opaque;
	terminal_wake(&vm->terminal);
}

static int create_devices(struct vm *vm)
{
	char err[CONFIG_ERR_MAX];
	/* First, so that vm_destroy never closes a wake fd left at zero. */
	if (terminal_init(&vm->terminal, STDIN_FILENO, STDOUT_FILENO) < 0) {
		vmm_log("eventfd: %s", strerror(errno));
		return EXIT_STATUS_VM_FAILURE;
	}
	if (console_init(&vm->console, STDOUT_FILENO, vm->cfg->expect, on_expect_match, vm, err,
			 sizeof(err)) < 0)
		return usage_error("--expect", err);
	results_init(&vm->results);
	console_collect_results(&vm->console, &vm->results);
	if (serial_init(&vm->serial, &vm->pio, SERIAL_COM1_BASE, &vm->console, serial_set_irq,
			serial_input_room, vm) < 0 ||
	    i8042_init(&vm->i8042, &vm->pio, &vm->stop) < 0 ||
	    acpi_pm_init(&vm->acpi_pm, &vm->pio, &vm->stop) < 0 ||
	    debug_exit_init(&vm->pio, &vm->stop) < 0 ||
	    testdev_init(&vm->testdev, &vm->pio, &vm->mem, &vm->results,
			 &(struct testdev_host){ vm_param, vm_guest_pause_cycle, vm }) < 0) {
		vmm_log("device registration failed: overlapping ports");
		return EXIT_STATUS_VM_FAILURE;
	}
	return 0;
}

/* How the BSP starts: load_kernel decides, create_vcpus applies it. */
struct boot_entry {
	bool linux64;       /* a bzImage's 64-bit entry (boot_linux.c) */
	uint64_t pvh_entry; /* else an ELF kernel's PVH entry */
};

/* A bzImage's command line when none is given: the console on the 16550A
 * vmm emulates; reboot=k, a reboot through the i8042 reset line, which vmm
 * turns into a clean exit (Linux's other reboot methods would need a BIOS,
 * ACPI reset registers or a triple fault); pci=off, as vmm has no PCI bus
 * and probing for one only slows the boot. */
#define LINUX_DEFAULT_CMDLINE "console=ttyS0 reboot=k pci=off"

static int load_linux(struct vm *vm, const void *image, size_t size, struct boot_entry *entry)
{
	static const char *const culprit[] = {
		[LINUX_FAULT_MEM] = "--mem",
		[LINUX_FAULT_CMDLINE] = "--cmdline",
		[LINUX_FAULT_INITRD] = "--initrd",
	};
	char err[256];
	struct bzimage kernel;
	if (bzimage_parse(image, size, &kernel, err, sizeof(err)) < 0)
		return usage_error(vm->cfg->kernel, err);
	void *initrd = NULL;
	size_t initrd_size = 0;
	if (vm->cfg->initrd && file_read_all(vm->cfg->initrd, vm->mem.ram_size, &initrd,
					     &initrd_size, err, sizeof(err)) < 0)
		return usage_error("--initrd", err);
	struct linux_boot boot = {
		.kernel = &kernel,
		.cmdline = vm->cfg->cmdline ? vm->cfg->cmdline : LINUX_DEFAULT_CMDLINE,
		.initrd = initrd,
		.initrd_size = initrd_size,
		.acpi_rsdp_addr = ACPI_TABLES_ADDR, /* write_acpi put the RSDP first there */
	};
	enum linux_fault fault = linux_load(&vm->mem, &boot, err, sizeof(err));
	free(initrd);
	if (fault != LINUX_FAULT_NONE)
		return usage_error(culprit[fault], err);
	*entry = (struct boot_entry){ .linux64 = true };
	return 0;
}

static int load_elf(struct vm *vm, const void *image, size_t size, struct boot_entry *entry)
{
	char err[256];
	struct kernel_entry elf;
	if (size < SELFMAG || memcmp(image, ELFMAG, SELFMAG) != 0)
		return usage_error(vm->cfg->kernel,
				   "not an ELF file nor a Linux bzImage (no \"HdrS\" magic at 0x202)");
	if (vm->cfg->initrd)
		return usage_error("--initrd", "only a Linux bzImage takes an initrd, and "
					       "the kernel is an ELF file");
	if (elf_load(image, size, &vm->mem, &elf, err, sizeof(err)) < 0)
		return usage_error(vm->cfg->kernel, err);
	if (pvh_write_boot_info(&vm->mem, vm->cfg->cmdline, err, sizeof(err)) < 0)
		return usage_error("--cmdline", err);
	*entry = (struct boot_entry){ .linux64 = false, .pvh_entry = elf.entry };
	return 0;
}

/* A bzImage has "HdrS" at 0x202 (boot.rst); anything else is taken for ELF. */
static int load_kernel(struct vm *vm, struct boot_entry *entry)
{
	char err[256];
	void *image;
	size_t size;
	if (!vm->cfg->kernel)
		return usage_error("kernel", "no kernel given (vmm run [options] KERNEL)");
	if (file_read_all(vm->cfg->kernel, vm->mem.ram_size, &image, &size, err, sizeof(err)) < 0)
		return usage_error("kernel", err);
	int rc = bzimage_detect(image, size) ? load_linux(vm, image, size, entry)
					     : load_elf(vm, image, size, entry);
	free(image);
	return rc;
}

/* The machine description, in guest memory for the test kernels. */
static int write_fdt(struct vm *vm)
{
	void *fdt = guest_mem_ptr(&vm->mem, FDT_ADDR, FDT_MAX_SIZE);
	if (!fdt)
		return usage_error("--mem", "too small for the machine description");
	int size = machine_fdt_build(&vm->machine, &vm->mem, fdt, FDT_MAX_SIZE);
	if (size < 0) {
		vmm_log("machine description larger than %llu KiB", FDT_MAX_SIZE >> 10);
		return EXIT_STATUS_VM_FAILURE;
	}
	vm->fdt_size = (uint32_t)size;
	return 0;
}

/* The ACPI tables a Linux guest finds its vCPUs and its power-off in (test
 * kernels ignore them): written for every kernel, it costs a few hundred
 * bytes of the BIOS area. */
static int write_acpi(struct vm *vm)
{
	int rc = acpi_write(&vm->machine, &vm->mem);
	if (rc == -EFAULT)
		return usage_error("--mem", "too small for the ACPI tables (0xe0000-0xeffff)");
	if (rc < 0) {
		vmm_log("ACPI tables larger than %llu KiB", ACPI_TABLES_MAX >> 10);
		return EXIT_STATUS_VM_FAILURE;
	}
	return 0;
}

static int create_vcpus(struct vm *vm, const struct boot_entry *entry)
{
	unsigned n = vm->machine.cpu.topo.cpus;
	vm->vcpus = calloc(n, sizeof(*vm->vcpus));
	vm->vcpu_fds = calloc(n, sizeof(*vm->vcpu_fds));
	if (!vm->vcpus || !vm->vcpu_fds)
		return EXIT_STATUS_VM_FAILURE;
	for (unsigned i = 0; i < n; i++) {
		vm->nvcpus = i + 1;
		if (vcpu_create(vm, &vm->vcpus[i], i) < 0)
			return EXIT_STATUS_VM_FAILURE;
		vm->vcpu_fds[i] = vm->vcpus[i].fd;
	}
	if (kvmclock_init(&vm->kvmclock, vm->fd, vm->vcpu_fds, n, &vm->mem,
			  vm->cfg->kvmclock_guest_view) < 0)
		return EXIT_STATUS_VM_FAILURE;
	/* Only the BSP starts at the kernel entry; the APs wait in KVM for the
	 * guest's INIT-SIPI-SIPI, as on hardware. */
	int rc = entry->linux64 ? vcpu_set_linux_entry(&vm->vcpus[0])
				: vcpu_set_pvh_entry(&vm->vcpus[0], entry->pvh_entry);
	if (rc < 0)
		return EXIT_STATUS_VM_FAILURE;
	return 0;
}

int vm_create(struct vm *vm, const struct vm_config *cfg)
{
	char err[256];
	memset(vm, 0, sizeof(*vm));
	vm->cfg = cfg;
	vm->fd = -1;
	vm->kvm.fd = -1;
	vm->control.listen_fd = -1;
	vm->stop.event_fd = -1;
	vm->pause.event_fd = -1;
	struct boot_entry entry;
	int rc;

	vm->built = BUILT_STOP;
	if (vm_stop_init(&vm->stop) < 0 || vm_pause_init(&vm->pause) < 0)
		return EXIT_STATUS_VM_FAILURE;
	if (kvm_open(&vm->kvm, "/dev/kvm", err, sizeof(err)) < 0) {
		vmm_log("%s", err);
		return EXIT_STATUS_USAGE;
	}
	vm->built = BUILT_KVM;
	if ((rc = build_machine(vm)) != 0 || (rc = check_machine_fits(vm)) != 0)
		return rc;
	/* Each stage is marked built before it runs: teardown copes with a
	 * stage that stopped half-way (every destructor accepts zeroed state). */
	vm->built = BUILT_VM_FD;
	if ((rc = create_vm_fd(vm)) != 0)
		return rc;
	vm->built = BUILT_MEMORY;
	if ((rc = create_memory(vm)) != 0)
		return rc;
	vm->built = BUILT_DEVICES;
	if ((rc = create_devices(vm)) != 0)
		return rc;
	if ((rc = write_fdt(vm)) != 0 || (rc = write_acpi(vm)) != 0)
		return rc;
	if (vm->cfg->dump_dtb)
		return 0; /* vm_run writes it out instead of running */
	if ((rc = load_kernel(vm, &entry)) != 0)
		return rc;
	vm->built = BUILT_VCPUS;
	if ((rc = create_vcpus(vm, &entry)) != 0)
		return rc;
	vm->built = BUILT_CONTROL;
	return vm_control_open(vm);
}

/* The exit status the shell sees, from how the VM stopped. */
static int final_status(struct vm *vm)
{
	int status = vm->stop.status;
	enum stop_reason reason = vm->stop.reason;
	bool guest_ended = reason == STOP_GUEST_EXIT || reason == STOP_POWEROFF;
	if (vm->cfg->expect && guest_ended) {
		/* The guest's own status is kept when it says something; a clean
		 * end is still a failure of the smoke test. */
		vmm_log("the guest ended before its console matched --expect");
		if (status == EXIT_STATUS_OK)
			status = EXIT_STATUS_VM_FAILURE;
	}
	return status;
}

/* --dump-dtb: the FDT the guest would get, to a file; the VM does not run. */
static int dump_dtb(struct vm *vm)
{
	const void *fdt = guest_mem_ptr(&vm->mem, FDT_ADDR, vm->fdt_size);
	FILE *f = fopen(vm->cfg->dump_dtb, "wb");
	if (!f)
		return usage_error(vm->cfg->dump_dtb, strerror(errno));
	bool ok = fwrite(fdt, 1, vm->fdt_size, f) == vm->fdt_size;
	ok = fclose(f) == 0 && ok;
	if (!ok) {
		remove(vm->cfg->dump_dtb);
		return usage_error(vm->cfg->dump_dtb, "write failed");
	}
	return EXIT_STATUS_OK;
}

/* KVM's statistics, when asked for by --stats, --stats-json or a control
 * socket (whose clients may ask live). */
static void start_stats(struct vm *vm)
{
	char err[256];
	if (!vm->cfg->stats && !vm->cfg->stats_json && !vm->cfg->control)
		return;
	if (ioctl(vm->kvm.fd, KVM_CHECK_EXTENSION, KVM_CAP_BINARY_STATS_FD) <= 0) {
		vmm_log("KVM statistics: not available on this kernel (no KVM_CAP_BINARY_STATS_FD)");
		return;
	}
	if (vm_stats_open(&vm->stats, vm->vcpu_fds, vm->nvcpus, err, sizeof(err)) < 0 ||
	    vm_stats_sample(&vm->stats) < 0) {
		vmm_log("KVM statistics: %s", err);
		vm_stats_close(&vm->stats);
		return;
	}
	vm->have_stats = true;
}

static void report_stats(struct vm *vm)
{
	if (!vm->have_stats || vm_stats_sample(&vm->stats) < 0)
		return;
	if (vm->cfg->stats)
		stats_report_table(&vm->stats, stderr);
	if (vm->cfg->stats_json)
		stats_report_write_json(&vm->stats, vm->cfg->stats_json);
}

int vm_run(struct vm *vm)
{
	if (vm->cfg->dump_dtb)
		return dump_dtb(vm);
	/* Said once the input is known good, and only to who chose "off". */
	const char *caveat = machine_l3_caveat(&vm->machine, vm->host_cpuid);
	if (caveat && vm->cfg->l3 == L3_OFF)
		vmm_log("%s", caveat);
	start_stats(vm);
	/* Raw only while the guest runs: set-up errors and the final report
	 * print on the terminal as the user had it. */
	terminal_enter(&vm->terminal);
	console_set_write_through(&vm->console, vm->terminal.raw);
	/* Seccomp (seccomp.h): each vCPU thread loads its own filter as it
	 * starts; the main thread's comes after the last thread is created,
	 * which a thread would otherwise inherit. */
	bool filters = !vm->cfg->seccomp_off;
	if (filters && seccomp_prepare() < 0)
		vm_stop_request(&vm->stop, STOP_VM_ERROR, EXIT_STATUS_VM_FAILURE);
	for (unsigned i = 0; i < vm->nvcpus && !vm_stop_requested(&vm->stop); i++) {
		if (vcpu_start(&vm->vcpus[i]) < 0) {
			vm_stop_request(&vm->stop, STOP_VM_ERROR, EXIT_STATUS_VM_FAILURE);
			break;
		}
	}
	if (filters && !vm_stop_requested(&vm->stop) &&
	    seccomp_load_thread(seccomp_main_filter(), "main") < 0)
		vm_stop_request(&vm->stop, STOP_VM_ERROR, EXIT_STATUS_VM_FAILURE);
	main_loop_run(vm);
	terminal_leave(&vm->terminal);
	console_set_write_through(&vm->console, false);
	vm_pause_shutdown(&vm->pause); /* a paused VM ends too */
	for (unsigned i = 0; i < vm->nvcpus; i++)
		vcpu_kick(&vm->vcpus[i]);
	for (unsigned i = 0; i < vm->nvcpus; i++)
		vcpu_join(&vm->vcpus[i]);
	console_flush(&vm->console);
	results_print(&vm->results, stderr);
	report_stats(vm);
	if (vm->cfg->report_memory)
		memory_report_print(&vm->mem, stderr);
	return final_status(vm);
}

int vm_pause_all(struct vm *vm)
{
	vm_pause_request(&vm->pause);
	for (unsigned i = 0; i < vm->nvcpus; i++)
		vcpu_kick(&vm->vcpus[i]);
	vm_pause_wait_parked(&vm->pause, vm->nvcpus);
	return kvmclock_pause(&vm->kvmclock);
}

int vm_resume_all(struct vm *vm)
{
	int rc = kvmclock_resume(&vm->kvmclock);
	vm_pause_resume(&vm->pause);
	return rc;
}

void vm_destroy(struct vm *vm)
{
	switch ((enum vm_stage)vm->built) {
	case BUILT_CONTROL:
		control_close(&vm->control);
		/* fall through */
	case BUILT_VCPUS:
		if (vm->have_stats)
			vm_stats_close(&vm->stats);
		kvmclock_destroy(&vm->kvmclock);
		for (unsigned i = 0; i < vm->nvcpus; i++)
			vcpu_destroy(&vm->vcpus[i]);
		free(vm->vcpus);
		free(vm->vcpu_fds);
		/* fall through */
	case BUILT_DEVICES:
		terminal_destroy(&vm->terminal);
		i8042_destroy(&vm->i8042);
		acpi_pm_destroy(&vm->acpi_pm);
		serial_destroy(&vm->serial);
		results_destroy(&vm->results);
		console_destroy(&vm->console);
		/* fall through */
	case BUILT_MEMORY:
		guest_mem_free(&vm->mem);
		/* fall through */
	case BUILT_VM_FD:
		if (vm->fd >= 0)
			close(vm->fd);
		/* fall through */
	case BUILT_KVM:
		free(vm->host_cpuid);
		kvm_close(&vm->kvm);
		/* fall through */
	case BUILT_STOP:
		vm_pause_destroy(&vm->pause);
		vm_stop_destroy(&vm->stop);
		/* fall through */
	case BUILT_NOTHING:
		break;
	}
	vm->built = BUILT_NOTHING;
}
