/* The ACPI tables a Linux guest needs to find its vCPUs and to power off,
 * following ACPI 6.3 (section numbers below are that version's). The
 * platform is a classic PC, not a hardware-reduced one: KVM's in-kernel PIC,
 * PIT and I/O APIC are there and Linux should keep using them, and power-off
 * goes through the fixed PM1 registers (devices/acpi_pm.c).
 *
 * The area, in order (each table zeroed first, checksums set last):
 *   RSDP  at ACPI_TABLES_ADDR, 16-byte aligned: Linux gets its address from
 *         the boot protocol but also finds it by scanning 0xe0000-0xfffff
 *   XSDT  -> FADT, MADT
 *   FADT  -> FACS, DSDT; the PM1 blocks, SCI_INT
 *   FACS  64-byte aligned, as 5.2.10 requires
 *   DSDT  \_S5_ only
 *   MADT  one entry per vCPU, one I/O APIC
 * There is no RSDT: an OS that reads ACPI 2.0+ tables uses the XSDT when
 * the RSDP has one (Linux: acpi_tb_parse_root_table); the RSDT is for ACPI
 * 1.0 OSes only. */
#include "acpi.h"

#include <errno.h>
#include <string.h>

#include "../cpu/topology.h"
#include "../devices/acpi_pm.h"
#include "layout.h"

/* Who made the tables, in every header (5.2.6): OEM ID (6 bytes), OEM table
 * ID "VMM" + the signature (8 bytes), creator ID (4 bytes). */
#define OEM_ID "VMM   "
#define OEM_TABLE_ID_PREFIX "VMM"
#define OEM_REVISION 1
#define CREATOR_ID "VMM "
#define CREATOR_REVISION 1

/* The System Description Table header (5.2.6). */
#define SDT_HEADER_LEN 36
#define SDT_CHECKSUM 9

/* RSDP (5.2.5.3): revision 2 (ACPI 2.0+) has the XSDT address and a second
 * checksum over all 36 bytes; the first covers the ACPI 1.0 part, 20 bytes. */
#define RSDP_LEN 36
#define RSDP_V1_LEN 20
#define RSDP_REVISION 2

/* XSDT (5.2.8): revision 1, the header then 64-bit table addresses. */
#define XSDT_REVISION 1
#define XSDT_ENTRIES 2 /* FADT, MADT */
#define XSDT_LEN (SDT_HEADER_LEN + 8 * XSDT_ENTRIES)

/* FADT (5.2.9): ACPI 6.3 is major revision 6, minor 3. Only the
 * fields set below; everything else is 0, which the comments explain. */
#define FADT_LEN 276
#define FADT_REVISION 6
#define FADT_MINOR_REVISION 3
enum fadt_offset {
	FADT_FIRMWARE_CTRL = 36,
	FADT_DSDT = 40,
	FADT_SCI_INT = 46,
	FADT_PM1A_EVT_BLK = 56,
	FADT_PM1A_CNT_BLK = 64,
	FADT_PM1_EVT_LEN = 88,
	FADT_PM1_CNT_LEN = 89,
	FADT_P_LVL2_LAT = 96,
	FADT_P_LVL3_LAT = 98,
	FADT_IAPC_BOOT_ARCH = 109,
	FADT_FLAGS = 112,
	FADT_MINOR_VERSION = 131,
	FADT_X_DSDT = 140,
	FADT_X_PM1A_EVT_BLK = 148,
	FADT_X_PM1A_CNT_BLK = 172,
	FADT_HYPERVISOR_VENDOR = 268,
};

/* IAPC_BOOT_ARCH (5.2.9.3). LEGACY_DEVICES: there are ISA devices the
 * namespace does not describe (COM1 at 0x3f8; the DSDT holds only \_S5_).
 * 8042 is left clear on purpose: vmm's i8042 (devices/i8042.c) is only the
 * reset line behind reboot=k, with no keyboard behind it, and with the bit
 * clear Linux's i8042 driver does not probe the ports (measured in the rig:
 * its probe costs 2.5 s of boot, every status poll an exit), while the
 * reboot path still writes 0xfe to port 0x64 directly. VGA Not
 * Present: nothing may probe 0xa0000 or ports 0x3b0-0x3df. CMOS RTC Not
 * Present: Linux registers no rtc_cmos and takes the wall clock from
 * kvmclock. */
