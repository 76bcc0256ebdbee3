/* Every fixed address, selector and size of the test-kernel runtime, in one
 * place; plain #defines so that both C and the .S files include it. */
#ifndef GUEST_LAYOUT_H
#define GUEST_LAYOUT_H

/* The kernel is linked and loaded at 1 MiB, identity-mapped (kernel.ld
 * repeats this number: the linker script cannot include a header). */
#define KERNEL_PADDR 0x100000

/* Below 1 MiB, 0x0-0x7fff belongs to the VMM's boot structures;
 * 0x8000-0x9ffff is ours. The AP trampoline goes to 0x8000, which is also
 * the SIPI vector: the AP starts in real mode at CS:IP = 0x0800:0000. */
#define TRAMPOLINE_PADDR 0x8000
#define TRAMPOLINE_MAX 0x1000
#define TRAMPOLINE_SIPI_VECTOR (TRAMPOLINE_PADDR >> 12)

/* Our GDT (entry.S). */
#define KERNEL_CS32 0x08
#define KERNEL_CS64 0x10
#define KERNEL_DS 0x18
#define GDT_LIMIT (4 * 8 - 1)

/* CPUs, stacks: CPU i (0 = the BSP) runs on cpu_stacks[i]. */
#define MAX_CPUS 64
#define CPU_STACK_SIZE 0x4000

/* Page tables identity-map [0, 4 GiB) with 2 MiB pages. */
#define IDENTITY_MAP_GIB 4

/* Interrupt vectors the runtime owns: on_cpu()'s wake-up IPI, the
 * reschedule IPI (smp_send_resched; its handler only EOIs: the CPU it wakes
 * looks at its run queue itself), the local APIC timer of the measuring
 * kernels (Linux's LOCAL_TIMER_VECTOR), and the spurious vector. */
#define SMP_WAKEUP_VECTOR 0xf0
#define RESCHED_VECTOR 0xf1
#define TIMER_VECTOR 0xec
#define APIC_SPURIOUS_VECTOR 0xff

/* The exit code of a kernel that dies on an unhandled exception or
 * interrupt: the VMM (or QEMU's isa-debug-exit) then exits with
 * (0x7f << 1) | 1 = 255. A kernel whose tests fail exits 1 (status 3). */
#define EXIT_ABORT 0x7f

#endif
