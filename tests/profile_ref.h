/*
 * profile_ref: the reference the profile model's naming is held to, for
 * src/profile/profile_test.c and fuzz/fuzz-profile-model.c: the same
 * samples printed as perf script text and folded by the text collapser
 * (collapse_perf, byte-identical to stackcollapse-perf.pl). Stage: tests.
 * Invariant: the model's folded view of those samples equals out.
 */
#ifndef SCORCH_TESTS_PROFILE_REF_H
#define SCORCH_TESTS_PROFILE_REF_H

#include <stdint.h>
#include <string.h>

#include "base/strbuf.h"
#include "stacks/collapse_perf.h"
#include "stacks/table.h"

/* Fold text (whole lines, each ending in '\n') into out's folded lines. */
static inline void profile_ref_fold_script(const struct collapse_opts *o,
					   const struct strbuf *text, struct strbuf *out)
{
	struct stack_table t = STACK_TABLE_INIT;
	struct collapse_perf cp;
	collapse_perf_init(&cp, o, &t);
	const char *line = text->buf, *end = text->buf + text->len;
	uint64_t no = 0;
	while (line < end) {
		const char *nl = memchr(line, '\n', (size_t)(end - line));
		collapse_perf_line(&cp, line, (size_t)(nl - line), ++no);
		line = nl + 1;
	}
	collapse_perf_flush(&cp);
	stack_table_write_sb(&t, out);
	collapse_perf_release(&cp);
	stack_table_release(&t);
}

#endif