#define IAPC_LEGACY_DEVICES (1u << 0)
#define IAPC_8042 (1u << 1) /* not set: see above */
#define IAPC_VGA_NOT_PRESENT (1u << 2)
#define IAPC_CMOS_RTC_NOT_PRESENT (1u << 5)
#define IAPC_BOOT_ARCH                                                                    \
	(IAPC_LEGACY_DEVICES | IAPC_VGA_NOT_PRESENT | IAPC_CMOS_RTC_NOT_PRESENT)

/* FADT Flags (5.2.9, "Fixed Feature Flags"). WBINVD: KVM executes it correctly (the
 * spec requires it set). PROC_C1: HLT works on every vCPU. PWR_BUTTON and
 * SLP_BUTTON set mean *no* fixed-hardware buttons (there are none to press).
 * FIX_RTC: no RTC wake status in the fixed registers. HW_REDUCED_ACPI (bit
 * 20) is clear: the classic model, see the top of the file. */
#define FADT_F_WBINVD (1u << 0)
#define FADT_F_PROC_C1 (1u << 2)
#define FADT_F_PWR_BUTTON (1u << 4)
#define FADT_F_SLP_BUTTON (1u << 5)
#define FADT_F_FIX_RTC (1u << 6)
#define FADT_FLAGS_VALUE                                                                  \
	(FADT_F_WBINVD | FADT_F_PROC_C1 | FADT_F_PWR_BUTTON | FADT_F_SLP_BUTTON |        \
	 FADT_F_FIX_RTC)

/* P_LVL2_LAT above 100 and P_LVL3_LAT above 1000 (us) say C2 and C3 are not
 * supported: a vCPU only halts. */
#define FADT_NO_C2 101
#define FADT_NO_C3 1001

/* FACS (5.2.10): 64 bytes, version 2; no header checksum. Required outside
 * hardware-reduced ACPI; its global lock word starts free and no waking
 * vector is set, since only S5 is offered. */
#define FACS_LEN 64
#define FACS_VERSION_OFFSET 32
#define FACS_VERSION 2

/* DSDT revision 2: integers in its AML are 64 bits wide (5.2.11.1). */
#define DSDT_REVISION 2

/* The DSDT's AML (chapter 20, "ACPI Machine Language Specification"): one
 * object, \_S5_, the package of SLP_TYP values for soft-off ("\_Sx (System
 * States)": PM1a_CNT.SLP_TYP, PM1b_CNT.SLP_TYP, two reserved). Linux reads
 * element 0 and writes it to PM1a_CNT.SLP_TYP with SLP_EN. Hand-assembled:
 *
 *   DefName      := NameOp NameString DataRefObject        (20.2.5.1)
 *     NameOp     := 0x08
 *     NameString := NameSeg, four characters, '_' allowed   (20.2.2)
 *                   "_S5_" = 5F 53 35 5F; at the DSDT's top level the
 *                   current scope is the root, so no '\' (0x5C) is needed
 *   DefPackage   := PackageOp PkgLength NumElements PackageElementList
 *     PackageOp  := 0x12                                    (20.2.5.4)
 *     PkgLength  := one PkgLeadByte for lengths up to 63: bits 7-6 = 0
 *                   (no bytes follow), bits 5-0 the length, which counts
 *                   the PkgLength byte itself and everything after it in
 *                   the package: 1 + 1 + 2 + 2 + 1 + 1 = 8   (20.2.4)
 *     NumElements:= ByteData 4
 *     elements   := ByteConst 5 = BytePrefix 0x0A, ByteData 0x05 (20.2.3),
 *                   twice (PM1a, and PM1b which does not exist), then
 *                   ZeroOp 0x00 twice (the reserved elements). 0 and 1
 *                   have one-byte opcodes; other constants need a prefix. */
static const uint8_t dsdt_aml[] = {
	0x08,			/* NameOp */
	'_',  'S', '5', '_',	/* NameSeg "_S5_" */
	0x12,			/* PackageOp */
	0x08,			/* PkgLength: 8 bytes, no follow bytes */
	0x04,			/* NumElements */
	0x0a, ACPI_SLP_TYP_S5,	/* BytePrefix, SLP_TYP for PM1a_CNT */
	0x0a, ACPI_SLP_TYP_S5,	/* BytePrefix, SLP_TYP for PM1b_CNT */
	0x00,			/* ZeroOp: reserved */
	0x00,			/* ZeroOp: reserved */
};
#define DSDT_LEN (SDT_HEADER_LEN + sizeof(dsdt_aml))

