/* Loading ELF64 x86-64 kernels with libelf: validate every segment against
 * guest RAM first, then copy; the entry point comes from the PVH note. */
#include "elf_loader.h"

#include <gelf.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "layout.h"

/* Xen's PVH entry note: name "Xen", type XEN_ELFNOTE_PHYS32_ENTRY, a 32-bit
 * physical address entered in protected mode (xen/include/public/elfnote.h). */
#define XEN_ELFNOTE_PHYS32_ENTRY 18

struct load_segment {
	uint64_t offset, filesz, paddr, memsz;
};

struct load_plan {
	struct load_segment seg[ELF_MAX_SEGMENTS];
	unsigned count;
	bool have_entry;
	uint64_t entry;
};

#define FAIL(...)                                \
	do {                                     \
		snprintf(err, errlen, __VA_ARGS__); \
		return -1;                       \
	} while (0)

static int check_header(Elf *e, char *err, size_t errlen)
{
	GElf_Ehdr ehdr;
	if (elf_kind(e) != ELF_K_ELF)
		FAIL("not an ELF file");
	if (gelf_getclass(e) != ELFCLASS64)
		FAIL("not a 64-bit ELF file (vmm loads ELF64 x86-64 kernels)");
	if (!gelf_getehdr(e, &ehdr))
		FAIL("unreadable ELF header: %s", elf_errmsg(-1));
	if (ehdr.e_ident[EI_DATA] != ELFDATA2LSB)
		FAIL("ELF file is not little-endian");
	if (ehdr.e_machine != EM_X86_64)
		FAIL("ELF machine %u is not x86-64", ehdr.e_machine);
	if (ehdr.e_type != ET_EXEC)
		FAIL("ELF type %u is not an executable", ehdr.e_type);
	if (ehdr.e_phentsize != sizeof(Elf64_Phdr))
		FAIL("ELF program header size %u, expected %zu", ehdr.e_phentsize,
		     sizeof(Elf64_Phdr));
	return 0;
}

/* Look for the PVH entry among the notes of one PT_NOTE segment. libelf's
 * rawchunk checks that the segment lies inside the file. */
static void find_pvh_entry(Elf *e, const GElf_Phdr *ph, struct load_plan *plan)
{
	Elf_Data *data = elf_getdata_rawchunk(e, (int64_t)ph->p_offset, ph->p_filesz, ELF_T_NHDR);
	if (!data)
		return;
	GElf_Nhdr nhdr;
	size_t offset = 0, name_off, desc_off;
	while ((offset = gelf_getnote(data, offset, &nhdr, &name_off, &desc_off)) > 0) {
		const char *name = (const char *)data->d_buf + name_off;
		if (nhdr.n_type != XEN_ELFNOTE_PHYS32_ENTRY || nhdr.n_namesz != 4 ||
		    memcmp(name, "Xen", 4) != 0)
			continue;
		const uint8_t *desc = (const uint8_t *)data->d_buf + desc_off;
		if (nhdr.n_descsz == 4) {
			uint32_t v;
			memcpy(&v, desc, 4);
			plan->entry = v;
		} else if (nhdr.n_descsz == 8) {
			memcpy(&plan->entry, desc, 8);
		} else {
			continue;
		}
		plan->have_entry = true;
	}
}

static bool ranges_overlap(uint64_t a, uint64_t alen, uint64_t b, uint64_t blen)
{
	/* Both ranges are known not to wrap (checked against RAM first). */
	return a < b + blen && b < a + alen;
}

static int check_segment(const struct load_segment *s, size_t file_size,
			 const struct guest_mem *mem, char *err, size_t errlen)
{
	if (s->filesz > s->memsz)
		FAIL("segment at 0x%llx: file size 0x%llx exceeds memory size 0x%llx",
		     (unsigned long long)s->paddr, (unsigned long long)s->filesz,
		     (unsigned long long)s->memsz);
	if (s->offset > file_size || s->filesz > file_size - s->offset)
		FAIL("segment at 0x%llx: data past the end of the file (truncated?)",
		     (unsigned long long)s->paddr);
	if (!guest_mem_ptr(mem, s->paddr, s->memsz))
		FAIL("segment 0x%llx-0x%llx is outside guest RAM", (unsigned long long)s->paddr,
		     (unsigned long long)(s->paddr + s->memsz - 1));
	if (ranges_overlap(s->paddr, s->memsz, BOOT_AREA_START, BOOT_AREA_END - BOOT_AREA_START) ||
	    ranges_overlap(s->paddr, s->memsz, FDT_ADDR, FDT_MAX_SIZE))
		FAIL("segment at 0x%llx overlaps vmm's boot structures (0x0-0x%llx, 0x%llx-0x%llx)",
		     (unsigned long long)s->paddr, BOOT_AREA_END - 1, FDT_ADDR,
		     FDT_ADDR + FDT_MAX_SIZE - 1);
	return 0;
}

