/* The AP trampoline: 16-bit real-mode code that smp.c copies to
 * TRAMPOLINE_PADDR; a SIPI starts an AP here (CS = TRAMPOLINE_PADDR >> 4,
 * IP = 0), and it goes on to protected mode and entry.S's ap_start32. It
 * runs from whatever page the SIPI names: its one data reference, the GDT
 * descriptor, is relative to DS = CS. */
#include "layout.h"

	.text
	.code16
	.globl trampoline_start, trampoline_end
trampoline_start:
	cli
	cld
	mov %cs, %ax
	mov %ax, %ds
	lgdtl tramp_gdt_desc - trampoline_start
	mov %cr0, %eax
	or $1, %eax             /* CR0.PE; entry.S clears CD/NW later */
	mov %eax, %cr0
	ljmpl $KERNEL_CS32, $ap_start32

tramp_gdt_desc:                 /* unaligned: keeps the size below constant */
	.word GDT_LIMIT
	.long gdt               /* 32-bit base: the GDT is above 1 MiB */
trampoline_end:
	.code64

	.if trampoline_end - trampoline_start > TRAMPOLINE_MAX
	.error "the trampoline outgrew TRAMPOLINE_MAX"
	.endif
