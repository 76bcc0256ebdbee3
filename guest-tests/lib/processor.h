/* Single-instruction helpers: CPUID, MSRs, port I/O, control registers,
 * TSC, interrupt flag, pause and halt. */
#ifndef GUEST_PROCESSOR_H
#define GUEST_PROCESSOR_H

#include <stdbool.h>
#include <stdint.h>

#define MSR_IA32_APIC_BASE 0x0000001b
#define MSR_EFER 0xc0000080
#define MSR_GS_BASE 0xc0000101

#define EFER_LME (1ULL << 8)
#define EFER_LMA (1ULL << 10)
#define EFER_NXE (1ULL << 11)

#define X86_CR0_PE (1UL << 0)
#define X86_CR0_PG (1UL << 31)
#define X86_CR4_PAE (1UL << 5)
#define X86_EFLAGS_IF (1UL << 9)

struct cpuid {
	uint32_t a, b, c, d;
};

static inline struct cpuid cpuid_count(uint32_t leaf, uint32_t subleaf)
{
	struct cpuid r;
	__asm__ volatile("cpuid" : "=a"(r.a), "=b"(r.b), "=c"(r.c), "=d"(r.d) : "a"(leaf), "c"(subleaf));
	return r;
}

static inline struct cpuid cpuid(uint32_t leaf)
{
	return cpuid_count(leaf, 0);
}

static inline uint64_t rdmsr(uint32_t msr)
{
	uint32_t lo, hi;
	__asm__ volatile("rdmsr" : "=a"(lo), "=d"(hi) : "c"(msr));
	return ((uint64_t)hi << 32) | lo;
}

static inline void wrmsr(uint32_t msr, uint64_t value)
{
	__asm__ volatile("wrmsr" : : "c"(msr), "a"((uint32_t)value), "d"((uint32_t)(value >> 32))
			 : "memory");
}

static inline void outb(uint16_t port, uint8_t value)
{
	__asm__ volatile("outb %0, %1" : : "a"(value), "Nd"(port) : "memory");
}

static inline void outl(uint16_t port, uint32_t value)
{
	__asm__ volatile("outl %0, %1" : : "a"(value), "Nd"(port) : "memory");
}

static inline uint8_t inb(uint16_t port)
{
	uint8_t value;
	__asm__ volatile("inb %1, %0" : "=a"(value) : "Nd"(port) : "memory");
	return value;
}

static inline uint32_t inl(uint16_t port)
{
	uint32_t value;
	__asm__ volatile("inl %1, %0" : "=a"(value) : "Nd"(port) : "memory");
	return value;
}

static inline uint64_t rdtsc(void)
{
	uint32_t lo, hi;
	__asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
	return ((uint64_t)hi << 32) | lo;
}

#define DEFINE_READ_CR(n)                                                \
	static inline uint64_t read_cr##n(void)                          \
	{                                                                \
		uint64_t v;                                              \
		__asm__ volatile("mov %%cr" #n ", %0" : "=r"(v));        \
		return v;                                                \
	}
DEFINE_READ_CR(0)
DEFINE_READ_CR(2)
DEFINE_READ_CR(3)
DEFINE_READ_CR(4)
#undef DEFINE_READ_CR

static inline uint16_t read_cs(void)
{
	uint16_t cs;
	__asm__ volatile("mov %%cs, %0" : "=r"(cs));
	return cs;
}

static inline uint64_t read_rflags(void)
{
	uint64_t f;
	__asm__ volatile("pushfq; popq %0" : "=r"(f));
	return f;
}

struct __attribute__((packed)) descriptor_table_ptr {
	uint16_t limit;
	uint64_t base;
};

static inline void sgdt(struct descriptor_table_ptr *p)
{
	__asm__ volatile("sgdt %0" : "=m"(*p));
}

static inline void lidt(const struct descriptor_table_ptr *p)
{
	__asm__ volatile("lidt %0" : : "m"(*p));
}

static inline void irq_disable(void)
{
	__asm__ volatile("cli" : : : "memory");
}

static inline void irq_enable(void)
{
	__asm__ volatile("sti" : : : "memory");
}

/* Disables interrupts and says whether they were enabled. */
static inline bool irq_save(void)
{
	bool was = read_rflags() & X86_EFLAGS_IF;
	irq_disable();
	return was;
}

static inline void irq_restore(bool was_enabled)
{
	if (was_enabled)
		irq_enable();
}

/* STI's one-instruction shadow makes "sti; hlt" wake on an interrupt that
 * was already pending. */
static inline void safe_halt(void)
{
	__asm__ volatile("sti; hlt" : : : "memory");
}

static inline void cpu_relax(void)
{
	__asm__ volatile("pause" : : : "memory");
}

static inline void barrier(void)
{
	__asm__ volatile("" : : : "memory");
}

#endif
