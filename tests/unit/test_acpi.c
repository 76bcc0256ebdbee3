/* acpi: the tables read back with offsets and values taken from ACPI 6.3
 * itself (5.2.5.3 RSDP, 5.2.6 header, 5.2.8 XSDT, 5.2.9 FADT,
 * 5.2.10 FACS, 5.2.12 MADT, chapter 20 AML), not from vmm/acpi.c.
 * ACPI_DUMP_DIR=DIR makes the "dump" case write every table to DIR for
 * tests/integration/acpi_tables.sh to disassemble with iasl. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../cpu/topology.h"
#include "../../devices/acpi_pm.h"
#include "../../vmm/acpi.h"
#include "../../vmm/guest_mem.h"
#include "../../vmm/layout.h"
#include "../../vmm/machine.h"
#include "suites.h"

static uint8_t area[ACPI_TABLES_MAX];
static int area_size;

static uint16_t rd16(const uint8_t *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

static uint32_t rd32(const uint8_t *p)
{
	return rd16(p) | (uint32_t)rd16(p + 2) << 16;
}

static uint64_t rd64(const uint8_t *p)
{
	return rd32(p) | (uint64_t)rd32(p + 4) << 32;
}

static uint8_t sum(const uint8_t *p, size_t len)
{
	uint8_t s = 0;
	for (size_t i = 0; i < len; i++)
		s = (uint8_t)(s + p[i]);
	return s;
}

static struct machine machine(unsigned sockets, unsigned cores, unsigned threads)
{
	struct machine m;
	memset(&m, 0, sizeof(m));
	struct topology_request req = { 0, sockets, cores, threads };
	char err[160] = "";
	ck_assert_msg(topology_resolve(&req, &m.cpu.topo, err, sizeof(err)) == 0, "%s", err);
	return m;
}

/* Build for sockets x cores x threads into `area`. */
static void build(unsigned sockets, unsigned cores, unsigned threads)
{
	struct machine m = machine(sockets, cores, threads);
	memset(area, 0, sizeof(area));
	area_size = acpi_build(&m, area, sizeof(area));
	ck_assert_int_gt(area_size, 0);
}

/* The table at guest-physical `gpa`, which must lie inside what was built,
 * with `len` bytes there too. */
static const uint8_t *at(uint64_t gpa, size_t len)
{
	ck_assert_msg(gpa >= ACPI_TABLES_ADDR && gpa - ACPI_TABLES_ADDR + len <= (size_t)area_size,
		      "0x%llx+%zu outside the tables", (unsigned long long)gpa, len);
	return area + (gpa - ACPI_TABLES_ADDR);
}

/* A System Description Table at gpa with this signature: its header's
 * length inside the area and its checksum over that length 0 (5.2.6). */
static const uint8_t *sdt(uint64_t gpa, const char *sig)
{
	const uint8_t *t = at(gpa, 36);
	ck_assert_msg(memcmp(t, sig, 4) == 0, "expected %s at 0x%llx", sig,
		      (unsigned long long)gpa);
	uint32_t len = rd32(t + 4);
	ck_assert_uint_ge(len, 36);
	at(gpa, len);
	ck_assert_msg(sum(t, len) == 0, "%s checksum", sig);
	return t;
}

static const uint8_t *rsdp(void)
{
	return area; /* at ACPI_TABLES_ADDR itself */
}

static const uint8_t *xsdt(void)
{
	return sdt(rd64(rsdp() + 24), "XSDT");
}

/* The XSDT entry with signature `sig`. */
static const uint8_t *from_xsdt(const char *sig)
{
	const uint8_t *x = xsdt();
	unsigned n = (rd32(x + 4) - 36) / 8;
	for (unsigned i = 0; i < n; i++) {
		uint64_t gpa = rd64(x + 36 + 8 * i);
		if (memcmp(at(gpa, 4), sig, 4) == 0)
			return sdt(gpa, sig);
	}
	ck_abort_msg("no %s in the XSDT", sig);
	return NULL;
}

/* ======================= RSDP and XSDT ======================= */

