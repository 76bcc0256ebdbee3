/* The IDT: 256 interrupt gates into isr.S's stubs, a handler table shared by
 * all CPUs, and what happens to events nobody handles. */
#include "idt.h"

#include "apic.h"
#include "counters.h"
#include "layout.h"
#include "printf.h"
#include "processor.h"
#include "smp.h"
#include "testdev.h"

#define ISR_STUB_SIZE 16
#define GATE_INTERRUPT_64 0x8e /* present, DPL 0, 64-bit interrupt gate */
#define VECTOR_PF 14

struct idt_gate {
	uint16_t offset0;
	uint16_t selector;
	uint8_t ist;
	uint8_t type;
	uint16_t offset1;
	uint32_t offset2;
	uint32_t reserved;
};
_Static_assert(sizeof(struct idt_gate) == 16, "64-bit IDT gates are 16 bytes");

extern char isr_stubs[];

static struct idt_gate idt[256] __attribute__((aligned(16)));
static idt_handler_t handlers[256];

static const char *const exception_names[32] = {
	"#DE", "#DB", "NMI", "#BP", "#OF", "#BR", "#UD", "#NM", "#DF", "CSO", "#TS",
	"#NP", "#SS", "#GP", "#PF", "",    "#MF", "#AC", "#MC", "#XM", "#VE", "#CP",
	"",    "",    "",    "",    "",    "",    "#HV", "#VC", "#SX", "",
};

void idt_init(void)
{
	for (unsigned v = 0; v < 256; v++) {
		uint64_t addr = (uint64_t)(uintptr_t)(isr_stubs + v * ISR_STUB_SIZE);
		idt[v] = (struct idt_gate){
			.offset0 = (uint16_t)addr,
			.selector = KERNEL_CS64,
			.type = GATE_INTERRUPT_64,
			.offset1 = (uint16_t)(addr >> 16),
			.offset2 = (uint32_t)(addr >> 32),
		};
	}
	idt_load();
}

void idt_load(void)
{
	struct descriptor_table_ptr p = { sizeof(idt) - 1, (uint64_t)(uintptr_t)idt };
	lidt(&p);
}

idt_handler_t idt_set_handler(uint8_t vector, idt_handler_t handler)
{
	return __atomic_exchange_n(&handlers[vector], handler, __ATOMIC_SEQ_CST);
}

static void __attribute__((noreturn)) unhandled(struct ex_regs *r)
{
	struct percpu *c = this_cpu();
	if (c->in_fatal++) /* faulted while reporting a fault: just go */
		exit(EXIT_ABORT);
	if (r->vector < 32)
		printf("FATAL: unhandled exception %lu (%s), error code 0x%lx, RIP 0x%lx, "
		       "RSP 0x%lx, RFLAGS 0x%lx\n",
		       r->vector, exception_names[r->vector], r->error_code, r->rip, r->rsp,
		       r->rflags);
	else
		printf("FATAL: unexpected interrupt, vector %lu, RIP 0x%lx\n", r->vector, r->rip);
	if (r->vector == VECTOR_PF)
		printf("FATAL: CR2 0x%lx\n", read_cr2());
	printf("FATAL: on CPU %u (x2APIC ID %u)\n", c->index, c->apic_id);
	exit(EXIT_ABORT);
}

void idt_dispatch(struct ex_regs *r);
void idt_dispatch(struct ex_regs *r)
{
	idt_handler_t h = __atomic_load_n(&handlers[r->vector], __ATOMIC_ACQUIRE);
	if (r->vector >= 32)
		counters_irq((uint8_t)r->vector);
	if (h)
		h(r);
	else if (r->vector != APIC_SPURIOUS_VECTOR)
		unhandled(r);
}
