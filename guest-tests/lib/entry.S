/* Boot: the PVH note, the 32-bit entry, our GDT and identity page tables,
 * the switch to long mode (shared by the BSP and the APs) and the jump to C. */
#include "layout.h"

#define X86_CR0_PE (1 << 0)
#define X86_CR0_NW (1 << 29)
#define X86_CR0_CD (1 << 30)
#define X86_CR0_PG (1 << 31)
#define X86_CR4_PAE (1 << 5)
#define MSR_EFER 0xc0000080
#define EFER_LME (1 << 8)
#define EFER_NXE (1 << 11)
#define CPUID_80000001_EDX_NX 20 /* CPUID.80000001H:EDX[20] */
#define CPUID_80000001_EDX_LM 29 /* CPUID.80000001H:EDX[29] */
#define PTE_PRESENT_RW 0x3
#define PTE_LARGE 0x80
#define PAGE_2M 0x200000

/* XEN_ELFNOTE_PHYS32_ENTRY (xen/include/public/elfnote.h): the 32-bit
 * physical entry. The descriptor is 8 bytes like Linux's (_ASM_PTR): QEMU
 * 7.2 reads 8 bytes there whatever n_descsz says; readers taking 4 bytes
 * get the same little-endian value. */
	.section .note.Xen, "a"
	.p2align 2
	.long 4                 /* n_namesz */
	.long 8                 /* n_descsz */
	.long 18                /* n_type: XEN_ELFNOTE_PHYS32_ENTRY */
	.asciz "Xen"
	.p2align 2
	.quad pvh_start32

	.data
	.p2align 3
	.globl gdt
gdt:
	.quad 0
	.quad 0x00cf9b000000ffff /* KERNEL_CS32: flat 32-bit code, accessed */
	.quad 0x00af9b000000ffff /* KERNEL_CS64: 64-bit code (L=1, D=0) */
	.quad 0x00cf93000000ffff /* KERNEL_DS: flat data, accessed */
gdt_end:
	.p2align 3
gdt_desc:
	.word GDT_LIMIT
	.quad gdt               /* lgdt in 32-bit mode reads only 4 bytes of it */

	.globl pvh_start_info_paddr
	.p2align 2
pvh_start_info_paddr:
	.long 0                 /* EBX at entry; in .data: .bss is cleared after */

	.globl ap_next_index
	.p2align 2
ap_next_index:
	.long 1                 /* APs take indexes 1, 2, ... in arrival order */

	.if gdt_end - gdt - 1 - GDT_LIMIT
	.error "GDT_LIMIT does not match the GDT"
	.endif

	.bss
	.p2align 12
pml4:	.fill 512, 8, 0
pdpt:	.fill 512, 8, 0
pd:	.fill 512 * IDENTITY_MAP_GIB, 8, 0
	.globl cpu_stacks
cpu_stacks:
	.fill MAX_CPUS * CPU_STACK_SIZE, 1, 0

	.text
	.code32
/* PVH entry: 32-bit protected mode, paging off, flat CS/DS/ES/SS,
 * EBX = &struct hvm_start_info, interrupts off, GDTR not to be trusted. */
	.globl pvh_start32
pvh_start32:
	cli
	cld
	lgdt gdt_desc
	ljmp $KERNEL_CS32, $1f
1:	mov $KERNEL_DS, %eax
	mov %eax, %ds
	mov %eax, %es
	mov %eax, %ss
	mov %eax, %fs
	mov %eax, %gs
	mov %ebx, pvh_start_info_paddr

	/* Clear .bss (the loader need not; the page tables live there). */
	mov $__bss_start, %edi
	mov $__bss_end, %ecx
	sub %edi, %ecx
	shr $2, %ecx
	xor %eax, %eax
	rep stosl
	mov $(cpu_stacks + CPU_STACK_SIZE), %esp

	/* Without long mode there is nothing to run: exit at once. */
	mov $0x80000000, %eax
	cpuid
	cmp $0x80000001, %eax
	jb no_long_mode
	mov $0x80000001, %eax
	cpuid
	bt $CPUID_80000001_EDX_LM, %edx
	jnc no_long_mode

	/* PML4[0] -> PDPT; PDPT[i] -> PD i; PD entries map 2 MiB pages 1:1. */
	mov $(pdpt + PTE_PRESENT_RW), %eax
	mov %eax, pml4
	mov $(pd + PTE_PRESENT_RW), %eax
	xor %ecx, %ecx
1:	mov %eax, pdpt(, %ecx, 8)
	add $0x1000, %eax
	inc %ecx
	cmp $IDENTITY_MAP_GIB, %ecx
	jb 1b
	mov $(PTE_LARGE | PTE_PRESENT_RW), %eax
	xor %ecx, %ecx
1:	mov %eax, pd(, %ecx, 8)
	add $PAGE_2M, %eax
	inc %ecx
	cmp $(512 * IDENTITY_MAP_GIB), %ecx
	jb 1b

	xor %ebp, %ebp          /* EBP = 0: the BSP */
	jmp enter_long_mode

no_long_mode:
	mov $EXIT_ABORT, %eax
	mov $0xf4, %dx          /* TESTDEV_EXIT_PORT */
	out %eax, %dx
1:	hlt
	jmp 1b

/* APs arrive here from the trampoline: protected mode, CS = KERNEL_CS32,
 * our GDT loaded, no stack yet. The page tables are the BSP's. */
	.globl ap_start32
ap_start32:
	mov $KERNEL_DS, %eax
	mov %eax, %ds
	mov %eax, %es
	mov %eax, %ss
	mov %eax, %fs
	mov %eax, %gs
	mov $1, %ebp            /* EBP = 1: an AP */

/* Common to all CPUs; uses no stack. */
enter_long_mode:
	mov $pml4, %eax
	mov %eax, %cr3
	mov $X86_CR4_PAE, %eax
	mov %eax, %cr4
	mov $0x80000001, %eax
	cpuid
	mov $EFER_LME, %eax
	bt $CPUID_80000001_EDX_NX, %edx
	jnc 1f
	or $EFER_NXE, %eax
1:	xor %edx, %edx
	mov $MSR_EFER, %ecx
	wrmsr
	mov %cr0, %eax
	and $~(X86_CR0_CD | X86_CR0_NW), %eax /* an AP leaves INIT with caches off */
	or $(X86_CR0_PG | X86_CR0_PE), %eax
	mov %eax, %cr0
	ljmp $KERNEL_CS64, $start64

	.code64
start64:
	mov $KERNEL_DS, %eax
	mov %eax, %ds
	mov %eax, %es
	mov %eax, %ss
	xor %eax, %eax
	mov %eax, %fs
	mov %eax, %gs
	test %ebp, %ebp
	jnz ap_start64

	mov $(cpu_stacks + CPU_STACK_SIZE), %rsp
	mov pvh_start_info_paddr(%rip), %edi
	call boot_bsp           /* boot.c; does not return */
	jmp park

ap_start64:
	mov $1, %eax
	lock xadd %eax, ap_next_index(%rip)
	cmp $MAX_CPUS, %eax
	jae park                /* no stack left for it: stays parked */
	mov %eax, %edi
	lea 1(%rax), %rsp
	shl $14, %rsp           /* log2(CPU_STACK_SIZE) */
	add $cpu_stacks, %rsp
	xor %ebp, %ebp
	call smp_ap_entry       /* smp.c; does not return */
park:
	cli
	hlt
	jmp park

#if CPU_STACK_SIZE != (1 << 14)
#error "ap_start64 shifts by log2(CPU_STACK_SIZE)"
#endif
