/* Writes the fuzz targets' seed corpus: small, valid (or nearly valid)
 * inputs in each target's input encoding (see the header of each
 * tests/fuzz/fuzz_<name>.c), built here from the formats' own definitions so
 * no file is copied from elsewhere. Deterministic: running it again rewrites
 * the same bytes. Usage: gen_corpus DIR (normally tests/fuzz/corpus;
 * `make -f tests/fuzz/fuzz.mk fuzz-corpus`). Crash reproducers kept in the
 * corpus (crash-*) are not touched. */
#include <asm/bootparam.h>
#include <elf.h>
#include <linux/kvm.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static const char *root;

struct buf {
	uint8_t b[8192];
	size_t n;
};

static void put(struct buf *o, const void *p, size_t n)
{
	if (o->n + n > sizeof(o->b))
		abort();
	memcpy(o->b + o->n, p, n);
	o->n += n;
}

static void putn(struct buf *o, uint64_t v, unsigned bytes)
{
	for (unsigned i = 0; i < bytes; i++) {
		uint8_t c = (uint8_t)(v >> (8 * i));
		put(o, &c, 1);
	}
}

static void puts_(struct buf *o, const char *s)
{
	put(o, s, strlen(s));
}

static void save(const char *target, const char *name, const struct buf *o)
{
	char path[512];
	snprintf(path, sizeof(path), "%s/%s", root, target);
	mkdir(root, 0755);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/%s/%s", root, target, name);
	FILE *f = fopen(path, "wb");
	if (!f || fwrite(o->b, 1, o->n, f) != o->n || fclose(f) != 0) {
		perror(path);
		exit(1);
	}
}

static void save_text(const char *target, const char *name, const char *text)
{
	struct buf o = { .n = 0 };
	puts_(&o, text);
	save(target, name, &o);
}

/* ---- ELF: a PVH kernel with one PT_LOAD and a Xen PHYS32_ENTRY note ---- */

static void elf_image(struct buf *o, unsigned desc_bytes, unsigned nload)
{
	memset(o, 0, sizeof(*o));
	unsigned nph = nload + 1;
	size_t note_off = sizeof(Elf64_Ehdr) + nph * sizeof(Elf64_Phdr);
	size_t note_len = 12 + 4 + desc_bytes;
	size_t code_off = 0x200;
	Elf64_Ehdr eh = { 0 };
	memcpy(eh.e_ident, ELFMAG, SELFMAG);
	eh.e_ident[EI_CLASS] = ELFCLASS64;
	eh.e_ident[EI_DATA] = ELFDATA2LSB;
	eh.e_ident[EI_VERSION] = EV_CURRENT;
	eh.e_type = ET_EXEC;
	eh.e_machine = EM_X86_64;
	eh.e_version = EV_CURRENT;
	eh.e_entry = 0x100000;
	eh.e_phoff = sizeof(Elf64_Ehdr);
	eh.e_ehsize = sizeof(Elf64_Ehdr);
	eh.e_phentsize = sizeof(Elf64_Phdr);
	eh.e_phnum = (Elf64_Half)nph;
	put(o, &eh, sizeof(eh));
	for (unsigned i = 0; i < nload; i++) {
		Elf64_Phdr ph = { .p_type = PT_LOAD, .p_flags = PF_R | PF_X,
				  .p_offset = code_off + 0x40 * i, .p_vaddr = 0x100000 + 0x10000 * i,
				  .p_paddr = 0x100000 + 0x10000 * i, .p_filesz = 0x40,
				  .p_memsz = 0x1000, .p_align = 0x1000 };
		put(o, &ph, sizeof(ph));
	}
	Elf64_Phdr note = { .p_type = PT_NOTE, .p_flags = PF_R, .p_offset = note_off,
			    .p_filesz = note_len, .p_memsz = note_len, .p_align = 4 };
	put(o, &note, sizeof(note));
	putn(o, 4, 4);          /* n_namesz */
	putn(o, desc_bytes, 4); /* n_descsz */
	putn(o, 18, 4);         /* XEN_ELFNOTE_PHYS32_ENTRY */
	put(o, "Xen", 4);
	putn(o, 0x100000, desc_bytes);
	while (o->n < code_off)
		putn(o, 0, 1);
	for (unsigned i = 0; i < nload * 0x40; i++)
		putn(o, 0xf4, 1); /* hlt */
}

