/*
 * collapse_text: perf script, SystemTap and DTrace text into one stack
 * table (see collapse_text.h). Stage: stacks.
 */
#include "stacks/collapse_text.h"

/* srcline: the lines below a frame line come from the same input */
static const char *srcline_next(void *ctx, size_t *len)
{
	struct collapse_text *ct = ctx;
	const char *line;
	if (!ct->cur || lines_next(ct->cur, &line, len) != 1)
		return NULL;
	return line;
}

void collapse_text_init(struct collapse_text *ct, const struct collapse_opts *o,
			struct stack_table *out)
{
	ct->cur = NULL;
	sb_init(&ct->line_copy);
	collapse_perf_init(&ct->perf, o, out);
	ct->perf.next_line = srcline_next;
	ct->perf.next_line_ctx = ct;
	collapse_counted_init(&ct->stap, COUNTED_STAP, out);
	collapse_counted_init(&ct->dtrace, COUNTED_DTRACE, out);
}

void collapse_text_release(struct collapse_text *ct)
{
	collapse_counted_release(&ct->stap);
	collapse_counted_release(&ct->dtrace);
	collapse_perf_release(&ct->perf);
	sb_release(&ct->line_copy);
}

static void perf_line(struct collapse_text *ct, const char *s, size_t len,
		      uint64_t lineno)
{
	if (ct->perf.opts.srcline) {
		/* the srcline reader moves the buffer under this line */
		sb_reset(&ct->line_copy);
		sb_add(&ct->line_copy, s, len);
		s = ct->line_copy.buf;
	}
	collapse_perf_line(&ct->perf, s, len, lineno);
}

int collapse_text_read(struct collapse_text *ct, struct lines *lr,
		       enum stack_format fmt)
{
	const char *s;
	size_t len;
	int rc;
	ct->cur = lr;
	while ((rc = lines_next(lr, &s, &len)) == 1) {
		if (fmt == FMT_PERF_SCRIPT)
			perf_line(ct, s, len, lr->lineno);
		else if (fmt == FMT_STAP)
			collapse_counted_line(&ct->stap, s, len);
		else
			collapse_counted_line(&ct->dtrace, s, len);
	}
	ct->cur = NULL;
	if (fmt == FMT_PERF_SCRIPT)
		collapse_perf_flush(&ct->perf);
	return rc < 0 ? rc : 0;
}
