/* The PS/2 (8042) controller at ports 0x60 (data) and 0x64 (status and
 * command), with no keyboard or mouse behind it. It exists for two things:
 * Linux's i8042 driver finds a sane controller and moves on, and the
 * controller's reset line (command 0xFE, Linux's reboot=k) ends the VM as a
 * reboot does. */
#include "i8042.h"

#include <string.h>

#include "../vmm/exit_status.h"
#include "../vmm/log.h"

/* Status register bits (port 0x64 read). */
#define STR_OBF 0x01      /* output buffer full: read it from port 0x60 */
#define STR_SYS 0x04      /* the system flag, a copy of CTR bit 2 */
#define STR_UNLOCKED 0x10 /* keyboard not inhibited by a keylock */

/* Command byte (CTR) bits. */
#define CTR_KBDINT 0x01
#define CTR_SYS 0x04
#define CTR_KBDDIS 0x10
#define CTR_AUXDIS 0x20
#define CTR_XLATE 0x40

/* What a PC BIOS leaves: keyboard interrupt and scancode translation on,
 * no mouse, POST passed. */
#define CTR_DEFAULT (CTR_XLATE | CTR_AUXDIS | CTR_SYS | CTR_KBDINT)

#define OUTPUT_PORT_RESET 0x01 /* active low: 0 holds the CPU in reset */
#define OUTPUT_PORT_A20 0x02

/* The commands answered (Linux's i8042.h and its reboot code). */
enum {
	CMD_READ_CTR = 0x20,
	CMD_WRITE_CTR = 0x60,
	CMD_AUX_DISABLE = 0xa7,
	CMD_AUX_ENABLE = 0xa8,
	CMD_AUX_TEST = 0xa9,
	CMD_SELF_TEST = 0xaa,
	CMD_KBD_DISABLE = 0xad,
	CMD_KBD_ENABLE = 0xae,
	CMD_READ_OUTPUT_PORT = 0xd0,
	CMD_WRITE_OUTPUT_PORT = 0xd1,
	CMD_PULSE = 0xf0, /* 0xf0-0xff: pulse the output lines whose bit is clear */
};
#define SELF_TEST_OK 0x55
/* The mouse port's interface test: with nothing plugged in, its pulled-up
 * clock line never goes low. Linux takes that as "no AUX port" at once
 * rather than after two half-second timeouts. */
#define AUX_TEST_CLOCK_STUCK_HIGH 0x02

static void respond(struct i8042 *k, uint8_t v)
{
	k->out = v;
	k->out_full = true;
}

static void reset_machine(struct i8042 *k)
{
	/* Linux pulses the line ten times in a row: say it once. */
	if (vm_stop_request(k->stop, STOP_POWEROFF, EXIT_STATUS_OK))
		vmm_log("the guest reset the machine (i8042)");
}

static void write_output_port(struct i8042 *k, uint8_t v)
{
	k->output_port = v;
	if (!(v & OUTPUT_PORT_RESET))
		reset_machine(k);
}

static void command(struct i8042 *k, uint8_t cmd)
{
	k->await_data = 0; /* a new command abandons one waiting for its data */
	if (cmd >= CMD_PULSE) {
		if (!(cmd & OUTPUT_PORT_RESET)) /* 0xfe, or any pulse including bit 0 */
			reset_machine(k);
		return;
	}
	switch (cmd) {
	case CMD_READ_CTR:
		respond(k, k->ctr);
		break;
	case CMD_WRITE_CTR:
	case CMD_WRITE_OUTPUT_PORT:
		k->await_data = cmd;
		break;
	case CMD_AUX_DISABLE:
		k->ctr |= CTR_AUXDIS;
		break;
	case CMD_AUX_ENABLE:
		k->ctr &= (uint8_t)~CTR_AUXDIS;
		break;
	case CMD_AUX_TEST:
		respond(k, AUX_TEST_CLOCK_STUCK_HIGH);
		break;
	case CMD_SELF_TEST:
		respond(k, SELF_TEST_OK);
		break;
	case CMD_KBD_DISABLE:
		k->ctr |= CTR_KBDDIS;
		break;
	case CMD_KBD_ENABLE:
		k->ctr &= (uint8_t)~CTR_KBDDIS;
		break;
	case CMD_READ_OUTPUT_PORT:
		respond(k, k->output_port);
		break;
	default: /* everything else: no answer, no effect */
		break;
	}
}

static void write_data(struct i8042 *k, uint8_t v)
{
	uint8_t cmd = k->await_data;
	k->await_data = 0;
	if (cmd == CMD_WRITE_CTR)
		k->ctr = v;
	else if (cmd == CMD_WRITE_OUTPUT_PORT)
		write_output_port(k, v);
	/* Otherwise the byte is for the keyboard, and there is none. */
}

static uint8_t read_status(const struct i8042 *k)
{
	/* Never "input buffer full": commands take effect at once, so a
	 * guest's wait for the controller (Linux's kb_wait) never waits. */
	return (uint8_t)((k->out_full ? STR_OBF : 0) | (k->ctr & CTR_SYS) | STR_UNLOCKED);
}

void i8042_data_io(void *opaque, uint64_t offset, uint8_t *data, uint32_t size, bool is_write)
{
	struct i8042 *k = opaque;
	(void)offset;
	pthread_mutex_lock(&k->lock);
	if (is_write) {
		write_data(k, data[0]);
	} else {
		/* With nothing queued, the last byte is read again, as on the chip. */
		memset(data, 0, size);
		data[0] = k->out;
		k->out_full = false;
	}
	pthread_mutex_unlock(&k->lock);
}

void i8042_command_io(void *opaque, uint64_t offset, uint8_t *data, uint32_t size, bool is_write)
{
	struct i8042 *k = opaque;
	(void)offset;
	pthread_mutex_lock(&k->lock);
	if (is_write) {
		command(k, data[0]);
	} else {
		memset(data, 0, size);
		data[0] = read_status(k);
	}
	pthread_mutex_unlock(&k->lock);
}

int i8042_init(struct i8042 *k, struct io_bus *pio, struct vm_stop *stop)
{
	memset(k, 0, sizeof(*k));
	k->stop = stop;
	k->ctr = CTR_DEFAULT;
	k->output_port = OUTPUT_PORT_RESET | OUTPUT_PORT_A20;
	pthread_mutex_init(&k->lock, NULL);
	/* Two one-byte ranges: 0x61-0x63 between them are not ours (0x61 is
	 * the in-kernel PIT's speaker port). */
	int rc = io_bus_register(pio, I8042_DATA_PORT, 1, i8042_data_io, k, "i8042-data");
	if (rc == 0)
		rc = io_bus_register(pio, I8042_COMMAND_PORT, 1, i8042_command_io, k, "i8042-command");
	return rc;
}

void i8042_destroy(struct i8042 *k)
{
	pthread_mutex_destroy(&k->lock);
}