START_TEST(test_rsdp)
{
	build(1, 1, 1);
	const uint8_t *r = rsdp();
	/* 16-byte aligned: the BIOS-area scan only looks there (5.2.5.1). */
	ck_assert_uint_eq(ACPI_TABLES_ADDR % 16, 0);
	ck_assert(ACPI_TABLES_ADDR >= 0xe0000 && ACPI_TABLES_ADDR + 36 <= 0x100000);
	ck_assert_mem_eq(r, "RSD PTR ", 8);
	ck_assert_uint_eq(r[15], 2);	      /* Revision: ACPI 2.0+ */
	ck_assert_uint_eq(rd32(r + 20), 36); /* Length */
	ck_assert_uint_eq(sum(r, 20), 0);    /* Checksum: the ACPI 1.0 part */
	ck_assert_uint_eq(sum(r, 36), 0);    /* Extended Checksum: all of it */
	ck_assert_uint_eq(r[33] | r[34] | r[35], 0); /* Reserved */
	xsdt();
}
END_TEST

START_TEST(test_xsdt)
{
	build(1, 4, 1);
	const uint8_t *x = xsdt();
	ck_assert_uint_eq(x[8], 1);		   /* Revision */
	ck_assert_uint_eq(rd32(x + 4), 36 + 2 * 8); /* two 64-bit entries */
	ck_assert_mem_eq(at(rd64(x + 36), 4), "FACP", 4);
	ck_assert_mem_eq(at(rd64(x + 44), 4), "APIC", 4);
	from_xsdt("FACP");
	from_xsdt("APIC");
}
END_TEST

/* Where each table is, found by following the pointers as an OS does. */
struct span {
	const char *what;
	size_t off, len;
};
enum { NSPANS = 6 };

static void table_spans(struct span spans[NSPANS])
{
	const uint8_t *x = xsdt(), *f = from_xsdt("FACP"), *m = from_xsdt("APIC");
	const uint8_t *facs = at(rd32(f + 36), 64), *d = sdt(rd32(f + 40), "DSDT");
	const uint8_t *t[NSPANS] = { rsdp(), x, f, facs, d, m };
	const char *what[NSPANS] = { "RSDP", "XSDT", "FACP", "FACS", "DSDT", "APIC" };
	for (unsigned i = 0; i < NSPANS; i++)
		spans[i] = (struct span){ what[i], (size_t)(t[i] - area),
					  i == 0 ? 36 : rd32(t[i] + 4) };
}

START_TEST(test_tables_do_not_overlap)
{
	build(2, 3, 1);
	struct span s[NSPANS];
	table_spans(s);
	for (unsigned i = 0; i < NSPANS; i++)
		for (unsigned j = i + 1; j < NSPANS; j++)
			ck_assert_msg(s[i].off + s[i].len <= s[j].off ||
					      s[j].off + s[j].len <= s[i].off,
				      "%s and %s overlap", s[i].what, s[j].what);
}
END_TEST

/* ======================= FADT, FACS ======================= */

START_TEST(test_fadt)
{
	build(1, 1, 1);
	const uint8_t *f = from_xsdt("FACP");
	ck_assert_uint_eq(rd32(f + 4), 276); /* the ACPI 6.x FADT */
	ck_assert_uint_eq(f[8], 6);	     /* Major revision */
	ck_assert_uint_eq(f[131], 3);	     /* FADT Minor Version: 6.3 */
	ck_assert_uint_eq(rd16(f + 46), 9);  /* SCI_INT */
	ck_assert_uint_eq(rd32(f + 48), 0);  /* SMI_CMD: always in ACPI mode */
	ck_assert_uint_eq(f[52] | f[53], 0); /* ACPI_ENABLE, ACPI_DISABLE */
	/* PM1a event block: 4 bytes at 0x600; control block: 2 bytes at 0x604. */
	ck_assert_uint_eq(rd32(f + 56), ACPI_PM1_EVT_PORT);
	ck_assert_uint_eq(rd32(f + 64), ACPI_PM1_CNT_PORT);
	ck_assert_uint_eq(f[88], 4); /* PM1_EVT_LEN */
	ck_assert_uint_eq(f[89], 2); /* PM1_CNT_LEN */
	ck_assert_uint_eq(ACPI_PM1_EVT_PORT, 0x600);
	ck_assert_uint_eq(ACPI_PM1_CNT_PORT, 0x604);
	/* No PM1b blocks, no PM2, no PM timer, no GPE blocks: address and length 0. */
	ck_assert_uint_eq(rd32(f + 60) | rd32(f + 68) | rd32(f + 72) | rd32(f + 76), 0);
	ck_assert_uint_eq(rd32(f + 80) | rd32(f + 84), 0);
	ck_assert_uint_eq(f[90] | f[91] | f[92] | f[93], 0);
	/* C2 and C3 not supported: latencies above 100 and 1000. */
	ck_assert_uint_gt(rd16(f + 96), 100);
	ck_assert_uint_gt(rd16(f + 98), 1000);
	/* IAPC_BOOT_ARCH: VGA Not Present (bit 2), CMOS RTC Not Present (bit
	 * 5); 8042 (bit 1, only a reset line here) and MSI Not Supported (bit
	 * 3) clear. */
	uint16_t boot = rd16(f + 109);
	ck_assert(!(boot & (1u << 1)));
	ck_assert(boot & (1u << 2));
	ck_assert(boot & (1u << 5));
	ck_assert(!(boot & (1u << 3)));
	/* Flags: WBINVD (bit 0) set, HW_REDUCED_ACPI (bit 20) clear: the classic
	 * model with the PC's legacy hardware. */
	uint32_t flags = rd32(f + 112);
	ck_assert(flags & 1u);
	ck_assert(!(flags & (1u << 20)));
	/* RESET_REG unused: RESET_REG_SUP (bit 10) clear. */
	ck_assert(!(flags & (1u << 10)));
}
END_TEST

