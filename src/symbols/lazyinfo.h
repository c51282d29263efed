/*
 * lazyinfo: a file's compressed DWARF sections inflated by scorch, and
 * .debug_info only as far as the lookups need.
 * Stage: symbols. libdw inflates every compressed DWARF section of a
 * file with zlib when it opens it: for libc's separate debug file
 * (Debian's libc6-dbg) that is 5.8 MB of .debug_info and 1 MB of
 * .debug_abbrev, about a quarter of the CPU time of folding a 300 MB
 * DWARF recording whose samples touch three of libc's units. Instead
 * every compressed .debug_* section is taken over before libdw opens the
 * file: inflated here (ISA-L for zlib, 2.5x faster; libzstd for zstd,
 * which libdw 0.188 cannot read at all) and handed to libdw as plain
 * data. .debug_info is handed over as a growing prefix: the compile
 * unit holding an address comes from .debug_aranges (read here), the
 * stream is inflated up to that unit's end, and the caller reopens its
 * Dwarf handle over the longer prefix (libdw reads units lazily, so only
 * what a lookup walks is parsed).
 *
 * What a prefix cannot answer (an address missing from .debug_aranges,
 * a reference into a later unit) is the caller's cue to inflate all of
 * it (lazy_info_all) and use libdw as usual: results never depend on how
 * much was inflated.
 *
 * Ownership: the inflated bytes belong to the lazy_info and are what
 * libdw reads: free it after dwarf_end, before or after elf_end.
 */
#ifndef SCORCH_SYMBOLS_LAZYINFO_H
#define SCORCH_SYMBOLS_LAZYINFO_H

#include <stdbool.h>
#include <stdint.h>

#include <gelf.h>

struct lazy_info;

/* Take over e's compressed .debug_* sections (SHT_NOBITS ones are left
 * alone) before dwarf_begin_elf sees them: all inflated now but
 * .debug_info, of which a first chunk is (so that libdw finds DWARF)
 * when .debug_aranges can tell its units; else it is inflated whole
 * too. Compressed sections no lookup reads (.debug_loclists, .debug_loc,
 * macros, name indexes) are hidden as SHT_NOBITS, not inflated.
 * A section that fails is hidden from libdw: as SHT_NOBITS when
 * its algorithm is unknown or its header claims more than its stream
 * can hold (libelf would allocate what the header says), as an empty
 * section when its stream breaks (.debug_info: its whole units). NULL
 * when no section was taken over (e untouched but for hidden ones). */
struct lazy_info *lazy_info_new(Elf *e);
void lazy_info_free(struct lazy_info *l);   /* NULL-safe */

/* True once all of .debug_info is inflated (or was never lazy). */
bool lazy_info_complete(const struct lazy_info *l);

/* The .debug_info offset of the unit whose aranges hold addr. */
bool lazy_info_unit_of(const struct lazy_info *l, uint64_t addr, uint64_t *off);

/* True when addr lies in a .plt* section (PLT stubs: no unit describes
 * them, so an address there missing from .debug_aranges needs no search
 * through the whole section). */
bool lazy_info_in_plt(const struct lazy_info *l, uint64_t addr);

/* Make the unit at off readable. Returns 1 when the prefix grew (the
 * caller must reopen its Dwarf handle), 0 when it was readable already,
 * -1 on damaged data (the caller should inflate all and rely on libdw). */
int lazy_info_need(struct lazy_info *l, uint64_t off);

/* Inflate the rest. Returns 1 when the prefix grew, 0 when it was
 * complete, -1 when the stream is damaged (the readable prefix stays). */
int lazy_info_all(struct lazy_info *l);

#endif