static void gen_elf(void)
{
	struct buf o;
	elf_image(&o, 4, 1);
	save("elf_loader", "pvh-entry32", &o);
	elf_image(&o, 8, 2);
	save("elf_loader", "pvh-entry64-two-segments", &o);
	elf_image(&o, 4, 1);
	o.n = 0x150; /* the load segment cut short */
	save("elf_loader", "truncated", &o);
}

/* ---- bzImage, behind the fuzzer's header (see fuzz_bzimage.c) ---- */

#define HDR(field) offsetof(struct boot_params, hdr.field)

static void bz_put(uint8_t *img, size_t off, uint64_t v, unsigned bytes)
{
	for (unsigned i = 0; i < bytes; i++)
		img[off + i] = (uint8_t)(v >> (8 * i));
}

static void bzimage(struct buf *o, uint16_t ram_units, uint64_t initrd_size, unsigned flags,
		    const char *cmdline)
{
	memset(o, 0, sizeof(*o));
	putn(o, ram_units, 2);
	putn(o, initrd_size, 8);
	putn(o, flags, 1);
	putn(o, strlen(cmdline), 2);
	puts_(o, cmdline);
	uint8_t img[1024 + 256] = { 0 };
	bz_put(img, HDR(setup_sects), 1, 1);
	bz_put(img, HDR(syssize), 256 / 16, 4);
	bz_put(img, HDR(boot_flag), 0xaa55, 2);
	img[HDR(jump)] = 0xeb;
	img[HDR(jump) + 1] = 0x6a; /* the header ends at 0x26c */
	memcpy(img + HDR(header), "HdrS", 4);
	bz_put(img, HDR(version), 0x020f, 2);
	bz_put(img, HDR(loadflags), LOADED_HIGH, 1);
	bz_put(img, HDR(code32_start), 0x100000, 4);
	bz_put(img, HDR(initrd_addr_max), 0x7fffffff, 4);
	bz_put(img, HDR(kernel_alignment), 0x200000, 4);
	bz_put(img, HDR(relocatable_kernel), 1, 1);
	bz_put(img, HDR(xloadflags), XLF_KERNEL_64, 2);
	bz_put(img, HDR(cmdline_size), 0x7ff, 4);
	bz_put(img, HDR(pref_address), 0x100000, 8);
	bz_put(img, HDR(init_size), 0x20000, 4);
	for (size_t i = 1024; i < sizeof(img); i++)
		img[i] = (uint8_t)(i * 7 + 1);
	put(o, img, sizeof(img));
}

static void gen_bzimage(void)
{
	struct buf o;
	/* 64 KiB units: 320 = 20 MiB is taken modulo 256 by the fuzzer, so
	 * use 255 (16 MiB) where the kernel must fit. */
	bzimage(&o, 255, 0x10000, 1 | 2 | 4, "console=ttyS0 earlyprintk=serial");
	save("bzimage", "initrd-cmdline", &o);
	bzimage(&o, 255, 0, 2, "");
	save("bzimage", "no-initrd", &o);
	bzimage(&o, 31, 0x1000, 1, "");
	save("bzimage", "ram-too-small", &o);
	bzimage(&o, 255, 0x2000000, 1, "x");
	save("bzimage", "initrd-too-big", &o);
}

/* ---- config: key byte, value line, INI file ---- */

static void config(const char *name, unsigned key, const char *value, const char *ini)
{
	struct buf o = { .n = 0 };
	putn(&o, key, 1);
	puts_(&o, value);
	puts_(&o, "\n");
	puts_(&o, ini);
	save("config", name, &o);
}

