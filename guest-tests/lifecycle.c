/* lifecycle: a guest that misbehaves on request, so the suite can check how
 * the VMM ends a VM. The `mode` parameter picks the behaviour:
 *   0 print "lifecycle: ready" and pass (for --expect)
 *   1 print a line every 100 ms forever (a VM with exits, for --timeout/SIGTERM)
 *   2 spin forever with interrupts off and no exits at all
 *   3 triple fault (an empty IDT, then an exception)
 *   4 print a prompt that ends no line, then spin (what a person at a
 *     terminal must see at once) */
#include "libguest.h"

enum { MODE_READY, MODE_TICK, MODE_SPIN, MODE_TRIPLE_FAULT, MODE_PROMPT };

static void __attribute__((noreturn)) tick_forever(void)
{
	for (unsigned long n = 0;; n++) {
		printf("lifecycle: tick %lu\n", n);
		mdelay(100);
	}
}

static void __attribute__((noreturn)) spin_forever(void)
{
	irq_disable();
	for (;;)
		cpu_relax();
}

static void __attribute__((noreturn)) triple_fault(void)
{
	/* With no IDT, the #UD cannot be delivered (#GP), nor can that (#DF):
	 * the CPU shuts down, which KVM reports as KVM_EXIT_SHUTDOWN. */
	static const struct descriptor_table_ptr empty = { .limit = 0, .base = 0 };
	lidt(&empty);
	__asm__ volatile("ud2");
	__builtin_unreachable();
}

int main(void)
{
	uint64_t mode = testdev_param("mode", MODE_READY);
	printf("lifecycle: mode %lu\n", mode);
	switch (mode) {
	case MODE_TICK:
		tick_forever();
	case MODE_SPIN:
		spin_forever();
	case MODE_TRIPLE_FAULT:
		triple_fault();
	case MODE_PROMPT:
		printf("lifecycle: prompt> ");
		spin_forever();
	default:
		printf("lifecycle: ready\n");
		report(true, "lifecycle: ready");
		return report_summary();
	}
}
