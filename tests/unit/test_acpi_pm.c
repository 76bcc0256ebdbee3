/* acpi_pm: the PM1a event and control registers as ACPI 6.3 4.8.3 defines
 * them (PM1_STS write-1-to-clear, PM1_EN read/write, PM1_CNT with SCI_EN,
 * SLP_TYP and the write-only SLP_EN), through the port bus as a guest sees
 * them, at byte, word and dword width. */
#include <stdint.h>
#include <string.h>

#include "../../devices/acpi_pm.h"
#include "../../vmm/exit_status.h"
#include "../../vmm/io_bus.h"
#include "../../vmm/vm_stop.h"
#include "suites.h"

/* PM1_CNT bit positions from the spec: SCI_EN 0, SLP_TYP 10-12, SLP_EN 13. */
#define SCI_EN 0x0001
#define SLP_EN 0x2000
#define SLP_TYP(t) ((uint16_t)((t) << 10))

static struct vm_stop stop;
static struct io_bus bus;
static struct acpi_pm pm;

static void setup(void)
{
	ck_assert_int_eq(vm_stop_init(&stop), 0);
	memset(&bus, 0, sizeof(bus));
	ck_assert_int_eq(acpi_pm_init(&pm, &bus, &stop), 0);
}

static void teardown(void)
{
	acpi_pm_destroy(&pm);
	vm_stop_destroy(&stop);
}

static uint32_t in(uint16_t port, uint32_t size)
{
	uint8_t data[4] = { 0 };
	ck_assert_msg(io_bus_access(&bus, port, data, size, false), "in 0x%x/%u unclaimed", port,
		      size);
	return data[0] | data[1] << 8 | (uint32_t)data[2] << 16 | (uint32_t)data[3] << 24;
}

static void out(uint16_t port, uint32_t size, uint32_t value)
{
	uint8_t data[4] = { (uint8_t)value, (uint8_t)(value >> 8), (uint8_t)(value >> 16),
			    (uint8_t)(value >> 24) };
	ck_assert_msg(io_bus_access(&bus, port, data, size, true), "out 0x%x/%u unclaimed", port,
		      size);
}

#define STS ACPI_PM1_EVT_PORT
#define EN (ACPI_PM1_EVT_PORT + 2)
#define CNT ACPI_PM1_CNT_PORT

/* ======================= the ports ======================= */

START_TEST(test_ports)
{
	/* The FADT's blocks: 4 bytes at 0x600, 2 bytes at 0x604, nothing after. */
	for (uint16_t port = 0x600; port < 0x606; port++)
		ck_assert(io_bus_find(&bus, port, 1) != NULL);
	ck_assert(io_bus_find(&bus, 0x600, 4) != NULL);
	ck_assert(io_bus_find(&bus, 0x604, 2) != NULL);
	ck_assert(io_bus_find(&bus, 0x5ff, 1) == NULL);
	ck_assert(io_bus_find(&bus, 0x606, 1) == NULL);
	/* The blocks are separate: no access spans both. */
	ck_assert(io_bus_find(&bus, 0x602, 4) == NULL);
}
END_TEST

/* ======================= PM1_CNT and sleep ======================= */

START_TEST(test_cnt_reads_sci_en)
{
	/* Always in ACPI mode: SCI_EN reads 1, at every width. */
	ck_assert_uint_eq(in(CNT, 2), SCI_EN);
	ck_assert_uint_eq(in(CNT, 1), SCI_EN);
	ck_assert_uint_eq(in(CNT + 1, 1), 0);
	/* Writing 0 does not clear it. */
	out(CNT, 2, 0);
	ck_assert_uint_eq(in(CNT, 2), SCI_EN);
}
END_TEST

