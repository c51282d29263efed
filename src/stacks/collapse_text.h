/*
 * collapse_text: the text collapsers behind one door: perf script text
 * (collapse_perf.h, as stackcollapse-perf.pl), SystemTap print_stack
 * output and DTrace stack aggregations (collapse_counted.h, as
 * stackcollapse-stap.pl and stackcollapse.pl), read line by line from an
 * input into one stack table. Stage: stacks. With --srcline the perf
 * script collapser reads the source lines below a frame line from the
 * same input (the frame line is kept aside first: reading moves the
 * buffer under it).
 *
 * Usage:
 *   struct collapse_text ct;
 *   collapse_text_init(&ct, &opts, &table);
 *   rc = collapse_text_read(&ct, &lr, FMT_PERF_SCRIPT);  // per input
 *   collapse_text_input_notes(&ct, name, &notes);        // per input
 *   collapse_text_end_notes(&ct, inline_, &notes);      // at the end
 *   each line of notes is a warning for the command to print
 *   collapse_text_release(&ct);
 *
 * Ownership: ct borrows out until release; opts are copied. Memory grows
 * with distinct stacks (the table), never with input size. Failure: only
 * the input's read errors (returned), and allocation (fatal).
 */
#ifndef SCORCH_STACKS_COLLAPSE_TEXT_H
#define SCORCH_STACKS_COLLAPSE_TEXT_H

#include <stdbool.h>
#include <stddef.h>

#include "base/lines.h"
#include "base/strbuf.h"
#include "stacks/collapse_counted.h"
#include "stacks/collapse_perf.h"
#include "stacks/detect.h"
#include "stacks/table.h"

struct collapse_text {
	struct collapse_perf perf;      /* perf script text */
	struct collapse_counted stap, dtrace;
	struct lines *cur;              /* input being read (for srcline) */
	struct strbuf line_copy;        /* srcline: the frame line, kept */
	const char *last_perf;          /* name of the last perf script input
					 * read (borrowed), or NULL */
	bool filter_told;               /* collapse_text_filter_news said it */
};

void collapse_text_init(struct collapse_text *ct, const struct collapse_opts *o,
			struct stack_table *out);
void collapse_text_release(struct collapse_text *ct);
/* Fold every line of lr as fmt (FMT_PERF_SCRIPT, FMT_STAP or
 * FMT_DTRACE); perf script's last sample is flushed at the end. Returns
 * 0 at the end of input, or lines_next's negative code. */
int collapse_text_read(struct collapse_text *ct, struct lines *lr,
		       enum stack_format fmt);
/* Frames after the last count line of the stap or dtrace input. */
static inline size_t collapse_text_pending(const struct collapse_text *ct)
{
	return collapse_counted_pending(&ct->stap) + collapse_counted_pending(&ct->dtrace);
}

/* The notes of the input just read (name): its unrecognized perf script
 * lines, as one warning line ("NAME: ignored N unrecognized lines ...")
 * added to out; the count then starts again for the next input. */
void collapse_text_input_notes(struct collapse_text *ct, const char *name,
			       struct strbuf *out);
/* The notes at the end of all inputs, a warning a line added to out: a
 * perf script sample not ended by a blank line, or cut at
 * COLLAPSE_MAX_FRAMES, in the last perf script input; perf script input
 * without call chains; inline_ (the --inline option) with perf script
 * text; stap or dtrace frames after the last count line. Nothing when
 * all is well. */
void collapse_text_end_notes(const struct collapse_text *ct, bool inline_,
			     struct strbuf *out);

/* One input as collapse_text_read reads it, named by lr->name (which
 * must outlive ct: it becomes last_perf for perf script text), its notes
 * (collapse_text_input_notes) added to notes. Returns 0, or the read
 * error with d: "line N: longer than 256 MiB" or "read error after line
 * N: reason". */
struct diag;
int collapse_text_read_input(struct collapse_text *ct, struct lines *lr,
			     enum stack_format fmt, struct strbuf *notes, struct diag *d);
/* One perf script file (path, kept as last_perf) folded by up to jobs
 * threads (collapse_parallel_file: ct must be fresh), its notes added to
 * notes. Returns 0, -EAGAIN when the file cannot be split (read it
 * with collapse_text_read_input), or a negative errno with d. */
int collapse_text_read_parallel(struct collapse_text *ct, const char *path, int jobs,
				struct strbuf *notes, struct diag *d);
/* The event perf script text was filtered for, once some sample of
 * another event was left out (stackcollapse-perf.pl then says
 * "Filtering for events of type: EV"): the first time only, else NULL. */
const char *collapse_text_filter_news(struct collapse_text *ct);

#endif
