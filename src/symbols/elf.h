/*
 * elf: load an ELF file's function symbols and layout through libelf.
 * Stage: symbols. Reads .symtab (else .dynsym) the way perf does: FUNC
 * and GNU_IFUNC symbols with a name and a section, plus NOTYPE labels in
 * sections whose name contains "text"; C++ and Rust names demangled
 * (sym_elf_load_objects leaves them mangled, e->mangled, for the caller
 * to demangle the entries it finds: sym_entry_demangle).
 * Also records the build id, the .gnu_debuglink name and the PT_LOAD
 * segments (to turn file offsets into symbol addresses). Every section
 * is checked against the file size before libelf touches it: an ELF
 * file that lies about its sizes is rejected with a diag, never read.
 * Ownership: sym_elf_file owns its fd and Elf handle until
 * sym_elf_close; symbols go into the caller's table. A file opened with
 * sym_elf_open has its symbol names read in place: its string table is
 * mapped read-only and owned by that table (sym_table_keep_map), not
 * copied (the file must then not be truncated while the table lives).
 */
#ifndef SCORCH_SYMBOLS_ELF_H
#define SCORCH_SYMBOLS_ELF_H

#include <gelf.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/diag.h"
#include "symbols/buildid.h"
#include "symbols/table.h"

struct sym_segment {
	uint64_t offset, vaddr, filesz, memsz;
	bool exec;
};

struct sym_elf_file {
	int fd;
	Elf *elf;
	uint64_t file_size;
	int e_type;                /* ET_EXEC, ET_DYN, ... */
	struct sym_buildid buildid;
	bool has_symtab, has_dynsym;
	bool plain_file;           /* offsets are the file's: may mmap */
	char debuglink[256];       /* "" when absent */
	struct sym_segment *segs;  /* PT_LOAD, in file order */
	size_t nsegs;
};

/* Open and validate path. Returns 0, -errno, or -EINVAL (not ELF, or
 * section/segment sizes that run past the file: diag says which). */
int sym_elf_open(struct sym_elf_file *f, const char *path, struct diag *d);
/* As sym_elf_open, and a gzip-, xz- or zstd-compressed file (a module
 * shipped as .ko.xz) is decompressed whole into memory (libdw's
 * dwelf_elf_begin) and checked as that image; compressed files above
 * SYM_ELF_COMPRESSED_MAX bytes are refused (-EFBIG). */
int sym_elf_open_any(struct sym_elf_file *f, const char *path, struct diag *d);
#define SYM_ELF_COMPRESSED_MAX (64u << 20)
/* Same over a memory image (copied into libelf; for fuzzing). */
int sym_elf_open_mem(struct sym_elf_file *f, const void *data, size_t len,
		     struct diag *d);
void sym_elf_close(struct sym_elf_file *f);

/* Add the file's symbols to t (.symtab, or .dynsym when prefer_dynsym
 * or no .symtab), names demangled. Returns the number added, or
 * -EINVAL (diag). */
int sym_elf_load(struct sym_elf_file *f, struct sym_table *t,
		 bool prefer_dynsym, struct diag *d);
/* Same, and when objs is not NULL also add the data objects (STT_OBJECT)
 * to objs: perf keeps them in its symbol tree, which decides PLT names
 * (rbt.h). An object's seq is t->n when it was met: it was inserted
 * just before t's symbol of that seq. Names of t are left mangled
 * (e->mangled) until sym_entry_demangle or sym_table_finish's alias rule. */
int sym_elf_load_objects(struct sym_elf_file *f, struct sym_table *t,
			 struct sym_table *objs, bool prefer_dynsym,
			 struct diag *d);

/* Kernel symbols as perf reads a vmlinux or a module's .ko: functions
 * and text labels (the filter above) in SHF_ALLOC sections, st_value
 * as it is, names never demangled (perf leaves kernel names alone).
 * only_section: when not NULL, only symbols of the section of that name
 * (perf names a module's .text symbols, relative to .text in a
 * relocatable .ko). Returns the number added, or -EINVAL (diag). */
int sym_elf_load_kernel(struct sym_elf_file *f, struct sym_table *t,
			const char *only_section, struct diag *d);
/* st_value of the first .symtab symbol called name, of any type (perf's
 * ref_reloc_sym lookup: "_text", "_stext"). Returns 1 found, else 0. */
int sym_elf_symbol_value(struct sym_elf_file *f, const char *name,
			 uint64_t *value);

/* Add "name@plt" symbols for the .plt entries, as perf synthesizes them
 * (x86-style .plt with sh_entsize-sized header and entries, names from
 * .rela.plt/.rel.plt through .dynsym). Returns the number added, 0 when
 * the file has no such .plt, or -EINVAL (diag). */
int sym_elf_load_plt(struct sym_elf_file *f, struct sym_table *t, struct diag *d);

/* The section of e named name that has bytes in the file (not
 * SHT_NOBITS), or NULL. */
Elf_Scn *sym_elf_section(Elf *e, const char *name);

/* Map a file offset to the virtual address symbols use, through the
 * PT_LOAD segment holding it (identity when none does). */
uint64_t sym_segments_to_vaddr(const struct sym_segment *segs, size_t n,
			       uint64_t offset);

#endif
