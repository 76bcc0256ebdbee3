/* Everything a test kernel uses, in one include. A test defines
 * int main(void), which runs on the BSP with interrupts disabled; the
 * runtime exits with what it returns (normally report_summary()). */
#ifndef GUEST_LIBGUEST_H
#define GUEST_LIBGUEST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "apic.h"
#include "atomic.h"
#include "boot.h"
#include "counters.h"
#include "delay.h"
#include "idt.h"
#include "layout.h"
#include "printf.h"
#include "processor.h"
#include "report.h"
#include "smp.h"
#include "spinlock.h"
#include "string.h"
#include "testdev.h"

int main(void);

#endif