static void gen_config(void)
{
	config("smp-full", 0, "cpus=8,sockets=2,cores=2,threads=2",
	       "; a machine\n[machine]\ncpus = 4\nmem = 128M\n\n[run]\ntimeout = 120s\n");
	config("smp-bare", 0, "6", "[machine]\nsmp = sockets=1,cores=1,threads=1\nmem = 64M\n"
				   "[cpu]\nl3-cache = on\ncpu-vendor = intel\n");
	config("mem", 5, "1G", "[machine]\nsockets = 2\ncores = 3\nthreads = 1\n");
	config("l1d-size", 6, "32K", "[cpu]\nl1d-size = 48K\nl2-size = 1M\nl3-size = 32MiB\n");
	config("timeout", 10, "500ms", "[run]\nexpect = ^SUMMARY\nreport-memory = on\nstats = yes\n");
	config("param", 11, "delay.ms=0x10",
	       "[params]\nloops = 100\nname-x = 0x20\n[clock]\nkvmclock = off\n"
	       "kvmclock-guest-view = on\n");
	config("any-key", 255, "l2-size:2M", "[boot]\nkernel = k.elf\ncmdline = console=ttyS0\n");
	config("bad-section", 1, "4", "[nope]\ncpus = 1\n");
}

/* ---- pvclock: MSR, TSC, RAM size, then the page at the MSR's address ---- */

static void pvclock(const char *name, uint64_t msr, uint64_t tsc, uint32_t version)
{
	struct buf o = { .n = 0 };
	putn(&o, msr, 8);
	putn(&o, tsc, 8);
	putn(&o, 3, 1); /* 16 KiB of RAM */
	putn(&o, version, 4);
	putn(&o, 0, 4);
	putn(&o, 1000, 8);              /* tsc_timestamp */
	putn(&o, 5000000000ULL, 8);     /* system_time */
	putn(&o, 0x80000000u, 4);       /* tsc_to_system_mul: 0.5 */
	putn(&o, (uint8_t)(int8_t)-1, 1); /* tsc_shift */
	putn(&o, 1, 1);                 /* PVCLOCK_TSC_STABLE_BIT */
	putn(&o, 0, 2);
	save("pvclock", name, &o);
}

static void gen_pvclock(void)
{
	pvclock("enabled", 0x2000 | 1, 1000000, 2);
	pvclock("being-updated", 0x2000 | 1, 1000000, 3);
	pvclock("crosses-page", 0x2ff0 | 1, 1000000, 2);
	pvclock("misaligned", 0x2002 | 1, 1000000, 2);
	pvclock("disabled", 0x2000, 1000000, 2);
	pvclock("outside-ram", 0x100000000ULL | 1, 1000000, 2);
	pvclock("tsc-behind", 0x2000 | 1, 10, 2);
}

/* ---- devices: operation streams (see fuzz_devices.c) ---- */

enum { SEL_UART, SEL_KBD_DATA, SEL_KBD_CMD, SEL_PM_EVT, SEL_PM_CNT, SEL_TESTDEV, SEL_EXIT };

static void pio_w(struct buf *o, unsigned sel, unsigned off, uint64_t v, unsigned size_log2)
{
	putn(o, 0, 1);
	putn(o, sel, 1);
	putn(o, off, 1);
	putn(o, 4 | size_log2, 1);
	putn(o, v, 1u << size_log2);
}

static void pio_r(struct buf *o, unsigned sel, unsigned off)
{
	putn(o, 0, 1);
	putn(o, sel, 1);
	putn(o, off, 1);
	putn(o, 0, 1);
}

static void uart_send(struct buf *o, const char *s)
{
	for (; *s; s++)
		pio_w(o, SEL_UART, 0, (uint8_t)*s, 0);
}

static void console_in(struct buf *o, const char *s)
{
	putn(o, 1, 1);
	putn(o, strlen(s), 1);
	puts_(o, s);
}

static void testdev_msg(struct buf *o, uint16_t gpa, uint32_t op, uint64_t value, const char *name)
{
	putn(o, 2, 1);
	putn(o, gpa, 2);
	putn(o, 64, 1);
	putn(o, op, 4);
	putn(o, 0, 4);
	putn(o, value, 8);
	char n[48] = { 0 };
	strncpy(n, name, sizeof(n) - 1);
	put(o, n, sizeof(n));
	pio_w(o, SEL_TESTDEV, 0, gpa, 2);
}

