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

void collapse_text_input_notes(struct collapse_text *ct, const char *name,
			       struct strbuf *out)
{
	struct collapse_perf *p = &ct->perf;
	if (!p->bad_lines)
		return;
	sb_addf(out, "%s: ignored %llu unrecognized line%s (first at line %llu: "
		"'%s')\n", name, (unsigned long long)p->bad_lines,
		p->bad_lines == 1 ? "" : "s",
		(unsigned long long)p->first_bad_line, p->first_bad.buf);
	p->bad_lines = 0;
	sb_reset(&p->first_bad);
}

void collapse_text_end_notes(const struct collapse_text *ct, const char *last_perf,
			     bool inline_, struct strbuf *out)
{
	const struct collapse_perf *p = &ct->perf;
	uint64_t open = collapse_perf_open_sample(p);
	if (open && last_perf)
		sb_addf(out, "%s: the sample at line %llu is not ended by a blank line; "
			"left out, as stackcollapse-perf.pl does\n",
			last_perf, (unsigned long long)open);
	if (p->truncated_line)
		sb_addf(out, "%s: line %llu: a sample of over %u frames (no blank line "
			"ends it); later frames left out\n", last_perf ? last_perf : "(null)",
			(unsigned long long)p->truncated_line, COLLAPSE_MAX_FRAMES);
	if (last_perf && p->samples == 0 && p->headers > 0)
		sb_adds(out, "no call chains in the perf script input; "
			"was 'perf record' run with -g?\n");
	if (inline_ && last_perf)
		sb_adds(out, "--inline needs the binaries: with perf script text, "
			"frames are kept as perf printed them\n");
	if (collapse_text_pending(ct))
		sb_adds(out, "frames after the last count line were left out\n");
}
