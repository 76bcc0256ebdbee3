/* The ACPI fixed-hardware PM1a registers (ACPI 6.3, 4.8.3): the event block
 * (PM1_STS, PM1_EN) and the control block (PM1_CNT). A guest powers off by
 * writing SLP_TYP = the \_S5 value with SLP_EN. */
#include "acpi_pm.h"

#include <string.h>

#include "../vmm/exit_status.h"
#include "../vmm/log.h"

/* PM1_EN's defined bits (ACPI 6.3, "PM1 Enable Registers"): TMR_EN, GBL_EN, PWRBTN_EN,
 * SLPBTN_EN, RTC_EN, PCIEXP_WAKE_DIS. They must stick: ACPICA enables
 * GBL_EN and reads it back to decide whether the global lock exists. */
#define PM1_EN_DEFINED 0x4721
/* PM1_CNT's read/write bits besides SCI_EN: BM_RLD and SLP_TYP. GBL_RLS
 * (bit 2) only signals firmware, which there is none of, and SLP_EN is
 * write-only: both read as 0. */
#define PM1_CNT_STORED (0x0002 | ACPI_PM1_CNT_SLP_TYP_MASK)

/* The registers are 16 bits wide, but ACPI leaves the access width to the
 * GAS and guests use bytes as well as words, at any offset in a block. An
 * access is split into byte lanes per 16-bit register: which bytes of each
 * it covers (`mask`) and what was written there (`val`). */
struct lanes {
	uint16_t mask[2];
	uint16_t val[2];
};

static struct lanes split_write(uint64_t offset, const uint8_t *data, uint32_t size,
				unsigned block_len)
{
	struct lanes l = { { 0, 0 }, { 0, 0 } };
	for (uint32_t i = 0; i < size; i++) {
		uint64_t byte = offset + i;
		if (byte >= block_len)
			break; /* io_bus never sends this; direct callers might */
		unsigned reg = (unsigned)(byte / 2), shift = (unsigned)(byte % 2) * 8;
		l.mask[reg] |= (uint16_t)(0xff << shift);
		l.val[reg] |= (uint16_t)(data[i] << shift);
	}
	return l;
}

static void read_regs(const uint16_t *regs, unsigned block_len, uint64_t offset, uint8_t *data,
		      uint32_t size)
{
	for (uint32_t i = 0; i < size; i++) {
		uint64_t byte = offset + i;
		data[i] = byte < block_len ? (uint8_t)(regs[byte / 2] >> ((byte % 2) * 8)) : 0xff;
	}
}

void acpi_pm_evt_io(void *opaque, uint64_t offset, uint8_t *data, uint32_t size, bool is_write)
{
	struct acpi_pm *pm = opaque;
	pthread_mutex_lock(&pm->lock);
	if (is_write) {
		struct lanes l = split_write(offset, data, size, ACPI_PM1_EVT_LEN);
		/* PM1_STS: a 1 clears the bit, a 0 leaves it (write-1-to-clear). */
		pm->sts &= (uint16_t)~l.val[0];
		pm->en = (uint16_t)((pm->en & ~l.mask[1]) | (l.val[1] & PM1_EN_DEFINED));
	} else {
		uint16_t regs[2] = { pm->sts, pm->en };
		read_regs(regs, ACPI_PM1_EVT_LEN, offset, data, size);
	}
	pthread_mutex_unlock(&pm->lock);
}

enum sleep_request { SLEEP_NONE, SLEEP_POWEROFF, SLEEP_UNSUPPORTED, SLEEP_UNSUPPORTED_FIRST };

/* PM1_CNT written as `value`: what SLP_EN asks for, if it is set. */
static enum sleep_request sleep_request(struct acpi_pm *pm, uint16_t value)
{
	if (!(value & ACPI_PM1_CNT_SLP_EN))
		return SLEEP_NONE;
	unsigned type = (value & ACPI_PM1_CNT_SLP_TYP_MASK) >> ACPI_PM1_CNT_SLP_TYP_SHIFT;
	if (type == ACPI_SLP_TYP_S5)
		return SLEEP_POWEROFF;
	if (pm->warned_sleep)
		return SLEEP_UNSUPPORTED;
	pm->warned_sleep = true;
	return SLEEP_UNSUPPORTED_FIRST;
}

void acpi_pm_cnt_io(void *opaque, uint64_t offset, uint8_t *data, uint32_t size, bool is_write)
{
	struct acpi_pm *pm = opaque;
	enum sleep_request req = SLEEP_NONE;
	uint16_t value = 0;
	pthread_mutex_lock(&pm->lock);
	if (is_write) {
		struct lanes l = split_write(offset, data, size, ACPI_PM1_CNT_LEN);
		/* A byte write keeps the other byte: merge before looking at it. */
		value = (uint16_t)((pm->cnt & ~l.mask[0]) | l.val[0]);
		pm->cnt = value & PM1_CNT_STORED;
		req = sleep_request(pm, value);
	} else {
		/* SCI_EN reads 1: ACPI mode is always on (the FADT has no SMI_CMD). */
		uint16_t reg = pm->cnt | ACPI_PM1_CNT_SCI_EN;
		read_regs(&reg, ACPI_PM1_CNT_LEN, offset, data, size);
	}
	pthread_mutex_unlock(&pm->lock);
	/* Acted on outside the lock: stopping takes the stop lock and wakes
	 * the main loop. */
	if (req == SLEEP_POWEROFF)
		vm_stop_request(pm->stop, STOP_POWEROFF, EXIT_STATUS_OK);
	else if (req == SLEEP_UNSUPPORTED_FIRST)
		vmm_log("guest asked for ACPI sleep type %u; only soft-off (S5, type %u) is "
			"supported, ignored (said once)",
			(value & ACPI_PM1_CNT_SLP_TYP_MASK) >> ACPI_PM1_CNT_SLP_TYP_SHIFT,
			ACPI_SLP_TYP_S5);
}

int acpi_pm_init(struct acpi_pm *pm, struct io_bus *pio, struct vm_stop *stop)
{
	memset(pm, 0, sizeof(*pm));
	int rc = pthread_mutex_init(&pm->lock, NULL);
	if (rc)
		return -rc;
	pm->stop = stop; /* also marks the mutex as initialised, for destroy */
	rc = io_bus_register(pio, ACPI_PM1_EVT_PORT, ACPI_PM1_EVT_LEN, acpi_pm_evt_io, pm,
			     "acpi-pm1-evt");
	if (rc == 0)
		rc = io_bus_register(pio, ACPI_PM1_CNT_PORT, ACPI_PM1_CNT_LEN, acpi_pm_cnt_io, pm,
				     "acpi-pm1-cnt");
	return rc;
}

void acpi_pm_destroy(struct acpi_pm *pm)
{
	/* vm_destroy also reaches here for a VM that failed before init: its
	 * zeroed state has no stop pointer and no mutex to destroy. */
	if (pm->stop)
		pthread_mutex_destroy(&pm->lock);
	pm->stop = NULL;
}
