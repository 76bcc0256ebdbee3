/* The test device at port 0xf8: guests report named results and ask for named
 * parameters through a message in guest memory (testdev_abi.h). */
#include "testdev.h"

#include <stddef.h>
#include <string.h>

#include "testdev_abi.h"

static bool valid_name(const char *name)
{
	size_t len = strnlen(name, TESTDEV_NAME_MAX);
	if (len == 0 || len == TESTDEV_NAME_MAX)
		return false;
	for (size_t i = 0; i < len; i++)
		if (!strchr("abcdefghijklmnopqrstuvwxyz0123456789_.-", name[i]))
			return false;
	return true;
}

static uint32_t act(struct testdev *t, struct testdev_msg *msg)
{
	if (!valid_name(msg->name))
		return TESTDEV_INVALID;
	switch (msg->op) {
	case TESTDEV_OP_RESULT:
		results_add(t->results, msg->name, msg->value);
		return TESTDEV_OK;
	case TESTDEV_OP_PARAM:
		return t->host.param(t->host.opaque, msg->name, &msg->value) ? TESTDEV_OK
									     : TESTDEV_UNKNOWN;
	case TESTDEV_OP_PAUSE:
		if (msg->value > TESTDEV_PAUSE_MAX_MS || !t->host.pause_cycle)
			return TESTDEV_INVALID;
		t->host.pause_cycle(t->host.opaque, (uint32_t)msg->value);
		return TESTDEV_OK;
	default:
		return TESTDEV_INVALID;
	}
}

void testdev_handle(struct testdev *t, uint64_t gpa)
{
	/* Work on a private copy: another vCPU may rewrite the message meanwhile. */
	struct testdev_msg msg;
	if (!guest_mem_read(t->mem, gpa, &msg, sizeof(msg)))
		return; /* not RAM: nothing to answer into */
	msg.status = act(t, &msg);
	/* Answer only the fields the VMM owns. */
	guest_mem_write(t->mem, gpa + offsetof(struct testdev_msg, status), &msg.status,
			sizeof(msg.status));
	if (msg.op == TESTDEV_OP_PARAM && msg.status == TESTDEV_OK)
		guest_mem_write(t->mem, gpa + offsetof(struct testdev_msg, value), &msg.value,
				sizeof(msg.value));
}

void testdev_io(void *opaque, uint64_t offset, uint8_t *data, uint32_t size, bool is_write)
{
	(void)offset;
	if (!is_write) {
		memset(data, 0, size);
		return;
	}
	if (size != 4)
		return; /* the ABI is a 32-bit OUT of the message's address */
	uint32_t gpa;
	memcpy(&gpa, data, sizeof(gpa));
	testdev_handle(opaque, gpa);
}

int testdev_init(struct testdev *t, struct io_bus *pio, const struct guest_mem *mem,
		 struct results *results, const struct testdev_host *host)
{
	*t = (struct testdev){ mem, results, *host };
	return io_bus_register(pio, TESTDEV_MSG_PORT, 4, testdev_io, t, "testdev");
}
