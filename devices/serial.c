/* An 8250/16550A UART: guest output goes to the console. Registers behave
 * as on the chip so that drivers probing it (Linux's 8250) find one. */
#include "serial.h"

#include <string.h>

/* Register offsets and bits (the 16550A data sheet; Linux's serial_reg.h). */
enum {
	UART_RX_TX = 0, /* DLAB=0: RBR/THR; DLAB=1: DLL */
	UART_IER = 1,   /* DLAB=1: DLM */
	UART_IIR_FCR = 2,
	UART_LCR = 3,
	UART_MCR = 4,
	UART_LSR = 5,
	UART_MSR = 6,
	UART_SCR = 7,
};
#define UART_LCR_DLAB 0x80
#define UART_MCR_LOOP 0x10
#define UART_LSR_THRE 0x20 /* transmit holding register empty */
#define UART_LSR_TEMT 0x40 /* transmitter empty */
#define UART_IIR_NO_INT 0x01
#define UART_IIR_FIFO_ON 0xc0
#define UART_FCR_ENABLE 0x01
#define UART_MSR_DCD 0x80
#define UART_MSR_DSR 0x20
#define UART_MSR_CTS 0x10

/* Loopback wires DTR->DSR, RTS->CTS, OUT1->RI, OUT2->DCD (16550A data sheet). */
static uint8_t loopback_msr(uint8_t mcr)
{
	return (uint8_t)(((mcr & 0x01) << 5) | ((mcr & 0x02) << 3) | ((mcr & 0x04) << 4) |
			 ((mcr & 0x08) << 4));
}

static uint8_t serial_read(struct serial *s, unsigned reg)
{
	bool dlab = s->lcr & UART_LCR_DLAB;
	switch (reg) {
	case UART_RX_TX:
		return dlab ? s->dll : 0; /* no input yet: the receive buffer is empty */
	case UART_IER:
		return dlab ? s->dlm : s->ier;
	case UART_IIR_FCR:
		return UART_IIR_NO_INT | ((s->fcr & UART_FCR_ENABLE) ? UART_IIR_FIFO_ON : 0);
	case UART_LCR:
		return s->lcr;
	case UART_MCR:
		return s->mcr;
	case UART_LSR:
		/* Output is written through at once: the transmitter is always empty. */
		return UART_LSR_THRE | UART_LSR_TEMT;
	case UART_MSR:
		/* In loopback the modem inputs follow MCR (Linux's probe checks this). */
		if (s->mcr & UART_MCR_LOOP)
			return loopback_msr(s->mcr);
		return UART_MSR_DCD | UART_MSR_DSR | UART_MSR_CTS;
	default:
		return s->scr;
	}
}

static void serial_write(struct serial *s, unsigned reg, uint8_t v)
{
	bool dlab = s->lcr & UART_LCR_DLAB;
	switch (reg) {
	case UART_RX_TX:
		if (dlab)
			s->dll = v;
		else if (!(s->mcr & UART_MCR_LOOP))
			console_write(s->console, (const char *)&v, 1);
		break;
	case UART_IER:
		if (dlab)
			s->dlm = v;
		else
			s->ier = v & 0x0f;
		break;
	case UART_IIR_FCR:
		s->fcr = v;
		break;
	case UART_LCR:
		s->lcr = v;
		break;
	case UART_MCR:
		s->mcr = v & 0x1f;
		break;
	case UART_SCR:
		s->scr = v;
		break;
	default: /* LSR and MSR are read-only */
		break;
	}
}

void serial_io(void *opaque, uint64_t offset, uint8_t *data, uint32_t size, bool is_write)
{
	struct serial *s = opaque;
	/* The UART's registers are bytes; a wider access touches the first one
	 * only, and reads the rest as zero. */
	unsigned reg = (unsigned)(offset & 7);
	pthread_mutex_lock(&s->lock);
	if (is_write) {
		serial_write(s, reg, data[0]);
	} else {
		memset(data, 0, size);
		data[0] = serial_read(s, reg);
	}
	pthread_mutex_unlock(&s->lock);
}

int serial_init(struct serial *s, struct io_bus *pio, uint16_t base, struct console *console)
{
	memset(s, 0, sizeof(*s));
	s->console = console;
	pthread_mutex_init(&s->lock, NULL);
	return io_bus_register(pio, base, SERIAL_NR_PORTS, serial_io, s, "serial");
}

void serial_destroy(struct serial *s)
{
	pthread_mutex_destroy(&s->lock);
}