START_TEST(test_s5_linux_sequence)
{
	/* ACPICA's acpi_hw_legacy_sleep: read PM1_CNT, write it with SLP_TYP
	 * (SLP_EN clear), then again with SLP_EN. Only the second powers off. */
	uint16_t cnt = (uint16_t)in(CNT, 2);
	cnt = (uint16_t)((cnt & ~(0x1c00 | SLP_EN)) | SLP_TYP(ACPI_SLP_TYP_S5));
	out(CNT, 2, cnt);
	ck_assert(!vm_stop_requested(&stop));
	/* SLP_TYP reads back; SCI_EN is still set. */
	ck_assert_uint_eq(in(CNT, 2), SLP_TYP(ACPI_SLP_TYP_S5) | SCI_EN);
	out(CNT, 2, cnt | SLP_EN);
	ck_assert(vm_stop_requested(&stop));
	ck_assert_int_eq(stop.reason, STOP_POWEROFF);
	ck_assert_int_eq(stop.status, EXIT_STATUS_OK);
	ck_assert_int_eq(stop.status, 0);
}
END_TEST

START_TEST(test_s5_byte_write)
{
	/* SLP_TYP and SLP_EN are both in the high byte: one outb at offset 1. */
	out(CNT + 1, 1, (SLP_EN | SLP_TYP(ACPI_SLP_TYP_S5)) >> 8);
	ck_assert(vm_stop_requested(&stop));
	ck_assert_int_eq(stop.reason, STOP_POWEROFF);
	ck_assert_int_eq(stop.status, 0);
}
END_TEST

START_TEST(test_slp_en_is_write_only)
{
	/* SLP_EN with a type we do not offer: ignored, and it reads back 0. */
	out(CNT, 2, SLP_EN | SLP_TYP(1));
	ck_assert_uint_eq(in(CNT, 2) & SLP_EN, 0);
}
END_TEST

START_TEST(test_s3_ignored)
{
	/* S3 (any type but the \_S5 one) with SLP_EN: the VM keeps running,
	 * however often it is asked; it is logged once. */
	for (unsigned type = 0; type < 8; type++) {
		if (type == ACPI_SLP_TYP_S5)
			continue;
		out(CNT, 2, SCI_EN | SLP_EN | SLP_TYP(type));
		out(CNT + 1, 1, (SLP_EN | SLP_TYP(type)) >> 8);
	}
	ck_assert(!vm_stop_requested(&stop));
	ck_assert_int_eq(stop.reason, STOP_NONE);
	ck_assert(pm.warned_sleep);
}
END_TEST

START_TEST(test_s5_type_without_slp_en)
{
	/* SLP_TYP = S5 alone is only a setting, and a later low-byte write
	 * (SCI_EN, BM_RLD) keeps it without sleeping. */
	out(CNT + 1, 1, SLP_TYP(ACPI_SLP_TYP_S5) >> 8);
	out(CNT, 1, 0x02);
	ck_assert(!vm_stop_requested(&stop));
	ck_assert_uint_eq(in(CNT, 2), SLP_TYP(ACPI_SLP_TYP_S5) | 0x02 | SCI_EN);
	/* Then SLP_EN alone in the high byte, keeping the type: powers off. */
	out(CNT + 1, 1, (SLP_EN | SLP_TYP(ACPI_SLP_TYP_S5)) >> 8);
	ck_assert(vm_stop_requested(&stop));
}
END_TEST

START_TEST(test_s5_after_other_stop)
{
	/* The first stop wins: a power-off during a timeout does not turn it
	 * into status 0. */
	ck_assert(vm_stop_request(&stop, STOP_TIMEOUT, EXIT_STATUS_TIMEOUT));
	out(CNT, 2, SLP_EN | SLP_TYP(ACPI_SLP_TYP_S5));
	ck_assert_int_eq(stop.reason, STOP_TIMEOUT);
	ck_assert_int_eq(stop.status, EXIT_STATUS_TIMEOUT);
}
END_TEST

/* ======================= PM1_STS and PM1_EN ======================= */