/* A Generic Address Structure (5.2.3.2) for an I/O block. */
static void assert_gas_io(const uint8_t *g, uint64_t port, unsigned bytes)
{
	ck_assert_uint_eq(g[0], 1);	    /* System I/O */
	ck_assert_uint_eq(g[1], bytes * 8); /* Register Bit Width = the 32-bit form's length */
	ck_assert_uint_eq(g[2], 0);	    /* Bit Offset */
	ck_assert_uint_le(g[3], 2);	    /* Access Size: undefined, byte or word */
	ck_assert_uint_eq(rd64(g + 4), port);
}

START_TEST(test_fadt_extended_fields)
{
	build(1, 2, 2);
	const uint8_t *f = from_xsdt("FACP");
	/* X_PM1a_EVT_BLK (148), X_PM1a_CNT_BLK (172) agree with the 32-bit ones. */
	assert_gas_io(f + 148, rd32(f + 56), f[88]);
	assert_gas_io(f + 172, rd32(f + 64), f[89]);
	/* X_PM1b_EVT/CNT, X_PM2_CNT, X_PM_TMR, X_GPE0/1, SLEEP_CONTROL/STATUS: empty. */
	for (unsigned off = 160; off < 268; off += 12) {
		if (off == 172)
			continue;
		ck_assert_msg(rd64(f + off + 4) == 0 && f[off] == 0, "GAS at %u", off);
	}
	/* DSDT and X_DSDT: the same table. */
	uint64_t dsdt = rd32(f + 40);
	ck_assert_uint_eq(rd64(f + 140), dsdt);
	sdt(dsdt, "DSDT");
}
END_TEST

START_TEST(test_facs)
{
	build(1, 1, 1);
	const uint8_t *f = from_xsdt("FACP");
	uint64_t facs = rd32(f + 36); /* FIRMWARE_CTRL */
	ck_assert_uint_ne(facs, 0);
	/* Below 4 GiB: X_FIRMWARE_CTRL stays 0 (before ACPI 6.0 only one of
	 * the two could be non-zero). */
	ck_assert_uint_eq(rd64(f + 132), 0);
	ck_assert_uint_eq(facs % 64, 0); /* 64-byte aligned */
	const uint8_t *s = at(facs, 64);
	ck_assert_mem_eq(s, "FACS", 4);
	ck_assert_uint_eq(rd32(s + 4), 64);
	ck_assert_uint_eq(rd32(s + 12), 0); /* Firmware Waking Vector: no S3 */
	ck_assert_uint_eq(rd32(s + 16), 0); /* Global Lock: free */
	ck_assert_uint_eq(s[32], 2);	     /* Version */
}
END_TEST

/* ======================= DSDT ======================= */

