/*
 * collapse_counted: stacks printed as frame lines then a count line, as
 * DTrace prints an @[stack()] = count() aggregation (the input of
 * stackcollapse.pl) and SystemTap prints print_stack() output with a
 * count (the input of stackcollapse-stap.pl).
 * Stage: stacks. Key invariant: output identical to those Perl scripts
 * (see collapse_counted.c for their rules), streaming, one stack buffered.
 */
#ifndef SCORCH_STACKS_COLLAPSE_COUNTED_H
#define SCORCH_STACKS_COLLAPSE_COUNTED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "stacks/table.h"

enum counted_kind { COUNTED_DTRACE, COUNTED_STAP };

struct collapse_counted {
	enum counted_kind kind;
	struct stack_table *out;
	struct stack_builder frames; /* leaf first */
	uint64_t lines;              /* lines seen (DTrace skips 3) */
	uint64_t stacks;             /* count lines seen */
};

void collapse_counted_init(struct collapse_counted *c, enum counted_kind kind,
			   struct stack_table *out);
void collapse_counted_release(struct collapse_counted *c);
/* One line without its '\n'. Cannot fail: every line is a frame, a
 * count or blank. */
void collapse_counted_line(struct collapse_counted *c, const char *line,
			   size_t len);
/* Frames after the last count line (Perl drops them too). */
static inline size_t collapse_counted_pending(const struct collapse_counted *c)
{
	return c->frames.nframes;
}

/* Classifiers for format detection. */
bool collapse_counted_is_stap_frame(const char *line, size_t len);
bool collapse_counted_is_dtrace_frame(const char *line, size_t len);
bool collapse_counted_is_count(const char *line, size_t len);

#endif
