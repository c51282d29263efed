/*
 * lazyinfo: a zlib-compressed .debug_info inflated only as far as the
 * lookups need.
 * Stage: symbols. libdw decompresses every compressed DWARF section of a
 * file when it opens it: for libc's separate debug file (Debian's
 * libc6-dbg) that is 5.8 MB of .debug_info, about a quarter of the CPU
 * time of folding a 300 MB DWARF recording whose samples only ever
 * touch __libc_start_call_main there. Instead the section is handed to
 * libdw as a growing prefix of its inflated bytes: the compile unit
 * holding an address comes from .debug_aranges (read here), the stream
 * is inflated up to that unit's end, and the caller reopens its Dwarf
 * handle over the longer prefix (libdw reads units lazily, so only what
 * a lookup walks is parsed).
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

/* Take over e's .debug_info before dwarf_begin_elf sees it (a first
 * chunk is inflated so that libdw finds DWARF). NULL, with e untouched,
 * when the section is not zlib-compressed or .debug_aranges is absent
 * or unusable: libdw then decompresses everything, as always. */
struct lazy_info *lazy_info_new(Elf *e);
void lazy_info_free(struct lazy_info *l);   /* NULL-safe */

/* True once the whole section is inflated (nothing more to gain). */
bool lazy_info_complete(const struct lazy_info *l);

/* The .debug_info offset of the unit whose aranges hold addr. */
bool lazy_info_unit_of(const struct lazy_info *l, uint64_t addr, uint64_t *off);

/* Make the unit at off readable. Returns 1 when the prefix grew (the
 * caller must reopen its Dwarf handle), 0 when it was readable already,
 * -1 on damaged data (the caller should inflate all and rely on libdw). */
int lazy_info_need(struct lazy_info *l, uint64_t off);

/* Inflate the rest. Returns 1 when the prefix grew, 0 when it was
 * complete, -1 when the stream is damaged (the readable prefix stays). */
int lazy_info_all(struct lazy_info *l);

#endif
