/*
 * collapse_text: perf script, SystemTap and DTrace text into one stack
 * table (see collapse_text.h). Stage: stacks.
 */
#include "stacks/collapse_text.h"

#include "stacks/collapse_parallel.h"

#include <errno.h>
#include <string.h>

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
	ct->last_perf = NULL;
	ct->filter_told = false;
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

void collapse_text_end_notes(const struct collapse_text *ct, bool inline_,
			     struct strbuf *out)
{
	const struct collapse_perf *p = &ct->perf;
	const char *last_perf = ct->last_perf;
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

int collapse_text_read_input(struct collapse_text *ct, struct lines *lr,
			     enum stack_format fmt, struct strbuf *notes, struct diag *d)
{
	int rc = collapse_text_read(ct, lr, fmt);
	if (fmt == FMT_PERF_SCRIPT) {
		collapse_text_input_notes(ct, lr->name, notes);
		ct->last_perf = lr->name;
	}
	if (rc == -E2BIG)
		diag_set(d, "line %llu: longer than %u MiB",
			 (unsigned long long)lr->lineno + 1, LINES_MAX_LINE >> 20);
	else if (rc < 0)
		diag_set(d, "read error after line %llu: %s",
			 (unsigned long long)lr->lineno, strerror(-rc));
	return rc;
}

int collapse_text_read_parallel(struct collapse_text *ct, const char *path, int jobs,
				struct strbuf *notes, struct diag *d)
{
	int rc = collapse_parallel_file(&ct->perf, path, jobs, d);
	if (rc < 0)
		return rc;
	collapse_text_input_notes(ct, path, notes);
	ct->last_perf = path;
	return 0;
}

const char *collapse_text_filter_news(struct collapse_text *ct)
{
	if (!ct->perf.filtered_warned || ct->filter_told)
		return NULL;
	ct->filter_told = true;
	return ct->perf.filtered_event.buf;
}
