/*
 * perfmap: JIT symbol maps, /tmp/perf-PID.map (node --perf-basic-prof,
 * the JVM's perf-map-agent, ...).
 * Stage: symbols. Each line is "START SIZE NAME" with START and SIZE in
 * hex (an optional 0x prefix is accepted); NAME runs to the end of the
 * line and may contain spaces. Streamed line by line; malformed lines
 * are counted and skipped.
 */
#ifndef SCORCH_SYMBOLS_PERFMAP_H
#define SCORCH_SYMBOLS_PERFMAP_H

#include <stddef.h>
#include <stdint.h>

#include "base/diag.h"
#include "symbols/table.h"

/* Returns symbols added, or -errno (diag); *bad gets malformed lines and
 * *first_bad the number of the first one. */
int sym_perfmap_load(const char *path, struct sym_table *t, uint64_t *bad,
		     uint64_t *first_bad, struct diag *d);
/* One line: 1 added, -1 malformed. */
int sym_perfmap_line(struct sym_table *t, const char *line, size_t len);

#endif
