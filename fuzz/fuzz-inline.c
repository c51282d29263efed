/*
 * fuzz-inline: libFuzzer entry for inline frames from DWARF
 * (symbols/inline over symbols/lazyinfo, libdw underneath).
 * Stage: fuzz. The bytes become a file (a memfd, opened again through
 * /proc/self/fd/N, as sym_inline opens paths); its inlined frames are
 * looked up at a spread of addresses: fixed probes around the seeds'
 * code and the start, middle and end of the first function symbols the
 * bytes declare; once with file and line, once names only. Compressed
 * sections go through lazyinfo: lying Chdr sizes, broken zlib and zstd
 * streams, .debug_aranges naming any unit, .debug_info grown on demand.
 * Invariant under test: any bytes give some frames or none, never a
 * crash, leak or undefined behaviour.
 * From an empty corpus libFuzzer never got past the ELF and DWARF
 * headers: libelf and libdw parse them and are not instrumented, so
 * nothing rewarded a step towards a valid file. An input that is not an
 * ELF file is therefore laid over the DWARF sections of a built-in
 * template (fuzz/seeds/inline-plain.elf: inline-gcc.elf with its debug
 * sections uncompressed, by objcopy --decompress-debug-sections), whose
 * headers, symbols and section table stay valid: the empty input is the
 * template itself, and every mutation is a change to its DWARF.
 */
#include "symbols/inline.h"

#include <gelf.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

enum { MAX_FUNCS = 48 };

/* the template, embedded at build time (make runs from the top) */
__asm__(".section .rodata\n"
	".global fuzz_inline_tmpl\n"
	"fuzz_inline_tmpl:\n"
	".incbin \"fuzz/seeds/inline-plain.elf\"\n"
	".global fuzz_inline_tmpl_end\n"
	"fuzz_inline_tmpl_end:\n"
	".previous\n");
extern const uint8_t fuzz_inline_tmpl[], fuzz_inline_tmpl_end[];

/* The template's DWARF bytes: from the first .debug_ section to the end
 * of the last, found once. */
static size_t dwarf_from, dwarf_to;

static void find_dwarf(void)
{
	size_t shstrndx;
	elf_version(EV_CURRENT);
	Elf *e = elf_memory((char *)fuzz_inline_tmpl,
			   (size_t)(fuzz_inline_tmpl_end - fuzz_inline_tmpl));
	if (!e || elf_getshdrstrndx(e, &shstrndx) != 0)
		abort();
	dwarf_from = SIZE_MAX;
	for (Elf_Scn *scn = NULL; (scn = elf_nextscn(e, scn)) != NULL;) {
		GElf_Shdr sh;
		const char *name;
		if (!gelf_getshdr(scn, &sh) ||
		    !(name = elf_strptr(e, shstrndx, sh.sh_name)) ||
		    strncmp(name, ".debug_", 7) != 0)
			continue;
		if (sh.sh_offset < dwarf_from)
			dwarf_from = sh.sh_offset;
		if (sh.sh_offset + sh.sh_size > dwarf_to)
			dwarf_to = sh.sh_offset + sh.sh_size;
	}
	elf_end(e);
	if (dwarf_from >= dwarf_to)
		abort();
}

/* The file to look at: an ELF input as it is, anything else over the
 * template's DWARF bytes. Returns 0 or -1. */
static int write_input(int fd, const uint8_t *data, size_t size)
{
	static uint8_t buf[65536];
	size_t tlen = (size_t)(fuzz_inline_tmpl_end - fuzz_inline_tmpl);
	if ((size >= 4 && memcmp(data, "\177ELF", 4) == 0) || tlen > sizeof(buf))
		return write(fd, data, size) == (ssize_t)size ? 0 : -1;
	if (!dwarf_to)
		find_dwarf();
	memcpy(buf, fuzz_inline_tmpl, tlen);
	if (size > dwarf_to - dwarf_from)
		size = dwarf_to - dwarf_from;
	memcpy(buf + dwarf_from, data, size);
	return write(fd, buf, tlen) == (ssize_t)tlen ? 0 : -1;
}

/* Start, middle and last byte of the first function symbols. */
static size_t function_addrs(int fd, uint64_t *out, size_t cap)
{
	size_t n = 0;
	elf_version(EV_CURRENT);
	Elf *e = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	for (Elf_Scn *scn = NULL; e && (scn = elf_nextscn(e, scn)) != NULL;) {
		GElf_Shdr sh;
		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_SYMTAB ||
		    sh.sh_entsize == 0)
			continue;
		Elf_Data *d = elf_getdata(scn, NULL);
		size_t count = d ? d->d_size / sh.sh_entsize : 0;
		for (size_t i = 0; i < count && n + 3 <= cap; i++) {
			GElf_Sym s;
			if (!gelf_getsym(d, (int)i, &s) ||
			    GELF_ST_TYPE(s.st_info) != STT_FUNC)
				continue;
			out[n++] = s.st_value;
			out[n++] = s.st_value + s.st_size / 2;
			out[n++] = s.st_value + (s.st_size ? s.st_size - 1 : 0);
		}
	}
	if (e)
		elf_end(e);
	return n;
}

static void lookups(const char *path, const uint64_t *addrs, size_t n,
		    bool names_only)
{
	struct sym_inline *c = sym_inline_new();
	if (names_only)
		sym_inline_names_only(c);
	for (size_t i = 0; i < n; i++) {
		const struct sym_inline_frame *f;
		size_t k = sym_inline_frames(c, path, addrs[i], &f);
		for (size_t j = 0; j < k; j++)   /* every name readable */
			(void)(strlen(f[j].name) + (f[j].file ? strlen(f[j].file) : 0));
	}
	sym_inline_free(c);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const uint64_t probes[] = {
		0, 0x4000b0, 0x4000c0, 0x4000d0, 0x4000f0, 0x400110, 0x401139,
		0x1000, 0x1139, 0x1149, 0x2000, UINT64_MAX,
	};
	uint64_t addrs[sizeof(probes) / sizeof(probes[0]) + MAX_FUNCS * 3];
	char path[64];
	int fd = memfd_create("fuzz-inline", MFD_CLOEXEC);
	if (fd < 0)
		return 0;
	if (write_input(fd, data, size) != 0) {
		close(fd);
		return 0;
	}
	memcpy(addrs, probes, sizeof(probes));
	size_t n = sizeof(probes) / sizeof(probes[0]);
	n += function_addrs(fd, addrs + n, MAX_FUNCS * 3);
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	lookups(path, addrs, n, false);
	lookups(path, addrs, n, true);
	close(fd);
	return 0;
}
