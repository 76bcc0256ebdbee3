/* The IDT: one table for all CPUs, a handler per vector, and the report of
 * an unhandled exception or interrupt (vector, error code, RIP; exit). */
#ifndef GUEST_IDT_H
#define GUEST_IDT_H

#include <stdint.h>

/* What isr.S pushes, lowest address first. */
struct ex_regs {
	uint64_t r15, r14, r13, r12, r11, r10, r9, r8;
	uint64_t rbp, rdi, rsi, rdx, rcx, rbx, rax;
	uint64_t vector, error_code;
	uint64_t rip, cs, rflags, rsp, ss; /* pushed by the CPU */
};

/* A handler may change *regs (e.g. advance rip past a faulting
 * instruction). Interrupt handlers (vectors 32-255) send their own EOI
 * (apic_eoi), as in kvm-unit-tests. */
typedef void (*idt_handler_t)(struct ex_regs *regs);

/* Builds the table (BSP, once) and loads it. */
void idt_init(void);
/* Loads the table on this CPU (the APs). */
void idt_load(void);

/* Installs a handler for any vector, exceptions included (a test that
 * expects a #GP handles vector 13); NULL restores the default, which reports
 * the event and exits with EXIT_ABORT (spurious 0xff is ignored). Returns
 * the previous handler. Shared by all CPUs. */
idt_handler_t idt_set_handler(uint8_t vector, idt_handler_t handler);

#endif
