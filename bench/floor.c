/* The benchmark floor: the least a KVM program must do to boot a PVH kernel
 * and run it to its debug-exit, with raw ioctls and no project code. It
 * mirrors vmm's machine (vmm/vm.c, vmm/boot_pvh.c, vmm/layout.h) step for
 * step so that `bench/run` compares like with like; it trusts its input and
 * checks only what would otherwise crash it. What the guest can see must be
 * what vmm shows it (same CPUID, same UART registers, test-device answers),
 * or the guest takes another path and the comparison is void. Devices: COM1
 * (output to stdout), the debug exit at 0xf4 and a stub of the test device
 * at 0xf8; any other exit is fatal.
 *
 * Usage: floor [--report-memory] KERNEL.elf
 * Exit status: (v << 1) | 1 when the guest writes v to port 0xf4, as vmm;
 * 2 on any failure (even, so never mistaken for a guest's status). */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <linux/kvm.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

#define RAM_SIZE (64ULL << 20) /* vmm's default --mem */
#define START_INFO 0x1000ULL
#define MEMMAP 0x1040ULL

struct hvm_start_info { /* Xen's start_info.h, version 1 */
	uint32_t magic, version, flags, nr_modules;
	uint64_t modlist_paddr, cmdline_paddr, rsdp_paddr, memmap_paddr;
	uint32_t memmap_entries, reserved;
};
struct hvm_memmap_entry {
	uint64_t addr, size;
	uint32_t type, reserved;
};

static uint8_t *ram;
static int report_memory;

static void die(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fputs("floor: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	exit(2);
}

static int xioctl(int fd, unsigned long req, void *arg, const char *name)
{
	int rc = ioctl(fd, req, arg);
	if (rc < 0)
		die("%s: %s", name, strerror(errno));
	return rc;
}
#define IOCTL(fd, req, arg) xioctl(fd, req, (void *)(uintptr_t)(arg), #req)

/* Loads the PT_LOAD segments at p_paddr; returns the PVH entry point. */
static uint32_t load_kernel(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || elf_version(EV_CURRENT) == EV_NONE)
		die("%s: %s", path, strerror(errno));
	Elf *e = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	size_t fsize, phnum;
	const uint8_t *image = e ? (const uint8_t *)elf_rawfile(e, &fsize) : NULL;
	if (e && elf_kind(e) != ELF_K_ELF)
		die("%s: not an ELF file", path);
	if (!image || elf_getphdrnum(e, &phnum) != 0)
		die("%s: %s", path, elf_errmsg(-1));
	uint32_t entry = 0;
	for (size_t i = 0; i < phnum; i++) {
		GElf_Phdr ph;
		if (!gelf_getphdr(e, (int)i, &ph))
			die("%s: %s", path, elf_errmsg(-1));
		if (ph.p_type == PT_LOAD) {
			if (ph.p_paddr > RAM_SIZE || ph.p_memsz > RAM_SIZE - ph.p_paddr ||
			    ph.p_offset > fsize || ph.p_filesz > fsize - ph.p_offset ||
			    ph.p_filesz > ph.p_memsz)
				die("%s: segment at 0x%llx does not fit", path,
				    (unsigned long long)ph.p_paddr);
			/* vmm zeroes the tail too: both touch the same pages. */
			memcpy(ram + ph.p_paddr, image + ph.p_offset, ph.p_filesz);
			memset(ram + ph.p_paddr + ph.p_filesz, 0, ph.p_memsz - ph.p_filesz);
		} else if (ph.p_type == PT_NOTE) {
			Elf_Data *d = elf_getdata_rawchunk(e, (int64_t)ph.p_offset, ph.p_filesz,
							   ELF_T_NHDR);
			GElf_Nhdr n;
			size_t off = 0, name, desc;
			while (d && (off = gelf_getnote(d, off, &n, &name, &desc)) > 0)
				if (n.n_type == 18 && n.n_namesz == 4 && n.n_descsz >= 4 &&
				    memcmp((char *)d->d_buf + name, "Xen", 4) == 0)
					memcpy(&entry, (char *)d->d_buf + desc, 4);
		}
	}
	if (!entry)
		die("%s: no PVH entry note", path);
	elf_end(e);
	close(fd);
	return entry;
}

