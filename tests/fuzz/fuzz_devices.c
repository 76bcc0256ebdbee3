/* Fuzz target: the guest-facing port devices, all on one port bus as the VM
 * wires them: the UART (devices/serial.c, with host console input through
 * serial_receive and its output into a real console collecting result
 * lines), the i8042 (devices/i8042.c), the ACPI PM1 registers
 * (devices/acpi_pm.c), the test device (devices/testdev.c, its messages in
 * guest RAM) and debug-exit (devices/debug_exit.c). The VM-stop object, the
 * console and the results are the real ones, built by their init functions
 * for every input. A device that stops the VM only records it (vm_stop);
 * nothing here may exit.
 * Input: a sequence of operations, each starting with one byte whose value
 * modulo 6 says what follows:
 *   0 port access: sel, off, ctl [, data]: the port is a device's base
 *     (sel % 8: COM1, 0x60, 0x64, 0x600, 0x604, 0xf8, 0xf4, or 0x5f8 for
 *     an unclaimed one) + off % 9; size {1,2,4,8}[ctl & 3]; a write if
 *     ctl & 4, then `size` data bytes
 *   1 console input: n, then n bytes offered to serial_receive
 *   2 guest RAM write: u16 gpa, n, then n bytes (a testdev message, say)
 *   3 queries: serial_rx_room, serial_rx_wanted, console_flush,
 *     console_set_write_through
 *   4 testdev_handle at a u32 gpa
 *   5 a handler called directly, any offset: sel, off, ctl [, data] as 0 */
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../devices/acpi_pm.h"
#include "../../devices/debug_exit.h"
#include "../../devices/i8042.h"
#include "../../devices/serial.h"
#include "../../devices/testdev.h"
#include "../../devices/testdev_abi.h"
#include "../../vmm/console.h"
#include "../../vmm/guest_mem.h"
#include "../../vmm/io_bus.h"
#include "../../vmm/results.h"
#include "../../vmm/vm_stop.h"
#include "fuzz_util.h"

#define RAM_SIZE (64u << 10)

static uint8_t ram[RAM_SIZE];

struct machine {
	struct io_bus pio;
	struct vm_stop stop;
	struct console con;
	struct results results;
	struct serial uart;
	struct i8042 kbd;
	struct acpi_pm pm;
	struct testdev testdev;
	struct guest_mem mem;
	bool irq_level;
	unsigned rx_room_calls;
};

static void on_irq(void *opaque, bool level)
{
	struct machine *m = opaque;
	FUZZ_ASSERT(level != m->irq_level); /* called only when it changes */
	m->irq_level = level;
}

static void on_rx_room(void *opaque)
{
	struct machine *m = opaque;
	m->rx_room_calls++;
}

static void on_match(void *opaque)
{
	struct machine *m = opaque;
	vm_stop_request(&m->stop, STOP_EXPECT, 0);
}

static bool param(void *opaque, const char *name, uint64_t *value)
{
	(void)opaque;
	FUZZ_ASSERT(strnlen(name, TESTDEV_NAME_MAX) < TESTDEV_NAME_MAX);
	if (strcmp(name, "known") != 0)
		return false;
	*value = 42;
	return true;
}

static void pause_cycle(void *opaque, uint32_t ms)
{
	(void)opaque;
	FUZZ_ASSERT(ms <= TESTDEV_PAUSE_MAX_MS);
}

static const uint16_t bases[8] = { SERIAL_COM1_BASE, I8042_DATA_PORT, I8042_COMMAND_PORT,
				   ACPI_PM1_EVT_PORT, ACPI_PM1_CNT_PORT, TESTDEV_MSG_PORT,
				   TESTDEV_EXIT_PORT, 0x5f8 };

static void direct(struct machine *m, unsigned sel, uint64_t off, uint8_t *buf, uint32_t size,
		   bool is_write)
{
	switch (sel % 6) {
	case 0:
		serial_io(&m->uart, off, buf, size, is_write);
		break;
	case 1:
		i8042_data_io(&m->kbd, off, buf, size, is_write);
		break;
	case 2:
		i8042_command_io(&m->kbd, off, buf, size, is_write);
		break;
	case 3:
		acpi_pm_evt_io(&m->pm, off, buf, size, is_write);
		break;
	case 4:
		acpi_pm_cnt_io(&m->pm, off, buf, size, is_write);
		break;
	default:
		testdev_io(&m->testdev, off, buf, size, is_write);
		break;
	}
}

