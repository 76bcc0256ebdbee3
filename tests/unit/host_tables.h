/* Hand-made KVM_GET_SUPPORTED_CPUID tables for the CPU-model unit tests: no
 * KVM needed. Every value is written out in host_tables.c with what it
 * encodes; the tests derive their expectations from those facts:
 *
 * Intel host, "GenuineIntel", leaf 0 EAX 0x20, family 6 model 8Eh.
 *   Leaf 4:  L1d 48 KiB 12-way 64 B (64 sets), L1i 32 KiB 8-way 64 B (64 sets),
 *            L2 1 MiB 8-way 64 B (2048 sets), L3 30 MiB 15-way 64 B (32768 sets).
 *   Also leaf 2, leaf 0xB (2 levels), leaf 0x1F (4 subleaves, a die level),
 *   0x80000000 EAX 0x80000008, 0x80000001 ECX 0x00400123 (TopoExt and
 *   CmpLegacy set, as if leaked from elsewhere), 0x80000005 zero,
 *   0x80000006 ECX 0x01006040 (a stale 256 KiB), 0x80000008.
 *
 * AMD host, "AuthenticAMD", leaf 0 EAX 0x10, family 19h model 21h.
 *   0x8000001D: L1d 32 KiB 8-way 64 B (64 sets), L1i 64 KiB 4-way 64 B
 *            (256 sets), L2 1 MiB 8-way 64 B (2048 sets), L3 32 MiB 16-way
 *            64 B (32768 sets).
 *   0x80000000 EAX 0x80000023; 0x80000001 ECX 0x00000123 (CmpLegacy set,
 *   TopoExt clear); 0x80000005 EAX/EBX 0xff40ff40/0xff48ff30, ECX/EDX a stale
 *   16 KiB 4-way; 0x80000006 EAX/EBX 0x48002200/0x68004200, ECX 512 KiB
 *   8-way, EDX 16 MiB; 0x80000008 ECX 0x00037A0F; 0x8000001E, 0x80000021,
 *   0x80000022; leaf 0xB (2 levels). */
#ifndef TESTS_UNIT_HOST_TABLES_H
#define TESTS_UNIT_HOST_TABLES_H

#include <linux/kvm.h>
#include <stdint.h>

/* Vendor strings as EBX, EDX, ECX (SDM vol. 2A CPUID 00H). */
#define INTEL_EBX 0x756e6547u /* "Genu" */
#define INTEL_EDX 0x49656e69u /* "ineI" */
#define INTEL_ECX 0x6c65746eu /* "ntel" */
#define AMD_EBX 0x68747541u   /* "Auth" */
#define AMD_EDX 0x69746e65u   /* "enti" */
#define AMD_ECX 0x444d4163u   /* "cAMD" */
#define HYGON_EBX 0x6f677948u /* "Hygo" */
#define HYGON_EDX 0x6e65476eu /* "nGen" */
#define HYGON_ECX 0x656e6975u /* "uine" */

/* The host values the tests check are kept or replaced. */
#define INTEL_LEAF1_EAX 0x000806ecu
#define INTEL_LEAF1_EBX 0xaa100800u /* APIC ID AAh, count 10h, CLFLUSH 8, brand 0 */
#define INTEL_LEAF1_ECX 0x7ffafbffu /* bit 31 clear */
#define INTEL_LEAF1_EDX 0xbfebfbffu /* HTT (bit 28) set */
#define INTEL_EXT1_ECX 0x00400123u
#define INTEL_EXT1_EDX 0x2c100800u
#define AMD_LEAF1_EAX 0x00a20f10u
#define AMD_LEAF1_EBX 0xaa100800u
#define AMD_LEAF1_ECX 0x7ed8320bu
#define AMD_LEAF1_EDX 0x178bfbffu
#define AMD_EXT1_ECX 0x00000123u
#define AMD_EXT1_EDX 0x2fd3fbffu
#define AMD_EXT5_EAX 0xff40ff40u
#define AMD_EXT5_EBX 0xff48ff30u
#define AMD_EXT6_EAX 0x48002200u
#define AMD_EXT6_EBX 0x68004200u
#define AMD_EXT8_EAX 0x00003030u
#define AMD_EXT8_ECX 0x00037a0fu

/* A new table holding a copy of entries[0..n) (padding 0, as KVM returns
 * it). Fails the test if out of memory; free() it. */
struct kvm_cpuid2 *unit_cpuid_table(const struct kvm_cpuid_entry2 *entries, unsigned n);

struct kvm_cpuid2 *unit_intel_host(void);
struct kvm_cpuid2 *unit_amd_host(void);

/* Drop every entry of `function` (test-side, so fixtures do not depend on
 * the code under test). */
void unit_cpuid_drop(struct kvm_cpuid2 *c, uint32_t function);

/* The entry (function, index), or NULL; index is compared only for entries
 * flagged KVM_CPUID_FLAG_SIGNIFCANT_INDEX. Test-side twin of cpuid_find. */
struct kvm_cpuid_entry2 *unit_cpuid_get(struct kvm_cpuid2 *c, uint32_t function, uint32_t index);

#endif
