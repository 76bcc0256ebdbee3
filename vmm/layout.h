/* Every fixed guest-physical address vmm uses, in one place (Firecracker's layout.rs). */
#ifndef VMM_LAYOUT_H
#define VMM_LAYOUT_H

#define KiB (1ULL << 10)
#define MiB (1ULL << 20)
#define GiB (1ULL << 30)

/* Low memory: the VMM's boot structures live in [BOOT_AREA_START, BOOT_AREA_END)
 * and [FDT_ADDR, FDT_ADDR + FDT_MAX_SIZE); no kernel segment may overlap them.
 * 0x8000-0x3ffff is left to the guest (our test kernels put their AP
 * trampoline at 0x8000). */
#define BOOT_AREA_START 0x0ULL
#define BOOT_AREA_END 0x8000ULL
#define PVH_START_INFO_ADDR 0x1000ULL /* struct hvm_start_info */
#define PVH_MEMMAP_ADDR 0x1040ULL     /* hvm_memmap_table_entry[PVH_MEMMAP_MAX] */
#define PVH_MEMMAP_MAX 8
#define CMDLINE_ADDR 0x2000ULL
#define CMDLINE_MAX 4096ULL
#define FDT_ADDR 0x40000ULL      /* the machine description (machine_fdt.c) */
#define FDT_MAX_SIZE 0x40000ULL  /* 256 KiB: room for a few hundred CPUs */

/* Booting Linux (bzImage, vmm/boot_linux.c): the x86 boot protocol's zero
 * page, the command line and the 64-bit entry's GDT and identity-mapping page
 * tables (4 GiB in 2 MiB pages: PML4, one PDPT, four page directories). These
 * reuse the low area the PVH path leaves to test kernels: a Linux boot has no
 * test kernel. */
#define LINUX_GDT_ADDR 0x500ULL
#define LINUX_BOOT_PARAMS_ADDR 0x7000ULL /* struct boot_params, 4 KiB */
#define LINUX_PML4_ADDR 0x9000ULL
#define LINUX_PDPT_ADDR 0xa000ULL
#define LINUX_PD_ADDR 0xb000ULL /* four pages, to 0xefff */
#define LINUX_CMDLINE_ADDR 0x20000ULL
#define LINUX_CMDLINE_MAX 0x10000ULL /* the most any kernel's cmdline_size may claim here */
#define LINUX_KERNEL_ADDR HIGH_RAM_START /* protected-mode code of a bzImage */

/* ACPI tables (vmm/acpi.c), in the reserved BIOS area where Linux also scans
 * for the RSDP (0xe0000-0xfffff). */
#define ACPI_TABLES_ADDR 0xe0000ULL
#define ACPI_TABLES_MAX 0x10000ULL

/* The legacy VGA/BIOS hole is described to the guest as reserved. */
#define LOW_RAM_END 0xa0000ULL
#define HIGH_RAM_START (1 * MiB)

/* RAM stops below the 32-bit MMIO hole (IOAPIC at 0xfec00000, LAPIC at
 * 0xfee00000, KVM's TSS pages); RAM beyond that continues at 4 GiB. */
#define MMIO_HOLE_START (3 * GiB)
#define MMIO_HOLE_END (4 * GiB)
#define KVM_TSS_ADDR 0xfffbd000ULL
#define KVM_IDENTITY_MAP_ADDR 0xfffbc000ULL

#endif