/* MADT (5.2.12): revision 5 (ACPI 6.3), the header, the local APIC address
 * and flags, then interrupt controller structures. */
#define MADT_REVISION 5
#define MADT_FIXED_LEN 44
#define MADT_LAPIC_ADDR 0xfee00000u
/* PCAT_COMPAT: there are dual 8259s too (KVM's PIC); the OS must mask them
 * before using the I/O APIC. */
#define MADT_PCAT_COMPAT 1u
#define MADT_TYPE_LAPIC 0 /* Processor Local APIC, 5.2.12.2 */
#define MADT_LAPIC_LEN 8
#define MADT_TYPE_IOAPIC 1 /* I/O APIC, 5.2.12.3 */
#define MADT_IOAPIC_LEN 12
#define MADT_TYPE_X2APIC 9 /* Processor Local x2APIC, 5.2.12.12 */
#define MADT_X2APIC_LEN 16
#define MADT_CPU_ENABLED 1u /* "Enabled": usable now, no hot-plug */
/* KVM's in-kernel I/O APIC: the PC's address, 24 pins from GSI 0, and with
 * KVM's default routing GSI n is pin n, so ISA IRQ n is GSI n and no
 * Interrupt Source Override is needed (not even the usual IRQ 0 -> GSI 2:
 * KVM's PIT raises GSI 0). Its ID is 0: that is what KVM's I/O APIC ID
 * register holds after reset, so table and hardware agree. I/O APIC IDs
 * need not differ from local APIC IDs on xAPIC and x2APIC systems (messages
 * travel on the system bus, not the old 3-wire APIC bus), and Linux x86-64
 * only checks them against other I/O APICs (io_apic_unique_id). */
#define MADT_IOAPIC_ID 0
#define MADT_IOAPIC_ADDR 0xfec00000u
#define MADT_IOAPIC_GSI_BASE 0

/* ACPI tables are little-endian whatever the host. */
static void put16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
}

static void put32(uint8_t *p, uint32_t v)
{
	put16(p, (uint16_t)v);
	put16(p + 2, (uint16_t)(v >> 16));
}

static void put64(uint8_t *p, uint64_t v)
{
	put32(p, (uint32_t)v);
	put32(p + 4, (uint32_t)(v >> 32));
}

/* Set p[at] so that the len bytes at p sum to 0 modulo 256 (5.2.5.3, 5.2.6). */
static void set_checksum(uint8_t *p, size_t len, size_t at)
{
	uint8_t sum = 0;
	p[at] = 0;
	for (size_t i = 0; i < len; i++)
		sum = (uint8_t)(sum + p[i]);
	p[at] = (uint8_t)(0x100 - sum);
}

/* The common header (5.2.6), checksum still 0. */
static void sdt_header(uint8_t *t, const char *sig, uint32_t len, uint8_t revision)
{
	memcpy(t, sig, 4);
	put32(t + 4, len);
	t[8] = revision;
	memcpy(t + 10, OEM_ID, 6);
	memcpy(t + 16, OEM_TABLE_ID_PREFIX, 3);
	memcpy(t + 19, sig, 4);
	t[23] = ' ';
	put32(t + 24, OEM_REVISION);
	memcpy(t + 28, CREATOR_ID, 4);
	put32(t + 32, CREATOR_REVISION);
}

static void sdt_finish(uint8_t *t, size_t len)
{
	set_checksum(t, len, SDT_CHECKSUM);
}

/* A Generic Address Structure (5.2.3.2) for a block of 16-bit I/O registers. */
static void put_gas_io(uint8_t *p, uint16_t port, uint8_t bytes)
{
	p[0] = 1;		      /* Address Space ID: System I/O */
	p[1] = (uint8_t)(bytes * 8); /* Register Bit Width: the whole block */
	p[2] = 0;		      /* Register Bit Offset */
	p[3] = 2;		      /* Access Size: word, the PM1 registers' width */
	put64(p + 4, port);
}

static void write_rsdp(uint8_t *r, uint64_t xsdt)
{
	memcpy(r, "RSD PTR ", 8);
	memcpy(r + 9, OEM_ID, 6);
	r[15] = RSDP_REVISION;
	put32(r + 16, 0); /* RsdtAddress: no RSDT, see the top of the file */
	put32(r + 20, RSDP_LEN);
	put64(r + 24, xsdt);
	/* The first checksum is inside what the extended one covers: first. */
	set_checksum(r, RSDP_V1_LEN, 8);
	set_checksum(r, RSDP_LEN, 32);
}