START_TEST(test_sts_write_one_to_clear)
{
	/* WAK_STS (15), PWRBTN_STS (8), GBL_STS (5), TMR_STS (0) pending. */
	pm.sts = 0x8121;
	ck_assert_uint_eq(in(STS, 2), 0x8121);
	/* Writing 0s changes nothing. */
	out(STS, 2, 0);
	ck_assert_uint_eq(in(STS, 2), 0x8121);
	/* Writing 1s clears exactly those bits. */
	out(STS, 2, 0x0021);
	ck_assert_uint_eq(in(STS, 2), 0x8100);
	/* A byte write to the high byte clears there only. */
	out(STS + 1, 1, 0x80);
	ck_assert_uint_eq(in(STS, 2), 0x0100);
	/* A byte write of 0xff to the low byte leaves the high byte. */
	out(STS, 1, 0xff);
	ck_assert_uint_eq(in(STS, 2), 0x0100);
	ck_assert_uint_eq(in(STS + 1, 1), 0x01);
	out(STS, 2, 0xffff);
	ck_assert_uint_eq(in(STS, 2), 0);
}
END_TEST

START_TEST(test_en_read_write)
{
	ck_assert_uint_eq(in(EN, 2), 0);
	/* GBL_EN must stick: ACPICA decides from the read-back whether there
	 * is a global lock. */
	out(EN, 2, 0x0020);
	ck_assert_uint_eq(in(EN, 2), 0x0020);
	/* Only the defined enable bits (TMR 0, GBL 5, PWRBTN 8, SLPBTN 9,
	 * RTC 10, PCIEXP_WAKE_DIS 14) hold a value; reserved bits read 0. */
	out(EN, 2, 0xffff);
	ck_assert_uint_eq(in(EN, 2), 0x4721);
	/* Byte writes replace only their byte. */
	out(EN + 1, 1, 0x00);
	ck_assert_uint_eq(in(EN, 2), 0x0021);
	out(EN, 1, 0x01);
	ck_assert_uint_eq(in(EN, 2), 0x0001);
	ck_assert_uint_eq(in(EN, 1), 0x01);
	ck_assert_uint_eq(in(EN + 1, 1), 0x00);
	/* Writing PM1_EN clears no status, and vice versa. */
	pm.sts = 0x0100;
	out(EN, 2, 0xffff);
	ck_assert_uint_eq(pm.sts, 0x0100);
	out(STS, 2, 0xffff);
	ck_assert_uint_eq(in(EN, 2), 0x4721);
}
END_TEST

START_TEST(test_evt_dword)
{
	/* One 32-bit access covers PM1_STS (low word) and PM1_EN (high word). */
	pm.sts = 0x8001;
	out(EN, 2, 0x0100);
	ck_assert_uint_eq(in(STS, 4), 0x01008001);
	out(STS, 4, 0x00208000); /* clear WAK_STS, set EN = GBL_EN only */
	ck_assert_uint_eq(in(STS, 2), 0x0001);
	ck_assert_uint_eq(in(EN, 2), 0x0020);
	/* A word at offset 1 straddles both registers. */
	ck_assert_uint_eq(in(STS + 1, 2), 0x2000);
	ck_assert(!vm_stop_requested(&stop));
}
END_TEST

Suite *acpi_pm_suite(void)
{
	Suite *s = suite_create("acpi_pm");
	TCase *tc = tcase_create("registers");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_ports);
	tcase_add_test(tc, test_cnt_reads_sci_en);
	tcase_add_test(tc, test_s5_linux_sequence);
	tcase_add_test(tc, test_s5_byte_write);
	tcase_add_test(tc, test_slp_en_is_write_only);
	tcase_add_test(tc, test_s3_ignored);
	tcase_add_test(tc, test_s5_type_without_slp_en);
	tcase_add_test(tc, test_s5_after_other_stop);
	tcase_add_test(tc, test_sts_write_one_to_clear);
	tcase_add_test(tc, test_en_read_write);
	tcase_add_test(tc, test_evt_dword);
	suite_add_tcase(s, tc);
	return s;
}
