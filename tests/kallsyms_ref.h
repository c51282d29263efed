/*
 * kallsyms_ref: the reference a kallsyms file loader is held to, for the
 * unit tests and fuzz/fuzz-kallsyms.c: the text fed to sym_kallsyms_line
 * one line at a time. Stage: tests. Invariant: sym_kallsyms_load of the
 * same text gives the same table, counts and _text.
 */
#ifndef SCORCH_TESTS_KALLSYMS_REF_H
#define SCORCH_TESTS_KALLSYMS_REF_H

#include <stdint.h>
#include <string.h>

#include "symbols/kallsyms.h"
#include "symbols/table.h"

struct ks_ref {
	struct sym_table t;
	int added;
	uint64_t bad, text;
};

static inline void ks_ref_lines(const char *s, size_t size, struct ks_ref *r)
{
	const char *end = s + size;
	while (s < end) {
		const char *nl = memchr(s, '\n', (size_t)(end - s));
		size_t len = nl ? (size_t)(nl - s) : (size_t)(end - s);
		int rc = len ? sym_kallsyms_line(&r->t, s, len) : 0;
		r->added += rc > 0;
		r->bad += rc < 0;
		s = nl ? nl + 1 : end;
	}
	r->text = sym_kallsyms_addr_of(&r->t, "_text");
	sym_table_finish(&r->t, true);
}

#endif
