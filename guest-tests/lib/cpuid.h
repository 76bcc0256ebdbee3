/* Decoding CPUID's vendor, topology and cache leaves into plain numbers
 * (Intel SDM vol. 2A, CPUID; AMD APM vol. 3, appendix E), from registers
 * read on any CPU with cpuid_count(). */
#ifndef GUEST_CPUID_H
#define GUEST_CPUID_H

#include <stdint.h>

#include "processor.h"

#define CPUID_01_EDX_HTT (1u << 28)	      /* CPUID.01H:EDX[28] */
#define CPUID_80000001_ECX_TOPOEXT (1u << 22) /* CPUID.80000001H:ECX[22] (AMD) */

/* CPUID.(0,0): EBX, EDX, ECX spell the vendor, "GenuineIntel". */
void cpuid_vendor(struct cpuid leaf0, char vendor[13]);

/* CPUID.0BH or 1FH, one subleaf (SDM, leaves 0BH and 1FH; APM
 * Fn0000_000B): ECX[15:8] the level type, ECX[7:0] the level number (the
 * subleaf), EAX[4:0] how far to shift the x2APIC ID right to get the next
 * level's ID, EBX[15:0] the logical processors at this level, EDX the
 * x2APIC ID. */
enum { CPUID_LEVEL_INVALID = 0, CPUID_LEVEL_SMT = 1, CPUID_LEVEL_CORE = 2 };
struct cpuid_topo_level {
	uint32_t type, number, shift, count, x2apic_id;
};
struct cpuid_topo_level cpuid_topo_level(struct cpuid r);

/* CPUID.04H or AMD's 8000001DH, one subleaf (SDM, leaf 04H; APM Fn8000_001D,
 * the same layout but EAX[31:26] reserved): EAX[4:0] type (0: no more
 * caches; 1 data, 2 instruction, 3 unified), [7:5] level, [25:14] logical
 * processors sharing the cache - 1, [31:26] (leaf 4) addressable core IDs
 * in the package - 1; EBX[11:0] line size - 1, [21:12] physical line
 * partitions - 1, [31:22] ways - 1; ECX sets - 1. The size is
 * ways * partitions * line size * sets. */
struct cpuid_cache {
	uint32_t type, level, sharing, core_ids, line, partitions, ways;
	uint64_t sets, size;
};
struct cpuid_cache cpuid_cache(struct cpuid r);

/* AMD's legacy cache leaves. size in bytes; ways only for the L1s (0 when
 * not a plain count: 0xff is fully associative). */
struct cpuid_amd_cache {
	uint32_t size, line, ways;
};
/* CPUID.80000005H:ECX (L1d) or EDX (L1i), APM Fn8000_0005: [31:24] size in KiB,
 * [23:16] ways (0xff fully associative), [7:0] line size. */
struct cpuid_amd_cache cpuid_amd_l1(uint32_t reg);
/* CPUID.80000006H:ECX (L2), APM Fn8000_0006: [31:16] size in KiB, [7:0] line size. */
struct cpuid_amd_cache cpuid_amd_l2(uint32_t ecx);
/* CPUID.80000006H:EDX (L3), APM Fn8000_0006: [31:18] size in 512 KiB units (the
 * size rounded down), [7:0] line size; EDX = 0: no L3. */
struct cpuid_amd_cache cpuid_amd_l3(uint32_t edx);

#endif
