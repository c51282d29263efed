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
 */
#include "symbols/inline.h"

#include <gelf.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

enum { MAX_FUNCS = 48 };

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
	if (write(fd, data, size) != (ssize_t)size) {
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