static void write_xsdt(uint8_t *t, const uint64_t entries[XSDT_ENTRIES])
{
	sdt_header(t, "XSDT", XSDT_LEN, XSDT_REVISION);
	for (unsigned i = 0; i < XSDT_ENTRIES; i++)
		put64(t + SDT_HEADER_LEN + 8 * i, entries[i]);
	sdt_finish(t, XSDT_LEN);
}

/* The FADT. Besides what is set here: SMI_CMD, ACPI_ENABLE and ACPI_DISABLE
 * are 0, which says the platform is always in ACPI mode (PM1_CNT.SCI_EN
 * reads 1), so the OS has nothing to hand over from SMM. No PM1b blocks, no
 * PM2, no GPE blocks, and no PM timer (optional since ACPI 5.0A; Linux has
 * kvmclock and the TSC). Preferred_PM_Profile is 0, unspecified. The FACS
 * address goes in FIRMWARE_CTRL only: earlier revisions allowed only one of
 * FIRMWARE_CTRL and X_FIRMWARE_CTRL to be non-zero, and 6.3 uses the X_ one
 * for a FACS above 4 GiB, which ours is not. DSDT and X_DSDT hold the
 * same address, as do the 32-bit and GAS forms of the PM1 blocks (ACPICA
 * warns when they differ). */
static void write_fadt(uint8_t *t, uint64_t facs, uint64_t dsdt)
{
	sdt_header(t, "FACP", FADT_LEN, FADT_REVISION);
	put32(t + FADT_FIRMWARE_CTRL, (uint32_t)facs);
	put32(t + FADT_DSDT, (uint32_t)dsdt);
	put16(t + FADT_SCI_INT, ACPI_SCI_IRQ);
	put32(t + FADT_PM1A_EVT_BLK, ACPI_PM1_EVT_PORT);
	put32(t + FADT_PM1A_CNT_BLK, ACPI_PM1_CNT_PORT);
	t[FADT_PM1_EVT_LEN] = ACPI_PM1_EVT_LEN;
	t[FADT_PM1_CNT_LEN] = ACPI_PM1_CNT_LEN;
	put16(t + FADT_P_LVL2_LAT, FADT_NO_C2);
	put16(t + FADT_P_LVL3_LAT, FADT_NO_C3);
	put16(t + FADT_IAPC_BOOT_ARCH, IAPC_BOOT_ARCH);
	put32(t + FADT_FLAGS, FADT_FLAGS_VALUE);
	t[FADT_MINOR_VERSION] = FADT_MINOR_REVISION;
	put64(t + FADT_X_DSDT, dsdt);
	put_gas_io(t + FADT_X_PM1A_EVT_BLK, ACPI_PM1_EVT_PORT, ACPI_PM1_EVT_LEN);
	put_gas_io(t + FADT_X_PM1A_CNT_BLK, ACPI_PM1_CNT_PORT, ACPI_PM1_CNT_LEN);
	memcpy(t + FADT_HYPERVISOR_VENDOR, "VMM     ", 8);
	sdt_finish(t, FADT_LEN);
}

static void write_facs(uint8_t *f)
{
	memcpy(f, "FACS", 4);
	put32(f + 4, FACS_LEN);
	f[FACS_VERSION_OFFSET] = FACS_VERSION;
}

static void write_dsdt(uint8_t *t)
{
	sdt_header(t, "DSDT", DSDT_LEN, DSDT_REVISION);
	memcpy(t + SDT_HEADER_LEN, dsdt_aml, sizeof(dsdt_aml));
	sdt_finish(t, DSDT_LEN);
}

static size_t madt_cpu_entry_len(uint32_t apic_id)
{
	return apic_id < ACPI_X2APIC_MIN_ID ? MADT_LAPIC_LEN : MADT_X2APIC_LEN;
}

static size_t madt_len(const struct topology *topo)
{
	size_t len = MADT_FIXED_LEN + MADT_IOAPIC_LEN;
	for (unsigned i = 0; i < topo->cpus; i++)
		len += madt_cpu_entry_len(topology_apic_id(topo, i));
	return len;
}