static void gen_devices(void)
{
	struct buf o = { .n = 0 };
	/* Linux's 8250 set-up, then input and output. */
	pio_w(&o, SEL_UART, 3, 0x80, 0);
	pio_w(&o, SEL_UART, 0, 0x01, 0);
	pio_w(&o, SEL_UART, 1, 0x00, 0);
	pio_w(&o, SEL_UART, 3, 0x03, 0);
	pio_w(&o, SEL_UART, 2, 0xc7, 0);
	pio_w(&o, SEL_UART, 4, 0x0b, 0);
	pio_w(&o, SEL_UART, 1, 0x0f, 0);
	pio_r(&o, SEL_UART, 2);
	console_in(&o, "hello, guest\n");
	for (int i = 0; i < 4; i++) {
		pio_r(&o, SEL_UART, 5);
		pio_r(&o, SEL_UART, 0);
	}
	pio_r(&o, SEL_UART, 2);
	pio_r(&o, SEL_UART, 6);
	uart_send(&o, "vmm-result: boot.ms=123\r\n");
	putn(&o, 3, 1);
	save("devices", "uart-linux", &o);

	o.n = 0; /* loopback, the 16450 mode, overrun */
	pio_w(&o, SEL_UART, 4, 0x1f, 0);
	pio_r(&o, SEL_UART, 6);
	uart_send(&o, "ab");
	pio_r(&o, SEL_UART, 5);
	pio_r(&o, SEL_UART, 0);
	pio_w(&o, SEL_UART, 4, 0x08, 0);
	pio_w(&o, SEL_UART, 2, 0x00, 0);
	console_in(&o, "xyz");
	pio_w(&o, SEL_UART, 1, 0x05, 0);
	pio_r(&o, SEL_UART, 2);
	pio_r(&o, SEL_UART, 5);
	pio_w(&o, SEL_UART, 7, 0x5a, 0);
	pio_r(&o, SEL_UART, 7);
	pio_r(&o, SEL_UART, 0x0f); /* off % 9 = 6 */
	save("devices", "uart-loopback", &o);

	o.n = 0;
	pio_w(&o, SEL_KBD_CMD, 0, 0xaa, 0);
	pio_r(&o, SEL_KBD_CMD, 0);
	pio_r(&o, SEL_KBD_DATA, 0);
	pio_w(&o, SEL_KBD_CMD, 0, 0x20, 0);
	pio_r(&o, SEL_KBD_DATA, 0);
	pio_w(&o, SEL_KBD_CMD, 0, 0x60, 0);
	pio_w(&o, SEL_KBD_DATA, 0, 0x47, 0);
	pio_w(&o, SEL_KBD_CMD, 0, 0xa9, 0);
	pio_r(&o, SEL_KBD_DATA, 0);
	pio_w(&o, SEL_KBD_CMD, 0, 0xd0, 0);
	pio_r(&o, SEL_KBD_DATA, 0);
	pio_w(&o, SEL_KBD_CMD, 0, 0xd1, 0);
	pio_w(&o, SEL_KBD_DATA, 0, 0x02, 0);
	pio_w(&o, SEL_KBD_CMD, 0, 0xfe, 0);
	save("devices", "i8042-reset", &o);

	o.n = 0;
	pio_r(&o, SEL_PM_EVT, 0);
	pio_w(&o, SEL_PM_EVT, 0, 0x0021ffff, 2);
	pio_r(&o, SEL_PM_EVT, 2);
	pio_w(&o, SEL_PM_EVT, 3, 0x47, 0);
	pio_w(&o, SEL_PM_CNT, 0, 0x0402, 1); /* SLP_TYP 1 with SLP_EN unset */
	pio_w(&o, SEL_PM_CNT, 1, 0x24, 0);   /* S1: ignored */
	pio_r(&o, SEL_PM_CNT, 0);
	pio_w(&o, SEL_PM_CNT, 0, 0x3400, 1); /* S5: power off */
	putn(&o, 5, 1);                      /* direct, out of range */
	putn(&o, SEL_PM_EVT, 1);
	putn(&o, 3, 1);
	putn(&o, 4 | 2, 1);
	putn(&o, 0xffffffff, 4);
	save("devices", "acpi-pm-s5", &o);

	o.n = 0;
	testdev_msg(&o, 0x1000, 1, 7, "result.x");
	testdev_msg(&o, 0x1040, 2, 0, "known");
	testdev_msg(&o, 0x1080, 2, 0, "unknown");
	testdev_msg(&o, 0x10c0, 3, 10, "pause");
	testdev_msg(&o, 0x1100, 9, 0, "BAD");
	putn(&o, 4, 1);
	putn(&o, 0xfff0, 4); /* past RAM's end */
	pio_w(&o, SEL_EXIT, 0, 1, 2);
	pio_w(&o, SEL_EXIT, 0, 3, 0);
	save("devices", "testdev-debug-exit", &o);
}

