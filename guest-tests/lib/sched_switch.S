/* The scheduler's context switch (sched.c): callee-saved registers on the
 * stack, the stack pointer saved and another loaded; and where a new
 * task's first switch lands. */

	.text
	.code64

/* void sched_switch(uint64_t *save_sp, uint64_t load_sp) */
	.globl sched_switch
sched_switch:
	push %rbp
	push %rbx
	push %r12
	push %r13
	push %r14
	push %r15
	mov %rsp, (%rdi)
	mov %rsi, %rsp
	pop %r15
	pop %r14
	pop %r13
	pop %r12
	pop %rbx
	pop %rbp
	ret

/* A new task's first switch returns here with the task in %r12 and %rsp
 * 16-byte aligned (sched.c builds that frame). */
	.globl sched_task_start
sched_task_start:
	mov %r12, %rdi
	call sched_task_main    /* does not return */
	ud2
