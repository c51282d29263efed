/*
 * detect: which stack format the first bytes of an input are.
 * Stage: stacks. Looks only at a prefix the caller has already read (at
 * most a few hundred lines), never consumes input. Decides on the first
 * line that tells formats apart; binary data (a NUL or other control
 * bytes) and text of no known format are errors with the line number.
 */
#ifndef SCORCH_STACKS_DETECT_H
#define SCORCH_STACKS_DETECT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/diag.h"

enum stack_format {
	FMT_UNKNOWN = 0,
	FMT_EMPTY,        /* no bytes, or only blank and '#' lines */
	FMT_PERF_DATA,    /* perf.data magic (file or pipe header) */
	FMT_PERF_SCRIPT,
	FMT_STAP,
	FMT_DTRACE,
};

/* Name as --format spells it ("perf-script", ...), or NULL. */
const char *stack_format_name(enum stack_format f);
/* Parse a --format value; FMT_UNKNOWN when it is none of them. */
enum stack_format stack_format_parse(const char *name);

/* Guess from data[0..len); at_eof says the input ends there (so a last
 * line without '\n' is complete). On FMT_UNKNOWN, d says why and at which
 * line ("line N: ..."). */
enum stack_format stack_format_detect(const char *data, size_t len, bool at_eof,
				      struct diag *d);
/* Whether data[0..len) starts with a gzip, zstd, xz or bzip2 magic: then
 * *name is the format ("gzip") and *tool the command that unpacks it to
 * stdout ("zcat"), both static. */
bool stack_compressed_kind(const char *data, size_t len, const char **name,
			   const char **tool);
/* Whether data[0..len) can be stack text at all (for a --format given by
 * the user): false, with d saying why, for compressed or binary data. */
bool stack_format_is_text(const char *data, size_t len, struct diag *d);
/* The format of an input whose first bytes are data[0..len): forced
 * (a --format, FMT_UNKNOWN: none) when the bytes can be text, else what
 * stack_format_detect says. FMT_UNKNOWN with d saying why. */
enum stack_format stack_format_choose(const char *data, size_t len, bool at_eof,
				      enum stack_format forced, struct diag *d);

#endif
