/*
 * inline: the inlined-call frames at a code address, from DWARF.
 * Stage: symbols. For an address inside a function that had calls
 * inlined into it, DWARF nests DW_TAG_inlined_subroutine scopes; this
 * file turns them into the frame list perf prints (innermost first, one
 * row per function): for `now` inlined into `spin`, { "now", "spin" }.
 * The last frame is the concrete function holding the address. Names
 * are the linkage name when DWARF has one (demangled), else DW_AT_name,
 * which is what perf 6.1 gets from addr2line -i.
 *
 * perf's rule for printing (perf script, stackcollapse input): every
 * frame becomes a row at the same ip; a frame whose name equals the ELF
 * symbol's name is that symbol, printed "sym+off (dso)"; any other frame
 * prints "name+off (inlined)", off still relative to the ELF symbol.
 * When no DWARF covers the address (0 frames), the symbol row alone.
 *
 * Caching: one libdw handle per file and a memo per (file, address), so
 * each address is looked up once per run; memory grows with distinct
 * addresses seen, not with the number of samples.
 * Ownership: names live until sym_inline_free; the frames array returned
 * by sym_inline_frames is valid until the next call.
 */
#ifndef SCORCH_SYMBOLS_INLINE_H
#define SCORCH_SYMBOLS_INLINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SYM_INLINE_MAX 32   /* deeper nests are cut, as perf does */

struct sym_inline_frame {
	const char *name;       /* never NULL ("??" when DWARF has none) */
	const char *file;       /* where this function is executing (addr2line
				 * -i's file: the source line of the address
				 * for the innermost frame, the call site of the
				 * next inner one otherwise), or NULL */
	unsigned line;          /* 0 when unknown */
};

struct sym_inline;

/* Never returns NULL. */
struct sym_inline *sym_inline_new(void);
void sym_inline_free(struct sym_inline *c);   /* NULL-safe */
/* From now on frames get names only (file NULL, line 0) and the line
 * tables are neither decompressed nor read (about 14% of the
 * instructions of folding a small DWARF recording). Only before the
 * first lookup; later calls change nothing. */
void sym_inline_names_only(struct sym_inline *c);

/* Frames at file address addr (the ELF's own virtual address, not the
 * runtime one) of path, the file holding .debug_info: the binary or its
 * separate debug file. Returns the number of frames stored at *out
 * (0 when path has no DWARF for addr, or can't be opened: never an
 * error, the caller then prints the plain symbol). */
size_t sym_inline_frames(struct sym_inline *c, const char *path,
			 uint64_t addr, const struct sym_inline_frame **out);

struct sym_dso;

/* The same for a map address of a dso (the file offset perf prints, as
 * given to sym_dsos_find), with perf's choice of file: only ELF dsos of
 * user space, DWARF read from the file the symbols came from
 * (dso->sym_path: the debug file when there is one). 0 for the kernel,
 * [vdso], JIT maps, or a dso not loaded yet. */
size_t sym_inline_dso_frames(struct sym_inline *c, const struct sym_dso *d,
			     uint64_t map_addr,
			     const struct sym_inline_frame **out);

/* The source line perf 6.1 prints for file address vaddr of a user
 * ELF dso (-s srcline: GNU addr2line's first answer): the line table's
 * file and line, except that for an address outside any inlined code the
 * file is the compile unit's (as binutils names it); for row > 0, the
 * call site of frame row - 1 (addr2line -i's later answers). Returns 1 with
 * out->file and out->line set (file borrowed like frame names), 0 when
 * the file has no line for vaddr, -1 when there is no file to ask (the
 * kernel, [vdso], JIT maps, a binary not found): perf then prints the
 * symbol and offset. */
int sym_inline_srcline(struct sym_inline *c, const struct sym_dso *d, uint64_t vaddr,
		       size_t row, struct sym_inline_frame *out);

/* Where function row of map address map_addr of d is defined (the
 * HTML explorer's "source"): rows count innermost first as
 * sym_inline_dso_frames gives them, and a row past the last
 * (SYM_INLINE_CONCRETE) is the concrete function holding the address.
 * The answer is the DW_AT_decl_file and DW_AT_decl_line of that
 * function's DIE (through the abstract origin of an inlined or
 * out-of-line copy), else the line table's file and line of the address
 * itself. Returns 1 with out->file (borrowed like frame names), out->line
 * (0 when unknown) and out->name ("??") set, 0 when neither is known,
 * -1 when there is no file to ask (see sym_inline_srcline). Uses the
 * line tables: not for a names-only handle. */
#define SYM_INLINE_CONCRETE SIZE_MAX
int sym_inline_decl(struct sym_inline *c, const struct sym_dso *d, uint64_t map_addr,
		    size_t row, struct sym_inline_frame *out);

/* True when frame is the ELF symbol itself under perf's rule. */
bool sym_inline_is_symbol(const struct sym_inline_frame *f,
			  const char *sym_name);

/* Statistics: lookups served from the memo, files that had no DWARF,
 * files whose .debug_info was inflated on demand (symbols/lazyinfo.h)
 * and how many of those needed all of it in the end. */
struct sym_inline_stats {
	uint64_t lookups, memo_hits, files, files_without_dwarf;
	uint64_t lazy_files, lazy_whole;
};
const struct sym_inline_stats *sym_inline_stats(const struct sym_inline *c);

#endif
