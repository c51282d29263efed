/*
 * kallsyms: kernel symbols from a /proc/kallsyms-format text file.
 * Stage: symbols. Lines are "ADDR TYPE NAME[\t[MODULE]]"; as perf, only
 * text, weak, data and bss symbols (T W D B, either case) are kept,
 * module symbols keep their bare name. The file is streamed in blocks
 * (memory: one block, the longest line, the table). Malformed lines are
 * counted and skipped, not fatal.
 */
#ifndef SCORCH_SYMBOLS_KALLSYMS_H
#define SCORCH_SYMBOLS_KALLSYMS_H

#include <stdint.h>

#include "base/diag.h"
#include "symbols/table.h"

/* Load path into t (then finished with the kallsyms rule). Returns the
 * number of symbols, or -errno (diag). *bad gets malformed lines, *text
 * the address of _text (0 when absent; taken before aliases merge). */
int sym_kallsyms_load(const char *path, struct sym_table *t,
		      uint64_t *bad, uint64_t *text, struct diag *d);
/* Parse one line into t; returns 1 added, 0 skipped, -1 malformed. */
int sym_kallsyms_line(struct sym_table *t, const char *line, size_t len);
/* Address of symbol name in t (linear), 0 when absent. */
uint64_t sym_kallsyms_addr_of(const struct sym_table *t, const char *name);

#endif
