/*
 * folded: parser for one line of folded stacks ("a;b;c 42").
 * Stage: stacks. The folded line is the interface between scorch's
 * commands and the FlameGraph tools: frames separated by ';', then
 * whitespace and a count. A second count before the last one makes a
 * differential line ("a;b 10 14": before, after). Counts are decimal,
 * optionally with a fraction ("6.", "2.567"), as flamegraph.pl accepts.
 * Key invariant: the parser never reads outside [line, line + len) and
 * never allocates; the returned stack points into the caller's line.
 * Frame bytes are not interpreted: invalid UTF-8 is kept as is (the
 * renderer escapes it on output).
 */
#ifndef SCORCH_STACKS_FOLDED_H
#define SCORCH_STACKS_FOLDED_H

#include <stdbool.h>
#include <stddef.h>

#include "base/lines.h"

struct stack_folded {
	const char *stack; /* borrowed from the line, not NUL-terminated */
	size_t stack_len;
	double count;      /* the last column */
	double count1;     /* first column of a differential line, else 0 */
	bool two;          /* the line had two count columns */
};

/* Parse one line (a trailing '\r' is ignored). Returns 0, or -EINVAL when
 * the line has no count (the caller counts and skips it). The stack is
 * everything before the whitespace character that precedes the count,
 * as flamegraph.pl's /^(.*)\s+?(\d+(?:\.\d*)?)$/ splits it. */
int stack_folded_parse(const char *line, size_t len, struct stack_folded *out);

/* Parse a decimal count "123", "1.5", "6." of exactly len bytes.
 * Returns 0 or -EINVAL. */
int stack_folded_count(const char *s, size_t len, double *out);

/* Format a count as Perl prints numbers: integers exactly, others with
 * 15 significant digits ("14.2343983248723"). buf must hold 40 bytes. */
void stack_folded_format_count(double v, char *buf);

/* Lines without a count met while reading folded text (over all the
 * files one reader goes through): how many, and the first one's place. */
struct stack_folded_bad {
	size_t n;
	char first[512];   /* "file:line" of the first, once n > 0 */
};

/* The note of those lines, when there were some, appended to sb:
 * "ignored N line(s) with invalid format (first at FILE:LINE)", as
 * flamegraph.pl's "Ignored N lines with invalid format". Returns whether
 * it was. */
struct strbuf;
bool stack_folded_bad_note(const struct stack_folded_bad *bad, struct strbuf *sb);

/* What stack_folded_read met in one file. */
struct stack_folded_file {
	size_t good;                  /* lines parsed */
	unsigned long long first_bad; /* line number of the first bad line, or 0 */
};

typedef void (*stack_folded_fn)(void *ctx, const struct stack_folded *f);

/* Parse every line of lr (name: for bad->first), calling fn for each one
 * with a count; empty lines are passed over, and with comments also lone
 * "\r" lines and lines starting with '#' (austin writes "# mode: wall").
 * Lines without a count are counted in bad and ff, not given to fn.
 * Returns 0 at the end of input, or lines_next's negative code (lr's
 * lineno then is the line before the one that failed). */
int stack_folded_read(struct lines *lr, const char *name, bool comments,
		      stack_folded_fn fn, void *ctx, struct stack_folded_bad *bad,
		      struct stack_folded_file *ff);

#endif
