/* The guest side of the test device: exit through port 0xf4, and messages
 * through port 0xf8, one per CPU (the per-CPU struct holds it, so CPUs
 * never wait for each other). */
#include "testdev.h"

#include "boot.h"
#include "printf.h"
#include "processor.h"
#include "smp.h"
#include "string.h"

void exit(int code)
{
	outl(TESTDEV_EXIT_PORT, (uint32_t)code);
	for (;;) { /* no exit device: stop here */
		irq_disable();
		__asm__ volatile("hlt");
	}
}

static const char *status_name(uint32_t status)
{
	switch (status) {
	case TESTDEV_OK:
		return "ok";
	case TESTDEV_UNKNOWN:
		return "unknown";
	case TESTDEV_INVALID:
		return "invalid";
	case TESTDEV_NO_VMM:
		return "no VMM";
	default:
		return "bad status";
	}
}

/* Sends one message; *value goes out and, for an answered parameter, comes
 * back. The VMM answers during the OUT. */
static uint32_t send(uint32_t op, const char *name, uint64_t *value)
{
	size_t len = strnlen(name, TESTDEV_NAME_MAX);
	if (len == TESTDEV_NAME_MAX)
		return TESTDEV_INVALID;
	bool irq = irq_save(); /* an interrupt handler may send too */
	volatile struct testdev_msg *m = &this_cpu()->msg;
	m->op = op;
	m->status = TESTDEV_NO_VMM;
	m->value = *value;
	for (size_t i = 0; i < TESTDEV_NAME_MAX; i++)
		m->name[i] = i < len ? name[i] : '\0';
	outl(TESTDEV_MSG_PORT, (uint32_t)(uintptr_t)m);
	uint32_t status = m->status;
	if (status == TESTDEV_OK)
		*value = m->value;
	irq_restore(irq);
	return status;
}

uint32_t testdev_result(const char *name, uint64_t value)
{
	uint32_t status = send(TESTDEV_OP_RESULT, name, &value);
	printf("testdev: result %s=%lu (%s)\n", name, value, status_name(status));
	return status;
}

uint64_t testdev_param(const char *name, uint64_t def)
{
	uint64_t value = 0;
	uint32_t status = send(TESTDEV_OP_PARAM, name, &value);
	const char *from = "VMM";
	if (status != TESTDEV_OK) {
		if (status != TESTDEV_UNKNOWN && status != TESTDEV_NO_VMM)
			printf("testdev: parameter %s: VMM answered %s (%u)\n", name,
			       status_name(status), status);
		from = "command line";
		if (!boot_cmdline_value(name, &value)) {
			value = def;
			from = "default";
		}
	}
	printf("testdev: parameter %s=%lu (%s)\n", name, value, from);
	return value;
}
