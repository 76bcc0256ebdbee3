/* An 8250/16550A UART: guest output goes to the console, host input comes
 * in through a 16-byte receive FIFO, and the interrupt line is driven as on
 * a PC (gated by MCR.OUT2). Registers behave as on the chip so that Linux's
 * 8250 driver finds a 16550A and runs it in interrupt mode. */
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
#define UART_IER_RDI 0x01  /* received data available */
#define UART_IER_THRI 0x02 /* transmit holding register empty */
#define UART_IER_RLSI 0x04 /* receiver line status */
#define UART_IER_MSI 0x08  /* modem status */
#define UART_IER_MASK 0x0f /* bits 4-7 always read 0 on a 16550A */

/* IIR interrupt identification, highest priority first. */
#define UART_IIR_RLSI 0x06
#define UART_IIR_RDI 0x04
#define UART_IIR_RX_TIMEOUT 0x0c
#define UART_IIR_THRI 0x02
#define UART_IIR_MSI 0x00
#define UART_IIR_NO_INT 0x01
#define UART_IIR_FIFO_ON 0xc0

#define UART_FCR_ENABLE 0x01
#define UART_FCR_CLEAR_RCVR 0x02
#define UART_FCR_DMA 0x08
#define UART_FCR_TRIGGER 0xc0 /* receiver trigger level: 1, 4, 8, 14 bytes */

#define UART_LCR_DLAB 0x80

#define UART_MCR_OUT2 0x08
#define UART_MCR_LOOP 0x10
#define UART_MCR_MASK 0x1f /* bits 5-7 always read 0 on a 16550A */

#define UART_LSR_DR 0x01   /* data ready */
#define UART_LSR_OE 0x02   /* overrun error */
#define UART_LSR_THRE 0x20 /* transmit holding register empty */
#define UART_LSR_TEMT 0x40 /* transmitter empty */

#define UART_MSR_CTS 0x10
#define UART_MSR_DSR 0x20
#define UART_MSR_RI 0x40
#define UART_MSR_DCD 0x80

static bool fifo_on(const struct serial *s)
{
	return s->fcr & UART_FCR_ENABLE;
}

/* With the FIFOs off the chip is a 16450: one receive holding register. */
static unsigned rx_capacity(const struct serial *s)
{
	return fifo_on(s) ? SERIAL_FIFO_SIZE : 1;
}

/* In loopback the receiver's input pin is disconnected: no host input. */
static size_t rx_room_locked(const struct serial *s)
{
	if ((s->mcr & UART_MCR_LOOP) || s->rx_count >= rx_capacity(s))
		return 0;
	return rx_capacity(s) - s->rx_count;
}

static void rx_clear(struct serial *s)
{
	s->rx_head = 0;
	s->rx_count = 0;
}

/* A byte arrives at a full receiver: overrun. With the FIFO on, the byte
 * in the shift register is lost; as a 16450 it overwrites the holding
 * register (16550A data sheet, LSR bit 1). */
static void rx_push(struct serial *s, uint8_t v)
{
	if (s->rx_count >= rx_capacity(s)) {
		s->lsr_errors |= UART_LSR_OE;
		if (!fifo_on(s))
			s->rx[s->rx_head] = v;
		return;
	}
	s->rx[(s->rx_head + s->rx_count) % SERIAL_FIFO_SIZE] = v;
	s->rx_count++;
}

static uint8_t rx_pop(struct serial *s)
{
	if (!s->rx_count)
		return 0;
	uint8_t v = s->rx[s->rx_head];
	s->rx_head = (s->rx_head + 1) % SERIAL_FIFO_SIZE;
	s->rx_count--;
	return v;
}

static unsigned rx_trigger(const struct serial *s)
{
	static const unsigned level[4] = { 1, 4, 8, 14 };
	return level[(s->fcr & UART_FCR_TRIGGER) >> 6];
}

/* The highest-priority pending interrupt the IER allows, as IIR bits 0-3.
 * Data below the FIFO's trigger level is reported as a character timeout:
 * host input arrives in whole bursts, so the four character times the chip
 * waits for more have always passed by the time the guest looks. */