static int plan_load(Elf *e, size_t file_size, const struct guest_mem *mem,
		     struct load_plan *plan, char *err, size_t errlen)
{
	size_t phnum;
	GElf_Ehdr ehdr;
	if (elf_getphdrnum(e, &phnum) != 0 || !gelf_getehdr(e, &ehdr))
		FAIL("unreadable program headers: %s", elf_errmsg(-1));
	/* Said plainly here rather than as libelf's "invalid data" below. */
	if (ehdr.e_phoff > file_size || phnum > (file_size - ehdr.e_phoff) / sizeof(Elf64_Phdr))
		FAIL("program headers past the end of the file (truncated?)");
	for (size_t i = 0; i < phnum; i++) {
		GElf_Phdr ph;
		if (!gelf_getphdr(e, (int)i, &ph))
			FAIL("unreadable program header %zu: %s (truncated or corrupt file?)", i,
			     elf_errmsg(-1));
		if (ph.p_type == PT_NOTE)
			find_pvh_entry(e, &ph, plan);
		if (ph.p_type != PT_LOAD || ph.p_memsz == 0)
			continue;
		if (plan->count == ELF_MAX_SEGMENTS)
			FAIL("more than %d loadable segments", ELF_MAX_SEGMENTS);
		struct load_segment *s = &plan->seg[plan->count++];
		*s = (struct load_segment){ ph.p_offset, ph.p_filesz, ph.p_paddr, ph.p_memsz };
		if (check_segment(s, file_size, mem, err, errlen))
			return -1;
		for (unsigned j = 0; j + 1 < plan->count; j++)
			if (ranges_overlap(s->paddr, s->memsz, plan->seg[j].paddr, plan->seg[j].memsz))
				FAIL("segments at 0x%llx and 0x%llx overlap",
				     (unsigned long long)plan->seg[j].paddr,
				     (unsigned long long)s->paddr);
	}
	if (plan->count == 0)
		FAIL("no loadable segments");
	if (!plan->have_entry)
		FAIL("no PVH entry note (Xen, XEN_ELFNOTE_PHYS32_ENTRY): vmm boots ELF kernels by PVH");
	return 0;
}

static bool entry_is_loaded(const struct load_plan *plan)
{
	for (unsigned i = 0; i < plan->count; i++)
		if (plan->entry >= plan->seg[i].paddr &&
		    plan->entry - plan->seg[i].paddr < plan->seg[i].memsz)
			return true;
	return false;
}

static void copy_segments(const uint8_t *image, const struct load_plan *plan,
			  const struct guest_mem *mem, struct kernel_entry *out)
{
	out->entry = plan->entry;
	out->load_end = 0;
	for (unsigned i = 0; i < plan->count; i++) {
		const struct load_segment *s = &plan->seg[i];
		uint8_t *dst = guest_mem_ptr(mem, s->paddr, s->memsz); /* checked in plan_load */
		memcpy(dst, image + s->offset, s->filesz);
		memset(dst + s->filesz, 0, s->memsz - s->filesz);
		if (s->paddr + s->memsz > out->load_end)
			out->load_end = s->paddr + s->memsz;
	}
}

int elf_load(const void *image, size_t size, const struct guest_mem *mem, struct kernel_entry *out,
	     char *err, size_t errlen)
{
	if (elf_version(EV_CURRENT) == EV_NONE)
		FAIL("libelf: %s", elf_errmsg(-1));
	/* ELF_C_READ on a memory image: libelf reads it and never writes it. */
	Elf *e = elf_memory((char *)(uintptr_t)image, size);
	if (!e)
		FAIL("not an ELF file: %s", elf_errmsg(-1));
	struct load_plan plan = { .count = 0 };
	int rc = check_header(e, err, errlen);
	if (rc == 0)
		rc = plan_load(e, size, mem, &plan, err, errlen);
	if (rc == 0 && !entry_is_loaded(&plan)) {
		snprintf(err, errlen, "PVH entry 0x%llx is not inside a loaded segment",
			 (unsigned long long)plan.entry);
		rc = -1;
	}
	if (rc == 0)
		copy_segments(image, &plan, mem, out);
	elf_end(e);
	return rc;
}