static int devnull = -1;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (devnull < 0)
		devnull = open("/dev/null", O_WRONLY | O_CLOEXEC);
	static struct machine m; /* large: keep it off the stack */
	memset(&m, 0, sizeof(m));
	memset(ram, 0, sizeof(ram)); /* each input starts from the same RAM */
	char err[128];
	guest_mem_layout(&m.mem, ram, RAM_SIZE);
	if (vm_stop_init(&m.stop) < 0)
		return 0;
	results_init(&m.results);
	FUZZ_ASSERT(console_init(&m.con, devnull, "^SUMMARY: ", on_match, &m, err,
				 sizeof(err)) == 0);
	console_collect_results(&m.con, &m.results);
	struct testdev_host host = { param, pause_cycle, &m };
	FUZZ_ASSERT(serial_init(&m.uart, &m.pio, SERIAL_COM1_BASE, &m.con, on_irq, on_rx_room,
				&m) == 0);
	FUZZ_ASSERT(i8042_init(&m.kbd, &m.pio, &m.stop) == 0);
	FUZZ_ASSERT(acpi_pm_init(&m.pm, &m.pio, &m.stop) == 0);
	FUZZ_ASSERT(testdev_init(&m.testdev, &m.pio, &m.mem, &m.results, &host) == 0);
	FUZZ_ASSERT(debug_exit_init(&m.pio, &m.stop) == 0);

	struct fuzz_in in = { data, size };
	while (in.left) {
		unsigned op = (unsigned)fuzz_take(&in, 1) % 6;
		switch (op) {
		case 0:
		case 5: {
			unsigned sel = (unsigned)fuzz_take(&in, 1);
			unsigned off = (unsigned)fuzz_take(&in, 1);
			unsigned ctl = (unsigned)fuzz_take(&in, 1);
			uint32_t sz = 1u << (ctl & 3);
			bool is_write = ctl & 4;
			/* The access's bytes end exactly where the array does, so a
			 * handler touching more than `sz` bytes is caught. */
			uint8_t buf[8];
			uint8_t *p = buf + sizeof(buf) - sz;
			memset(buf, 0xa5, sizeof(buf));
			if (is_write)
				fuzz_bytes(&in, p, sz);
			if (op == 0) {
				uint16_t port = (uint16_t)(bases[sel % 8] + off % 9);
				bool claimed = io_bus_access(&m.pio, port, p, sz, is_write);
				if (!claimed && !is_write)
					for (uint32_t i = 0; i < sz; i++)
						FUZZ_ASSERT(p[i] == 0xff);
				if (claimed && is_write && port == TESTDEV_EXIT_PORT)
					FUZZ_ASSERT(vm_stop_requested(&m.stop));
			} else {
				direct(&m, sel, off, p, sz, is_write);
			}
			break;
		}
		case 1: {
			uint8_t buf[256];
			size_t n = fuzz_bytes(&in, buf, (size_t)fuzz_take(&in, 1));
			size_t room = serial_rx_room(&m.uart);
			size_t took = serial_receive(&m.uart, buf, n);
			FUZZ_ASSERT(took <= n && took <= room && took <= SERIAL_FIFO_SIZE);
			FUZZ_ASSERT(took == (n < room ? n : room));
			break;
		}
		case 2: {
			uint64_t gpa = fuzz_take(&in, 2);
			uint8_t buf[256];
			size_t n = fuzz_bytes(&in, buf, (size_t)fuzz_take(&in, 1));
			if (n)
				guest_mem_write(&m.mem, gpa, buf, n);
			break;
		}
		case 3:
			FUZZ_ASSERT(serial_rx_room(&m.uart) <= SERIAL_FIFO_SIZE);
			(void)serial_rx_wanted(&m.uart);
			console_flush(&m.con);
			console_set_write_through(&m.con, fuzz_take(&in, 1) & 1);
			break;
		case 4:
			testdev_handle(&m.testdev, fuzz_take(&in, 4));
			break;
		}
	}
	FUZZ_ASSERT(m.results.count <= RESULTS_MAX);
	for (unsigned i = 0; i < m.results.count; i++)
		FUZZ_ASSERT(strnlen(m.results.item[i].name, TESTDEV_NAME_MAX) < TESTDEV_NAME_MAX);

	serial_destroy(&m.uart);
	i8042_destroy(&m.kbd);
	acpi_pm_destroy(&m.pm);
	console_destroy(&m.con);
	results_destroy(&m.results);
	vm_stop_destroy(&m.stop);
	return 0;
}