static uint8_t pending_interrupt(const struct serial *s)
{
	if ((s->ier & UART_IER_RLSI) && s->lsr_errors)
		return UART_IIR_RLSI;
	if ((s->ier & UART_IER_RDI) && s->rx_count)
		return fifo_on(s) && s->rx_count < rx_trigger(s) ? UART_IIR_RX_TIMEOUT : UART_IIR_RDI;
	if ((s->ier & UART_IER_THRI) && s->thr_ipending)
		return UART_IIR_THRI;
	if ((s->ier & UART_IER_MSI) && s->msr_delta)
		return UART_IIR_MSI;
	return UART_IIR_NO_INT;
}

/* On a PC the UART's interrupt output reaches the PIC through a buffer that
 * OUT2 enables (Linux sets OUT2 for exactly this reason); loopback forces
 * the OUT2 pin inactive, so no interrupt leaves the chip then. */
static void update_irq(struct serial *s)
{
	bool gate = (s->mcr & (UART_MCR_OUT2 | UART_MCR_LOOP)) == UART_MCR_OUT2;
	bool level = gate && pending_interrupt(s) != UART_IIR_NO_INT;
	if (level == s->irq_level)
		return;
	s->irq_level = level;
	if (s->set_irq)
		s->set_irq(s->opaque, level);
}

/* The modem-status inputs (MSR bits 4-7). In loopback they are the MCR's
 * outputs, wired DTR->DSR, RTS->CTS, OUT1->RI, OUT2->DCD (Linux's probe
 * checks this); otherwise a modem that is always ready. */
static uint8_t msr_inputs(uint8_t mcr)
{
	if (!(mcr & UART_MCR_LOOP))
		return UART_MSR_DCD | UART_MSR_DSR | UART_MSR_CTS;
	return (uint8_t)(((mcr & 0x01) << 5) | ((mcr & 0x02) << 3) | ((mcr & 0x04) << 4) |
			 ((mcr & 0x08) << 4));
}

static void write_mcr(struct serial *s, uint8_t v)
{
	uint8_t before = msr_inputs(s->mcr);
	s->mcr = v & UART_MCR_MASK;
	uint8_t after = msr_inputs(s->mcr);
	/* MSR bits 0-3 record changes since the last MSR read: CTS, DSR and DCD
	 * on any change, RI only on its trailing edge. */
	uint8_t changed = (uint8_t)((before ^ after) & (UART_MSR_CTS | UART_MSR_DSR | UART_MSR_DCD));
	if ((before & UART_MSR_RI) && !(after & UART_MSR_RI))
		changed |= UART_MSR_RI;
	s->msr_delta |= changed >> 4;
}

static void write_ier(struct serial *s, uint8_t v)
{
	uint8_t old = s->ier;
	s->ier = v & UART_IER_MASK;
	/* The THR is always empty here (output is written through at once), so
	 * enabling its interrupt raises it at once, as the chip does and as
	 * Linux's start-up test expects; disabling it forgets it. */
	if ((old ^ s->ier) & UART_IER_THRI)
		s->thr_ipending = s->ier & UART_IER_THRI;
}

static void write_fcr(struct serial *s, uint8_t v)
{
	/* Turning the FIFOs on or off empties them; the receiver-reset bit
	 * counts only with the FIFOs on (16550A data sheet, FCR bits 0-1). The
	 * transmitter needs no reset: it is always empty. */
	bool toggled = (v ^ s->fcr) & UART_FCR_ENABLE;
	if (toggled || ((v & UART_FCR_ENABLE) && (v & UART_FCR_CLEAR_RCVR)))
		rx_clear(s);
	/* Bits 1-2 clear themselves, 4-5 are reserved, and nothing but bit 0 is
	 * programmed unless bit 0 is set. */
	s->fcr = (v & UART_FCR_ENABLE) ? (v & (UART_FCR_ENABLE | UART_FCR_DMA | UART_FCR_TRIGGER)) : 0;
}

static void transmit(struct serial *s, uint8_t v)
{
	/* In loopback the transmitter feeds the receiver, not the wire. */
	if (s->mcr & UART_MCR_LOOP) {
		rx_push(s, v);
	} else {
		console_write(s->console, (const char *)&v, 1);
	}
	/* Sent at once: the THR is empty again, which is an interrupt. */
	s->thr_ipending = true;
}

static uint8_t read_iir(struct serial *s)
{
	uint8_t id = pending_interrupt(s);
	/* Reading IIR acknowledges a THR-empty interrupt, but only when it is
	 * the one reported: a higher-priority one hides it. */
	if (id == UART_IIR_THRI)
		s->thr_ipending = false;
	return id | (fifo_on(s) ? UART_IIR_FIFO_ON : 0);
}