/* vCPU `index` with its APIC ID. The ACPI processor UID is the index: unique,
 * and the order Linux numbers CPUs in is the table's. The spec wants IDs
 * below 255 in Processor Local APIC entries and the rest in x2APIC ones
 * (5.2.12.12). Returns the entry's length. */
static size_t write_cpu_entry(uint8_t *p, unsigned index, uint32_t apic_id)
{
	if (apic_id < ACPI_X2APIC_MIN_ID) {
		p[0] = MADT_TYPE_LAPIC;
		p[1] = MADT_LAPIC_LEN;
		p[2] = (uint8_t)index; /* index <= APIC ID < 255: fits */
		p[3] = (uint8_t)apic_id;
		put32(p + 4, MADT_CPU_ENABLED);
		return MADT_LAPIC_LEN;
	}
	p[0] = MADT_TYPE_X2APIC;
	p[1] = MADT_X2APIC_LEN;
	/* p[2..3] reserved */
	put32(p + 4, apic_id);
	put32(p + 8, MADT_CPU_ENABLED);
	put32(p + 12, index);
	return MADT_X2APIC_LEN;
}

static void write_ioapic_entry(uint8_t *p)
{
	p[0] = MADT_TYPE_IOAPIC;
	p[1] = MADT_IOAPIC_LEN;
	p[2] = MADT_IOAPIC_ID;
	/* p[3] reserved */
	put32(p + 4, MADT_IOAPIC_ADDR);
	put32(p + 8, MADT_IOAPIC_GSI_BASE);
}

/* Processors in vCPU order, the BSP (index 0) first as 5.2.12 asks, then
 * the I/O APIC. */
static void write_madt(uint8_t *t, size_t len, const struct topology *topo)
{
	sdt_header(t, "APIC", (uint32_t)len, MADT_REVISION);
	put32(t + 36, MADT_LAPIC_ADDR);
	put32(t + 40, MADT_PCAT_COMPAT);
	uint8_t *p = t + MADT_FIXED_LEN;
	for (unsigned i = 0; i < topo->cpus; i++)
		p += write_cpu_entry(p, i, topology_apic_id(topo, i));
	write_ioapic_entry(p);
	sdt_finish(t, len);
}

/* Space in the caller's buffer, handed out front to back. */
struct area {
	uint8_t *buf;
	size_t len;
	size_t used;
	bool full; /* something did not fit */
};

/* `size` zeroed bytes at the next multiple of `align` (a power of two):
 * their offset, or 0 with a->full set. */
static size_t area_take(struct area *a, size_t size, size_t align)
{
	size_t off = (a->used + align - 1) & ~(align - 1);
	if (a->full || off > a->len || size > a->len - off) {
		a->full = true;
		return 0;
	}
	memset(a->buf + off, 0, size);
	a->used = off + size;
	return off;
}

int acpi_build(const struct machine *m, uint8_t *buf, size_t len)
{
	const struct topology *topo = &m->cpu.topo;
	size_t madt_bytes = madt_len(topo);
	struct area a = { buf, len, 0, false };
	size_t rsdp = area_take(&a, RSDP_LEN, 16);
	size_t xsdt = area_take(&a, XSDT_LEN, 16);
	size_t fadt = area_take(&a, FADT_LEN, 16);
	size_t facs = area_take(&a, FACS_LEN, 64);
	size_t dsdt = area_take(&a, DSDT_LEN, 16);
	size_t madt = area_take(&a, madt_bytes, 16);
	if (a.full || madt_bytes > UINT32_MAX || a.used > (size_t)INT32_MAX)
		return -1;
	uint64_t base = ACPI_TABLES_ADDR;
	write_rsdp(buf + rsdp, base + xsdt);
	write_xsdt(buf + xsdt, (const uint64_t[XSDT_ENTRIES]){ base + fadt, base + madt });
	write_fadt(buf + fadt, base + facs, base + dsdt);
	write_facs(buf + facs);
	write_dsdt(buf + dsdt);
	write_madt(buf + madt, madt_bytes, topo);
	return (int)a.used;
}

int acpi_write(const struct machine *m, const struct guest_mem *mem)
{
	uint8_t *area = guest_mem_ptr(mem, ACPI_TABLES_ADDR, ACPI_TABLES_MAX);
	if (!area)
		return -EFAULT;
	int size = acpi_build(m, area, ACPI_TABLES_MAX);
	return size < 0 ? -ENOSPC : size;
}
