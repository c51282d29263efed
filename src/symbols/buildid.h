/*
 * buildid: read the GNU build-id note of an ELF file.
 * Stage: symbols. The build id is the desc of the first NT_GNU_BUILD_ID
 * (type 3, name "GNU") note in any SHT_NOTE section or PT_NOTE segment;
 * at most SYM_BUILDID_MAX bytes are kept. Note parsing goes through
 * cursor readers: a note whose sizes run past its section is damage,
 * reported in the diag, never read past.
 * Ownership: results are copied into caller buffers; nothing is kept.
 */
#ifndef SCORCH_SYMBOLS_BUILDID_H
#define SCORCH_SYMBOLS_BUILDID_H

#include <gelf.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/diag.h"

#define SYM_BUILDID_MAX 20

struct sym_buildid {
	uint8_t id[SYM_BUILDID_MAX];
	uint8_t size;   /* 0: none */
};

/* Find the build id in a buffer of ELF notes (a note section's bytes)
 * written in the given byte order. Returns 1 found, 0 not found,
 * -EINVAL for a malformed note (diag names the offset within data). */
int sym_buildid_from_notes(const void *data, size_t len, bool swap,
			   struct sym_buildid *out, struct diag *d);
/* From an open libelf handle: note sections first, then PT_NOTE
 * segments. Returns 1, 0 or negative as above. */
int sym_buildid_from_elf(Elf *elf, struct sym_buildid *out, struct diag *d);
/* Open path and read its build id. Returns 1, 0, -errno or -EINVAL
 * (not an ELF file). */
int sym_buildid_read(const char *path, struct sym_buildid *out,
		     struct diag *d);

/* Lower-case hex into buf (2*size+1 bytes, 41 for any id). */
char *sym_buildid_hex(const struct sym_buildid *b, char *buf);
/* Parse hex (even length, up to 40 digits). Returns 0 or -EINVAL. */
int sym_buildid_parse(const char *hex, struct sym_buildid *out);
bool sym_buildid_eq(const struct sym_buildid *a, const struct sym_buildid *b);

#endif