static uint8_t read_lsr(struct serial *s)
{
	/* Output is written through at once: the transmitter is always empty. */
	uint8_t lsr = UART_LSR_THRE | UART_LSR_TEMT | s->lsr_errors;
	if (s->rx_count)
		lsr |= UART_LSR_DR;
	s->lsr_errors = 0; /* error bits clear on read */
	return lsr;
}

static uint8_t read_msr(struct serial *s)
{
	uint8_t msr = msr_inputs(s->mcr) | s->msr_delta;
	s->msr_delta = 0;
	return msr;
}

static uint8_t serial_read(struct serial *s, unsigned reg)
{
	bool dlab = s->lcr & UART_LCR_DLAB;
	switch (reg) {
	case UART_RX_TX:
		return dlab ? s->dll : rx_pop(s);
	case UART_IER:
		return dlab ? s->dlm : s->ier;
	case UART_IIR_FCR:
		return read_iir(s);
	case UART_LCR:
		return s->lcr;
	case UART_MCR:
		return s->mcr;
	case UART_LSR:
		return read_lsr(s);
	case UART_MSR:
		return read_msr(s);
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
		else
			transmit(s, v);
		break;
	case UART_IER:
		if (dlab)
			s->dlm = v;
		else
			write_ier(s, v);
		break;
	case UART_IIR_FCR:
		write_fcr(s, v);
		break;
	case UART_LCR:
		s->lcr = v;
		break;
	case UART_MCR:
		write_mcr(s, v);
		break;
	case UART_SCR:
		s->scr = v;
		break;
	default: /* LSR and MSR are read-only */
		break;
	}
}

/* What the host's input pump waits on: room, and the guest wanting input. */
struct rx_state {
	bool room, wanted;
};

static struct rx_state rx_state(const struct serial *s)
{
	return (struct rx_state){ rx_room_locked(s) > 0, s->ier & UART_IER_RDI };
}

/* After any change: the interrupt line, and the host told when the
 * receiver can take input again. Called with the lock held. */
static void after_change(struct serial *s, struct rx_state before)
{
	update_irq(s);
	struct rx_state now = rx_state(s);
	if (((!before.room && now.room) || (!before.wanted && now.wanted)) && s->rx_room)
		s->rx_room(s->opaque);
}

void serial_io(void *opaque, uint64_t offset, uint8_t *data, uint32_t size, bool is_write)
{
	struct serial *s = opaque;
	/* The UART's registers are bytes; a wider access touches the first one
	 * only, and reads the rest as zero. */
	unsigned reg = (unsigned)(offset & 7);
	pthread_mutex_lock(&s->lock);
	struct rx_state before = rx_state(s);
	if (is_write) {
		serial_write(s, reg, data[0]);
	} else {
		memset(data, 0, size);
		data[0] = serial_read(s, reg);
	}
	after_change(s, before);
	pthread_mutex_unlock(&s->lock);
}

size_t serial_receive(struct serial *s, const uint8_t *buf, size_t len)
{
	pthread_mutex_lock(&s->lock);
	size_t n = rx_room_locked(s);
	if (n > len)
		n = len;
	for (size_t i = 0; i < n; i++)
		rx_push(s, buf[i]);
	update_irq(s);
	pthread_mutex_unlock(&s->lock);
	return n;
}

size_t serial_rx_room(struct serial *s)
{
	pthread_mutex_lock(&s->lock);
	size_t n = rx_room_locked(s);
	pthread_mutex_unlock(&s->lock);
	return n;
}

bool serial_rx_wanted(struct serial *s)
{
	pthread_mutex_lock(&s->lock);
	bool wanted = s->ier & UART_IER_RDI;
	pthread_mutex_unlock(&s->lock);
	return wanted;
}

int serial_init(struct serial *s, struct io_bus *pio, uint16_t base, struct console *console,
		serial_irq_fn set_irq, serial_rx_room_fn rx_room, void *opaque)
{
	memset(s, 0, sizeof(*s));
	s->console = console;
	s->set_irq = set_irq;
	s->rx_room = rx_room;
	s->opaque = opaque;
	pthread_mutex_init(&s->lock, NULL);
	return io_bus_register(pio, base, SERIAL_NR_PORTS, serial_io, s, "serial");
}

void serial_destroy(struct serial *s)
{
	pthread_mutex_destroy(&s->lock);
}