static void write_boot_info(void)
{
	struct hvm_memmap_entry map[] = {
		{ 0, 0xa0000, 1, 0 },
		{ 0xa0000, 0x60000, 2, 0 },
		{ 0x100000, RAM_SIZE - 0x100000, 1, 0 },
	};
	struct hvm_start_info info = {
		.magic = 0x336ec578, .version = 1, .memmap_paddr = MEMMAP, .memmap_entries = 3,
	};
	memcpy(ram + MEMMAP, map, sizeof(map));
	memcpy(ram + START_INFO, &info, sizeof(info));
}

static struct kvm_segment flat(uint16_t selector, uint8_t type)
{
	return (struct kvm_segment){ .limit = 0xffffffff, .selector = selector, .type = type,
				     .present = 1, .db = 1, .s = 1, .g = 1 };
}

static void set_cpuid(int kvm, int vcpu)
{
	for (uint32_t nent = 64;; nent *= 2) {
		struct kvm_cpuid2 *c = calloc(1, sizeof(*c) + nent * sizeof(c->entries[0]));
		if (!c)
			die("out of memory");
		c->nent = nent;
		if (ioctl(kvm, KVM_GET_SUPPORTED_CPUID, c) == 0) {
			/* vmm's edits (cpu/cpuid.c): leaf 1 gets the APIC ID (0)
			 * and the "hypervisor present" bit, which guests test. */
			for (uint32_t i = 0; i < c->nent; i++) {
				if (c->entries[i].function == 1) {
					c->entries[i].ebx &= 0x00ffffffu;
					c->entries[i].ecx |= 1u << 31;
				}
			}
			IOCTL(vcpu, KVM_SET_CPUID2, c);
			free(c);
			return;
		}
		if (errno != E2BIG || nent >= 4096)
			die("KVM_GET_SUPPORTED_CPUID: %s", strerror(errno));
		free(c);
	}
}

static void set_pvh_entry(int vcpu, uint32_t entry)
{
	struct kvm_sregs sregs;
	IOCTL(vcpu, KVM_GET_SREGS, &sregs);
	sregs.cs = flat(0x10, 0xb);
	sregs.ds = sregs.es = sregs.fs = sregs.gs = sregs.ss = flat(0x18, 0x3);
	sregs.tr = (struct kvm_segment){ .limit = 0x67, .selector = 0x20, .type = 0xb,
					 .present = 1 };
	sregs.cr0 = 0x11; /* PE | ET */
	sregs.cr3 = sregs.cr4 = sregs.efer = 0;
	IOCTL(vcpu, KVM_SET_SREGS, &sregs);
	struct kvm_regs regs = { .rflags = 0x2, .rip = entry, .rbx = START_INFO };
	IOCTL(vcpu, KVM_SET_REGS, &regs);
}

/* The guest wrote v to 0xf4: exit as vmm does, (v << 1) | 1. */
static void guest_exit(uint32_t v)
{
	fflush(stdout);
	if (report_memory) { /* after the run: costs the measured boot nothing */
		struct rusage ru;
		getrusage(RUSAGE_SELF, &ru);
		static unsigned char vec[RAM_SIZE / 4096];
		unsigned long resident = 0;
		if (mincore(ram, RAM_SIZE, vec) == 0)
			for (size_t i = 0; i < sizeof(vec); i++)
				resident += vec[i] & 1;
		fprintf(stderr, "floor: memory peak_rss_kib=%ld guest_resident_kib=%lu\n",
			ru.ru_maxrss, resident * 4);
	}
	exit((int)(((v << 1) | 1) & 0xff));
}

/* The test device (devices/testdev_abi.h): the floor keeps no results, but
 * answers as vmm does (RESULT -> OK, PARAM -> UNKNOWN) so that the guest
 * takes the same path, and prints the same lines, under both. */
static void testdev(const uint8_t *data, uint32_t size)
{
	uint32_t gpa, op, status;
	if (size != 4)
		return;
	memcpy(&gpa, data, 4);
	if (gpa > RAM_SIZE - 64)
		return;
	memcpy(&op, ram + gpa, 4);
	status = op == 1 ? 0 : 1;
	memcpy(ram + gpa + 4, &status, 4);
}

/* COM1 as the guest sees vmm's (devices/serial.c): a 16550A whose
 * transmitter is always empty, with its FIFO if enabled (the test kernels'
 * driver then polls LSR once per 16 bytes, not per byte). */