START_TEST(test_dsdt_s5)
{
	build(1, 1, 1);
	const uint8_t *d = sdt(rd32(from_xsdt("FACP") + 40), "DSDT");
	ck_assert_uint_eq(d[8], 2); /* Revision 2: 64-bit AML integers */
	/* Name (_S5_, Package (4) { 5, 5, 0, 0 }), from the grammar of chapter 20:
	 * NameOp 08, NameSeg "_S5_", PackageOp 12, PkgLength 08 (itself + 7),
	 * NumElements 04, BytePrefix 0A + 05 (twice), ZeroOp 00 (twice). */
	static const uint8_t want[] = { 0x08, 0x5f, 0x53, 0x35, 0x5f, 0x12, 0x08,
					0x04, 0x0a, 0x05, 0x0a, 0x05, 0x00, 0x00 };
	ck_assert_uint_eq(rd32(d + 4), 36 + sizeof(want));
	ck_assert_mem_eq(d + 36, want, sizeof(want));
	/* The PkgLength counts from itself to the end of the package: the table's end. */
	ck_assert_uint_eq(d[36 + 6], sizeof(want) - 6);
	/* The value the PM device acts on is the one the guest is told. */
	ck_assert_uint_eq(d[36 + 9], ACPI_SLP_TYP_S5);
	ck_assert_uint_le(ACPI_SLP_TYP_S5, 7); /* SLP_TYP is 3 bits */
}
END_TEST

/* ======================= MADT ======================= */

struct madt_cpu {
	unsigned type;
	uint32_t uid, apic_id, flags;
};

/* Walk the MADT's structures: every length consistent, one I/O APIC at
 * 0xfec00000 with GSI base 0, no other kinds (no Interrupt Source Override:
 * KVM routes ISA IRQ n to GSI n). The CPUs go into cpus[]; returns their count. */
static unsigned madt_cpus(struct madt_cpu *cpus, unsigned max)
{
	const uint8_t *m = from_xsdt("APIC");
	ck_assert_uint_eq(rd32(m + 36), 0xfee00000); /* Local Interrupt Controller Address */
	ck_assert_uint_eq(rd32(m + 40), 1);	      /* Flags: PCAT_COMPAT */
	uint32_t len = rd32(m + 4);
	unsigned n = 0, ioapics = 0;
	for (uint32_t off = 44; off < len;) {
		const uint8_t *e = m + off;
		ck_assert_uint_ge(len - off, 2);
		ck_assert_uint_ge(e[1], 2);
		ck_assert_uint_le(e[1], len - off);
		switch (e[0]) {
		case 0: /* Processor Local APIC */
			ck_assert_uint_eq(e[1], 8);
			ck_assert_uint_lt(n, max);
			cpus[n++] = (struct madt_cpu){ 0, e[2], e[3], rd32(e + 4) };
			break;
		case 9: /* Processor Local x2APIC */
			ck_assert_uint_eq(e[1], 16);
			ck_assert_uint_eq(rd16(e + 2), 0); /* Reserved */
			ck_assert_uint_lt(n, max);
			cpus[n++] = (struct madt_cpu){ 9, rd32(e + 12), rd32(e + 4), rd32(e + 8) };
			break;
		case 1: /* I/O APIC */
			ck_assert_uint_eq(e[1], 12);
			ck_assert_uint_eq(rd32(e + 4), 0xfec00000);
			ck_assert_uint_eq(rd32(e + 8), 0); /* Global System Interrupt Base */
			/* ID 0: what KVM's I/O APIC ID register holds after reset. */
			ck_assert_uint_eq(e[2], 0);
			ioapics++;
			break;
		default:
			ck_abort_msg("unexpected MADT structure type %u", e[0]);
		}
		off += e[1];
	}
	ck_assert_uint_eq(ioapics, 1);
	/* Every CPU enabled, UIDs unique. */
	for (unsigned i = 0; i < n; i++) {
		ck_assert_uint_eq(cpus[i].flags & 1, 1);
		for (unsigned j = i + 1; j < n; j++)
			ck_assert_uint_ne(cpus[i].uid, cpus[j].uid);
	}
	return n;
}

/* The MADT lists exactly these APIC IDs, in this order (BSP first), each in
 * a Processor Local APIC structure. */
static void assert_apic_ids(unsigned sockets, unsigned cores, unsigned threads,
			    const uint32_t *want, unsigned count)
{
	build(sockets, cores, threads);
	struct madt_cpu cpus[16];
	unsigned n = madt_cpus(cpus, 16);
	ck_assert_uint_eq(n, count);
	for (unsigned i = 0; i < n; i++) {
		ck_assert_uint_eq(cpus[i].type, 0);
		ck_assert_uint_eq(cpus[i].apic_id, want[i]);
	}
	/* 44 bytes of header and fields, 8 per CPU, 12 for the I/O APIC. */
	ck_assert_uint_eq(rd32(from_xsdt("APIC") + 4), 44 + 8 * count + 12);
}

START_TEST(test_madt_1s4c1t)
{
	assert_apic_ids(1, 4, 1, (const uint32_t[]){ 0, 1, 2, 3 }, 4);
}
END_TEST

