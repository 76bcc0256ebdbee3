/* The ACPI tables a Linux guest needs to find its vCPUs (MADT) and to power
 * off (FADT, DSDT with \_S5_, the PM1 registers of devices/acpi_pm.c): RSDP,
 * XSDT, FADT, FACS, DSDT and MADT, at ACPI_TABLES_ADDR (layout.h). */
#ifndef VMM_ACPI_H
#define VMM_ACPI_H

#include <stddef.h>
#include <stdint.h>

#include "guest_mem.h"
#include "machine.h"

/* Local APIC IDs from here on need a Processor Local x2APIC entry: the
 * Processor Local APIC entry has one byte for the ID, and 0xff means
 * "broadcast" (ACPI 6.3, 5.2.12.12). */
#define ACPI_X2APIC_MIN_ID 255

/* Write every table for machine `m` into buf, which stands for guest-physical
 * [ACPI_TABLES_ADDR, ACPI_TABLES_ADDR + len), len at most ACPI_TABLES_MAX.
 * The RSDP comes first, at ACPI_TABLES_ADDR. Pure. Returns the bytes used,
 * or -1 if they do not fit in len. */
int acpi_build(const struct machine *m, uint8_t *buf, size_t len);

/* The same, into guest RAM at ACPI_TABLES_ADDR (through guest_mem_ptr).
 * Returns the bytes used, -EFAULT if that area is not RAM, or -ENOSPC if
 * the tables do not fit in ACPI_TABLES_MAX. */
int acpi_write(const struct machine *m, const struct guest_mem *mem);

#endif