static uint8_t uart[8]; /* last value written to each register */

static uint8_t uart_read(unsigned reg)
{
	switch (reg) {
	case 0: return 0;                                   /* RBR: no input */
	case 2: return 0x01 | (uart[2] & 1 ? 0xc0 : 0);     /* IIR: no IRQ, FIFO */
	case 5: return 0x60;                                /* LSR: THRE | TEMT */
	case 6: return 0xb0;                                /* MSR: DCD DSR CTS */
	default: return uart[reg];                          /* IER LCR MCR SCR */
	}
}

static void uart_write(unsigned reg, uint8_t v)
{
	if (reg <= 1 && (uart[3] & 0x80)) /* LCR.DLAB: the divisor latch, ignored */
		return;
	if (reg == 0) {
		if (!(uart[4] & 0x10)) /* THR, unless in loopback */
			putchar(v);
	} else if (reg != 5 && reg != 6) { /* LSR and MSR are read-only */
		uart[reg] = v;
	}
}

static void pio(struct kvm_run *run)
{
	uint8_t *data = (uint8_t *)run + run->io.data_offset;
	uint16_t port = run->io.port;
	int out = run->io.direction == KVM_EXIT_IO_OUT;
	for (uint32_t i = 0; i < run->io.count; i++, data += run->io.size) {
		if (port >= 0x3f8 && port <= 0x3ff) {
			if (out) {
				uart_write(port & 7, data[0]);
			} else {
				memset(data, 0, run->io.size);
				data[0] = uart_read(port & 7);
			}
		} else if (out && port == 0xf8) {
			testdev(data, run->io.size);
		} else if (out && port == 0xf4) {
			uint32_t v = 0;
			memcpy(&v, data, run->io.size < 4 ? run->io.size : 4);
			guest_exit(v);
		} else {
			die("unhandled %s port 0x%x size %u", out ? "OUT to" : "IN from", port,
			    run->io.size);
		}
	}
}

int main(int argc, char **argv)
{
	if (argc == 3 && strcmp(argv[1], "--report-memory") == 0)
		report_memory = 1;
	else if (argc != 2)
		die("usage: floor [--report-memory] KERNEL.elf");
	int kvm = open("/dev/kvm", O_RDWR | O_CLOEXEC);
	if (kvm < 0)
		die("/dev/kvm: %s", strerror(errno));
	int vm = IOCTL(kvm, KVM_CREATE_VM, 0);
	IOCTL(vm, KVM_SET_TSS_ADDR, 0xfffbd000);
	uint64_t identity = 0xfffbc000;
	IOCTL(vm, KVM_SET_IDENTITY_MAP_ADDR, &identity);
	IOCTL(vm, KVM_CREATE_IRQCHIP, 0);
	struct kvm_pit_config pit = { .flags = 0 };
	IOCTL(vm, KVM_CREATE_PIT2, &pit);

	ram = mmap(NULL, RAM_SIZE, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (ram == MAP_FAILED)
		die("mmap: %s", strerror(errno));
	struct kvm_userspace_memory_region slot = {
		.slot = 0, .memory_size = RAM_SIZE, .userspace_addr = (uintptr_t)ram,
	};
	IOCTL(vm, KVM_SET_USER_MEMORY_REGION, &slot);
	uint32_t entry = load_kernel(argv[argc - 1]);
	write_boot_info();

	int vcpu = IOCTL(vm, KVM_CREATE_VCPU, 0);
	int run_size = IOCTL(kvm, KVM_GET_VCPU_MMAP_SIZE, 0);
	struct kvm_run *run = mmap(NULL, (size_t)run_size, PROT_READ | PROT_WRITE, MAP_SHARED,
				   vcpu, 0);
	if (run == MAP_FAILED)
		die("mmap kvm_run: %s", strerror(errno));
	set_cpuid(kvm, vcpu);
	set_pvh_entry(vcpu, entry);

	for (;;) {
		if (ioctl(vcpu, KVM_RUN, 0) < 0) {
			if (errno == EINTR || errno == EAGAIN)
				continue;
			die("KVM_RUN: %s", strerror(errno));
		}
		switch (run->exit_reason) {
		case KVM_EXIT_IO:
			pio(run);
			break;
		case KVM_EXIT_INTR:
			break;
		default:
			die("unhandled exit reason %u", run->exit_reason);
		}
	}
}