/* ---- control protocol: what a client sends ---- */

static void gen_control(void)
{
	save_text("control_protocol", "session",
		  "{\"execute\": \"status\"}\n{\"execute\": \"pause\"}\n{\"execute\": \"pause\"}\n"
		  "{\"execute\": \"stats\"}\n{\"execute\": \"resume\"}\n{\"execute\": \"quit\"}\n");
	save_text("control_protocol", "errors",
		  "{\"execute\": 1}\n[1,2]\n{\"execute\": \"reboot\"}\n{\"execute\": \"status\"} x\n"
		  "{'execute': 'status'}\n{\"execute\": \"status\",}\n \t\r\n");
	save_text("control_protocol", "trailing-blanks", "{\"execute\":\"status\"} \t\r");
}

/* ---- KVM binary stats: header, id, descriptors ---- */

static void stats_desc(struct buf *o, uint32_t flags, int16_t exponent, uint16_t size,
		       uint32_t offset, const char *name, unsigned name_size)
{
	putn(o, flags, 4);
	putn(o, (uint16_t)exponent, 2);
	putn(o, size, 2);
	putn(o, offset, 4);
	putn(o, 0, 4);
	char n[64] = { 0 };
	strncpy(n, name, sizeof(n) - 1);
	put(o, n, name_size);
}

static void gen_stats(void)
{
	struct buf o = { .n = 0 };
	unsigned name_size = 32, ndesc = 4;
	putn(&o, 0, 4);
	putn(&o, name_size, 4);
	putn(&o, ndesc, 4);
	putn(&o, 24, 4);
	putn(&o, 24 + name_size, 4);
	putn(&o, 24 + name_size + ndesc * (16 + name_size), 4);
	char id[32] = "kvm-1234/vcpu-0";
	put(&o, id, name_size);
	stats_desc(&o, KVM_STATS_TYPE_CUMULATIVE, 0, 1, 0, "exits", name_size);
	stats_desc(&o, KVM_STATS_TYPE_CUMULATIVE | KVM_STATS_UNIT_SECONDS, -9, 1, 8,
		   "halt_poll_success_ns", name_size);
	stats_desc(&o, KVM_STATS_TYPE_LOG_HIST | KVM_STATS_UNIT_SECONDS, -9, 32, 32,
		   "halt_poll_hist", name_size);
	stats_desc(&o, 0x8000011Fu, 0, 2, 16, "future_stat", name_size);
	save("stats_schema", "vcpu", &o);
}

/* ---- console result lines: name-buffer size, then console output ---- */

static void console_result(const char *name, unsigned name_size, const char *text)
{
	struct buf o = { .n = 0 };
	putn(&o, name_size, 1);
	puts_(&o, text);
	save("console_result", name, &o);
}

static void gen_console_result(void)
{
	console_result("one", 48, "vmm-result: sched.pipe.ops=123456\n");
	console_result("crlf", 48, "vmm-result: x=18446744073709551615\r\nvmm-result: y=007\r\n");
	console_result("too-big", 48, "vmm-result: x=18446744073709551616\n");
	console_result("small-name", 4, "vmm-result: abcd=1\nboot: ok\n");
	console_result("not-result", 48, "SUMMARY: 3 tests, 0 unexpected failures\nvmm-result: =1\n");
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: %s CORPUS_DIR\n", argv[0]);
		return 2;
	}
	root = argv[1];
	gen_elf();
	gen_bzimage();
	gen_config();
	gen_pvclock();
	gen_devices();
	gen_control();
	gen_stats();
	gen_console_result();
	return 0;
}