START_TEST(test_madt_2s2c1t)
{
	/* 1 core bit: socket 1 starts at 1 << 1 = 2. */
	assert_apic_ids(2, 2, 1, (const uint32_t[]){ 0, 1, 2, 3 }, 4);
}
END_TEST

START_TEST(test_madt_1s2c2t)
{
	/* 1 SMT bit, 1 core bit: (core << 1) | thread. */
	assert_apic_ids(1, 2, 2, (const uint32_t[]){ 0, 1, 2, 3 }, 4);
}
END_TEST

START_TEST(test_madt_2s3c1t)
{
	/* 3 cores need 2 bits: socket 1 starts at 4, and 3 and 7 are unused. */
	assert_apic_ids(2, 3, 1, (const uint32_t[]){ 0, 1, 2, 4, 5, 6 }, 6);
}
END_TEST

START_TEST(test_madt_1cpu)
{
	assert_apic_ids(1, 1, 1, (const uint32_t[]){ 0 }, 1);
}
END_TEST

START_TEST(test_madt_x2apic_from_255)
{
	/* One socket of 300 cores: APIC IDs 0-299. 0-254 fit a Processor Local
	 * APIC structure; 255 (the broadcast ID there) and up need x2APIC ones. */
	build(1, 300, 1);
	static struct madt_cpu cpus[300];
	unsigned n = madt_cpus(cpus, 300);
	ck_assert_uint_eq(n, 300);
	for (unsigned i = 0; i < n; i++) {
		ck_assert_uint_eq(cpus[i].apic_id, i);
		ck_assert_uint_eq(cpus[i].type, i < 255 ? 0 : 9);
	}
	ck_assert_uint_eq(cpus[254].type, 0);
	ck_assert_uint_eq(cpus[255].type, 9);
	ck_assert_uint_eq(rd32(from_xsdt("APIC") + 4), 44 + 255 * 8 + 45 * 16 + 12);
}
END_TEST

START_TEST(test_madt_x2apic_sparse)
{
	/* Two sockets of 129 cores: 8 core bits, so socket 1 is 256-384. */
	build(2, 129, 1);
	static struct madt_cpu cpus[258];
	unsigned n = madt_cpus(cpus, 258);
	ck_assert_uint_eq(n, 258);
	ck_assert_uint_eq(cpus[128].type, 0);
	ck_assert_uint_eq(cpus[128].apic_id, 128);
	ck_assert_uint_eq(cpus[129].type, 9);
	ck_assert_uint_eq(cpus[129].apic_id, 256);
	ck_assert_uint_eq(cpus[257].apic_id, 384);
}
END_TEST

/* ======================= sizes and guest memory ======================= */

START_TEST(test_too_small)
{
	struct machine m = machine(1, 4, 1);
	int size = acpi_build(&m, area, sizeof(area));
	ck_assert_int_gt(size, 0);
	/* Exactly enough works; a byte less, or a tiny buffer, does not. */
	ck_assert_int_eq(acpi_build(&m, area, (size_t)size), size);
	ck_assert_int_eq(acpi_build(&m, area, (size_t)size - 1), -1);
	ck_assert_int_eq(acpi_build(&m, area, 36), -1);
	ck_assert_int_eq(acpi_build(&m, area, 0), -1);
}
END_TEST

START_TEST(test_no_stale_bytes)
{
	/* Reserved fields are written, not inherited: a buffer full of 0xaa
	 * gives the same tables as a zeroed one. */
	struct machine m = machine(2, 3, 1);
	static uint8_t dirty[ACPI_TABLES_MAX];
	memset(dirty, 0xaa, sizeof(dirty));
	build(2, 3, 1);
	ck_assert_int_eq(acpi_build(&m, dirty, sizeof(dirty)), area_size);
	struct span s[NSPANS];
	table_spans(s);
	for (unsigned i = 0; i < NSPANS; i++)
		ck_assert_msg(memcmp(dirty + s[i].off, area + s[i].off, s[i].len) == 0,
			      "%s differs", s[i].what);
}
END_TEST

