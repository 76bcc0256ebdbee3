/* The 256 interrupt entry stubs (16 bytes apart from isr_stubs) and the
 * common path that saves the registers as a struct ex_regs (idt.h) and
 * calls idt_dispatch(). */

	.text
	.code64
	.p2align 4
	.globl isr_stubs
isr_stubs:
vector = 0
	.rept 256
0:
	/* The CPU pushes an error code for #DF, #TS, #NP, #SS, #GP, #PF,
	 * #AC, #CP, #VC and #SX; the other stubs push a 0 in its place. */
	.if (vector == 8) | ((vector >= 10) & (vector <= 14)) | (vector == 17) | (vector == 21) | (vector == 29) | (vector == 30)
	.else
	pushq $0
	.endif
	pushq $vector
	jmp isr_common
	.fill 0b + 16 - ., 1, 0xcc
vector = vector + 1
	.endr

isr_common:
	push %rax
	push %rbx
	push %rcx
	push %rdx
	push %rsi
	push %rdi
	push %rbp
	push %r8
	push %r9
	push %r10
	push %r11
	push %r12
	push %r13
	push %r14
	push %r15
	cld
	mov %rsp, %rdi          /* 16-byte aligned: 22 quadwords above it */
	call idt_dispatch
	pop %r15
	pop %r14
	pop %r13
	pop %r12
	pop %r11
	pop %r10
	pop %r9
	pop %r8
	pop %rbp
	pop %rdi
	pop %rsi
	pop %rdx
	pop %rcx
	pop %rbx
	pop %rax
	add $16, %rsp           /* vector and error code */
	iretq
