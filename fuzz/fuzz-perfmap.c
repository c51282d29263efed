/*
 * fuzz-perfmap: libFuzzer entry for the text symbol sources: JIT maps
 * (/tmp/perf-PID.map lines), kallsyms lines, and the demangler.
 * Stage: fuzz. Every line goes to both line parsers and, bounded in
 * length, to sym_demangle; the tables are finished and searched.
 * Invariant under test: malformed lines are skipped, never a crash, leak
 * or undefined behaviour.
 */
#include "symbols/demangle.h"
#include "symbols/kallsyms.h"
#include "symbols/perfmap.h"
#include "symbols/table.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sym_table jit = SYM_TABLE_INIT, ks = SYM_TABLE_INIT;
	sym_table_init(&jit);
	sym_table_init(&ks);
	const char *s = (const char *)data, *end = s + size;
	while (s < end) {
		const char *nl = memchr(s, '\n', (size_t)(end - s));
		size_t len = nl ? (size_t)(nl - s) : (size_t)(end - s);
		(void)sym_perfmap_line(&jit, s, len);
		(void)sym_kallsyms_line(&ks, s, len);
		if (len < 4096) {
			char *name = strndup(s, len);
			if (name) {
				free(sym_demangle(name));
				free(name);
			}
		}
		s = nl ? nl + 1 : end;
	}
	sym_table_finish(&jit, false);
	sym_table_finish(&ks, true);
	for (size_t i = 0; i < jit.n && i < 64; i++)
		(void)sym_table_find(&jit, jit.syms[i].start + 1);
	for (size_t i = 0; i < ks.n && i < 64; i++)
		(void)sym_table_find(&ks, ks.syms[i].end - 1);
	sym_table_release(&jit);
	sym_table_release(&ks);
	return 0;
}
