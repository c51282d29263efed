/*
 * export_speedscope: `scorch export --format speedscope`: the inputs
 * read into the profile model (perf.data through the fold collector,
 * frames by identity and a row per sample; perf script text as its
 * threads' process frames and text frames; folded files as text
 * frames), written by render/speedscope.h.
 * Stage: command helpers. Key invariant: the output file appears whole
 * or not at all (written to a temporary file beside it, then renamed).
 */
#ifndef SCORCH_CMD_EXPORT_SPEEDSCOPE_H
#define SCORCH_CMD_EXPORT_SPEEDSCOPE_H

#include <stdbool.h>

#include "cmd/fold_perfdata.h"
#include "render/speedscope.h"

/* Parse --per's argument. Returns 0, or -1 for an unknown word. */
int export_speedscope_per(const char *arg, enum speedscope_per *per);

/* Read the n inputs (none: standard input) with fo's symbol options and
 * write the speedscope file to output (NULL or "-": standard output);
 * timeline asks for evented profiles. Returns the exit status (0, or 1
 * after a message). */
int export_speedscope(char **inputs, int n, const struct fold_perfdata_opts *fo,
		      const char *output, enum speedscope_per per, bool timeline);

#endif
