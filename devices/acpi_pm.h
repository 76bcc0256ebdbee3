/* The ACPI fixed-hardware PM1a registers (ACPI 6.3, 4.8.3, "PM1 Event
 * Grouping" and "PM1 Control Grouping"): the event block (PM1_STS, PM1_EN)
 * and the control block (PM1_CNT), as the FADT (vmm/acpi.c) describes them.
 * A guest powers off by writing SLP_TYP = the \_S5 value with SLP_EN; that
 * stops the VM with exit status 0. */
#ifndef DEVICES_ACPI_PM_H
#define DEVICES_ACPI_PM_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "../vmm/io_bus.h"
#include "../vmm/vm_stop.h"

/* 0x600 is free here (COM1 0x3f8, PIC, PIT, 0xf4, 0xf8, i8042 0x60/0x64,
 * RTC 0x70) and is where QEMU's PIIX4/ICH9 put their PM registers. */
#define ACPI_PM1_EVT_PORT 0x600
#define ACPI_PM1_EVT_LEN 4 /* PM1_STS (2 bytes), then PM1_EN (2 bytes) */
#define ACPI_PM1_CNT_PORT 0x604
#define ACPI_PM1_CNT_LEN 2

/* The SCI's ISA IRQ (FADT SCI_INT). Nothing raises it: no fixed event is
 * ever signalled, so it only has to be a valid, otherwise unused IRQ. */
#define ACPI_SCI_IRQ 9

/* The SLP_TYP value the DSDT's \_S5_ package gives for soft-off. Ours to
 * choose (3 bits); 5 reads as S5, and non-zero keeps a stray write of 0
 * with SLP_EN from powering off. */
#define ACPI_SLP_TYP_S5 5

/* PM1_CNT bits (ACPI 6.3, "PM1 Control Registers Fixed Hardware Feature
 * Control Bits"). */
#define ACPI_PM1_CNT_SCI_EN 0x0001
#define ACPI_PM1_CNT_SLP_TYP_SHIFT 10
#define ACPI_PM1_CNT_SLP_TYP_MASK 0x1c00
#define ACPI_PM1_CNT_SLP_EN 0x2000

struct acpi_pm {
	pthread_mutex_t lock; /* vCPUs may access the registers at once */
	struct vm_stop *stop;
	uint16_t sts; /* PM1_STS: write 1 to clear */
	uint16_t en;  /* PM1_EN: the defined enable bits */
	uint16_t cnt; /* PM1_CNT's read/write bits (SCI_EN is read-only 1) */
	bool warned_sleep; /* a sleep state other than S5 was logged once */
};

/* Register both blocks on the port bus. 0 or -errno. */
int acpi_pm_init(struct acpi_pm *pm, struct io_bus *pio, struct vm_stop *stop);
void acpi_pm_destroy(struct acpi_pm *pm);

/* The register-level handlers, for tests: offsets within each block. */
void acpi_pm_evt_io(void *opaque, uint64_t offset, uint8_t *data, uint32_t size, bool is_write);
void acpi_pm_cnt_io(void *opaque, uint64_t offset, uint8_t *data, uint32_t size, bool is_write);

#endif