START_TEST(test_write_to_guest)
{
	uint64_t ram_size = 2 * MiB;
	uint8_t *ram = calloc(1, ram_size);
	ck_assert_ptr_nonnull(ram);
	struct guest_mem mem;
	ck_assert(guest_mem_layout(&mem, ram, ram_size));
	struct machine m = machine(1, 2, 1);
	int size = acpi_write(&m, &mem);
	ck_assert_int_gt(size, 0);
	ck_assert_mem_eq(ram + ACPI_TABLES_ADDR, "RSD PTR ", 8);
	ck_assert_int_eq(acpi_build(&m, area, sizeof(area)), size);
	ck_assert_mem_eq(ram + ACPI_TABLES_ADDR, area, (size_t)size);
	/* RAM that ends before the area: refused, nothing written. */
	struct guest_mem tiny;
	ck_assert(guest_mem_layout(&tiny, ram, 512 * KiB));
	ck_assert_int_eq(acpi_write(&m, &tiny), -EFAULT);
	free(ram);
}
END_TEST

/* ======================= dump for iasl ======================= */

static void dump(const char *dir, const char *name, const uint8_t *p, size_t len)
{
	char path[4096];
	snprintf(path, sizeof(path), "%s/%s.dat", dir, name);
	FILE *f = fopen(path, "wb");
	ck_assert_msg(f != NULL, "%s: %s", path, strerror(errno));
	ck_assert_uint_eq(fwrite(p, 1, len, f), len);
	ck_assert_int_eq(fclose(f), 0);
}

/* The table at gpa as its header's length says, checked only for lying
 * inside the area: what it holds is for iasl to judge. */
static const uint8_t *raw_table(uint64_t gpa, size_t *len)
{
	*len = rd32(at(gpa, 36) + 4);
	return at(gpa, *len);
}

/* Every table of one machine, each to DIR/PREFIX-SIG.dat, found by following
 * the pointers as an OS does. */
static void dump_machine(const char *dir, const char *prefix, unsigned sockets, unsigned cores,
			 unsigned threads)
{
	build(sockets, cores, threads);
	char name[64];
	size_t len, xlen;
	snprintf(name, sizeof(name), "%s-rsdp", prefix);
	dump(dir, name, rsdp(), 36);
	const uint8_t *x = raw_table(rd64(rsdp() + 24), &xlen);
	snprintf(name, sizeof(name), "%s-XSDT", prefix);
	dump(dir, name, x, xlen);
	for (size_t off = 36; off + 8 <= xlen; off += 8) {
		const uint8_t *t = raw_table(rd64(x + off), &len);
		snprintf(name, sizeof(name), "%s-%.4s", prefix, (const char *)t);
		dump(dir, name, t, len);
		if (memcmp(t, "FACP", 4) != 0)
			continue;
		snprintf(name, sizeof(name), "%s-facs", prefix);
		dump(dir, name, at(rd32(t + 36), 64), 64);
		const uint8_t *d = raw_table(rd64(t + 140), &len);
		snprintf(name, sizeof(name), "%s-DSDT", prefix);
		dump(dir, name, d, len);
	}
}

START_TEST(test_dump)
{
	const char *dir = getenv("ACPI_DUMP_DIR");
	if (!dir)
		return; /* only for tests/integration/acpi_tables.sh */
	dump_machine(dir, "2s3c1t", 2, 3, 1);
	dump_machine(dir, "1s300c1t", 1, 300, 1); /* with x2APIC structures */
}
END_TEST

Suite *acpi_suite(void)
{
	Suite *s = suite_create("acpi");
	TCase *tc = tcase_create("tables");
	tcase_add_test(tc, test_rsdp);
	tcase_add_test(tc, test_xsdt);
	tcase_add_test(tc, test_tables_do_not_overlap);
	tcase_add_test(tc, test_fadt);
	tcase_add_test(tc, test_fadt_extended_fields);
	tcase_add_test(tc, test_facs);
	tcase_add_test(tc, test_dsdt_s5);
	tcase_add_test(tc, test_madt_1s4c1t);
	tcase_add_test(tc, test_madt_2s2c1t);
	tcase_add_test(tc, test_madt_1s2c2t);
	tcase_add_test(tc, test_madt_2s3c1t);
	tcase_add_test(tc, test_madt_1cpu);
	tcase_add_test(tc, test_madt_x2apic_from_255);
	tcase_add_test(tc, test_madt_x2apic_sparse);
	tcase_add_test(tc, test_too_small);
	tcase_add_test(tc, test_no_stale_bytes);
	tcase_add_test(tc, test_write_to_guest);
	suite_add_tcase(s, tc);
	tc = tcase_create("dump");
	tcase_add_test(tc, test_dump);
	suite_add_tcase(s, tc);
	return s;
}
