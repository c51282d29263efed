/*
 * scripttext: samples as perf script prints them (see scripttext.h).
 * Stage: render.
 */
#include "render/scripttext.h"

#include <string.h>

#include "perfdata/reader.h"
#include "profile/filter.h"
#include "symbols/dso.h"

/* "+0x%llx" of v (once per frame line). */
static void add_offset(struct strbuf *sb, uint64_t v)
{
	sb_add(sb, "+0x", 3);
	sb_add_hex(sb, v, 0);
}

/* Offset of the frame in its symbol, in the symbol's address space. */
static uint64_t sym_offset(const struct proc_frame *f)
{
	uint64_t a = f->addr;
	if (f->dso && f->dso->nsegs && f->map && !f->map->identity)
		a = sym_segments_to_vaddr(f->dso->segs, f->dso->nsegs, a);
	return a - f->sym->start;
}

/* " sym+0xoff (dso)\n" as perf prints it after the address. */
static void add_frame_text(struct strbuf *sb, const struct proc_frame *f)
{
	sb_addc(sb, ' ');
	if (f->inline_name) { /* an inlined-call row: "name+off (inlined)" */
		sb_adds(sb, f->inline_name);
		if (f->sym)
			add_offset(sb, sym_offset(f));
		sb_adds(sb, " (inlined)\n");
		return;
	}
	if (f->sym) {
		sb_adds(sb, f->sym->name);
		add_offset(sb, sym_offset(f));
	} else {
		sb_adds(sb, "[unknown]");
	}
	sb_adds(sb, " (");
	sb_adds(sb, f->dso ? f->dso->name : "[unknown]");
	sb_adds(sb, ")\n");
}

/* A chain line as perf prints it for a tracepoint read from a pipe. */
static void add_frame_short(struct strbuf *sb, const struct proc_frame *f)
{
	sb_addc(sb, '\t');
	sb_add_hex(sb, f->addr, 16);
	sb_addc(sb, ' ');
	if (f->inline_name)
		sb_adds(sb, f->inline_name);
	else
		sb_adds(sb, f->sym ? f->sym->name : "[unknown]");
	if (f->inline_name)
		sb_adds(sb, " (inlined)");
	sb_addc(sb, '\n');
}

static void add_frame(struct strbuf *sb, const struct proc_frame *f)
{
	sb_addc(sb, '\t');
	sb_add_hex(sb, f->addr, 16);
	add_frame_text(sb, f);
}

static int max_name_width(struct proc_session *ses)
{
	int w = 0;
	for (size_t i = 0; i < pd_reader_nr_attrs(ses->reader); i++) {
		int n = (int)strlen(pd_reader_attr(ses->reader, i)->name);
		if (n > w)
			w = n;
	}
	return w;
}

static void load_tracing(struct render_script *rs, struct proc_session *ses)
{
	rs->tp_loaded = true;
	size_t size;
	const uint8_t *data = pd_reader_tracing_data(ses->reader, &size);
	if (data)
		an_tp_load(&rs->tp, data, size, &rs->tp_diag);
}

static void add_trace(struct render_script *rs, struct proc_session *ses,
		      const struct pd_sample *s)
{
	if (!rs->tp_loaded)
		load_tracing(rs, ses);
	struct tep_event *ev = rs->tp.tep ? an_tp_event(&rs->tp, s->attr->config) : NULL;
	if (!ev || !s->raw)
		return;
	trace_seq_reset(&rs->seq);
	an_tp_print(&rs->tp, ev, s->raw, s->raw_size, s->time, (int)s->cpu, &rs->seq);
	sb_add(&rs->out, rs->seq.buffer, rs->seq.len);
}

static void add_uint(struct strbuf *sb, uint64_t v, int width)
{
	char buf[24];
	int n = 0;
	do {
		buf[sizeof(buf) - 1 - n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	for (int i = n; i < width; i++)
		sb_addc(sb, ' ');
	sb_add(sb, buf + sizeof(buf) - n, (size_t)n);
}

static void add_header(struct render_script *rs, struct proc_session *ses,
		       const struct proc_sample *ps, bool chain)
{
	const struct pd_sample *s = ps->s;
	struct strbuf *o = &rs->out;
	bool tp = s->attr && s->attr->type == PD_TYPE_TRACEPOINT;
	if (chain) {
		sb_adds(o, ps->thread->comm);
		sb_addc(o, ' ');
	} else {
		sb_addf(o, "%16s ", ps->thread->comm);
	}
	if ((int)s->tid < 0)
		sb_addf(o, "%5d ", (int)s->tid);
	else {
		add_uint(o, s->tid, 5);
		sb_addc(o, ' ');
	}
	if (s->sample_type & PD_SAMPLE_CPU)
		sb_addf(o, "[%03u] ", s->cpu);
	if (s->sample_type & PD_SAMPLE_TIME) {
		uint64_t us = s->time % 1000000000u / 1000u;
		add_uint(o, s->time / 1000000000u, 5);
		char frac[8];
		for (int i = 5; i >= 0; i--, us /= 10)
			frac[i] = (char)('0' + us % 10);
		sb_addc(o, '.');
		sb_add(o, frac, 6);
		sb_add(o, ": ", 2);
	}
	if (!tp) { /* perf prints the period (attr's when not sampled) */
		add_uint(o, s->period, 10);
		sb_addc(o, ' ');
	}
	if (!rs->name_width)
		rs->name_width = max_name_width(ses);
	const char *ev = prof_event_name(ps);
	for (int n = (int)strlen(ev); n < rs->name_width; n++)
		sb_addc(o, ' ');
	sb_adds(o, ev);
	sb_add(o, ": ", 2);
	if (tp)
		add_trace(rs, ses, s);
}

/* The frame lines of a call chain, from the cache when the same chain
 * of the same thread was printed since the last COMM/FORK/MMAP (the
 * chain cache fold uses, profile/chain.h). */
static void add_chain(struct render_script *rs, struct proc_session *ses,
		      const struct proc_sample *ps)
{
	struct proc_frame *frames;
	if (rs->blocks.len > (64u << 20)) {
		prof_chain_cache_clear(&rs->chains);
		sb_reset(&rs->blocks);
	}
	bool added;
	uint64_t *slot = prof_chain_cache_slot(&rs->chains, ses, ps, &added);
	if (!added) {
		uint32_t len;
		memcpy(&len, rs->blocks.buf + *slot, 4);
		sb_add(&rs->out, rs->blocks.buf + *slot + 4, len);
		return;
	}
	*slot = rs->blocks.len;
	size_t start = rs->out.len;
	size_t n = proc_session_frames(ses, ps, &frames);
	for (size_t i = 0; i < n; i++)
		add_frame(&rs->out, &frames[i]);
	uint32_t len = (uint32_t)(rs->out.len - start);
	sb_add(&rs->blocks, &len, 4);
	sb_add(&rs->blocks, rs->out.buf + start, len);
}

void render_script_init(struct render_script *rs)
{
	memset(rs, 0, sizeof(*rs));
	rs->tp_diag = (struct diag)DIAG_INIT;
	an_tp_init(&rs->tp);
	rs->tp.keep_print = true;
	trace_seq_init(&rs->seq);
	prof_chain_cache_init(&rs->chains, 1u << 20);
}

void render_script_release(struct render_script *rs)
{
	trace_seq_destroy(&rs->seq);
	an_tp_release(&rs->tp);
	sb_release(&rs->out);
	prof_chain_cache_release(&rs->chains);
	sb_release(&rs->blocks);
}

void render_script_sample(struct render_script *rs, struct proc_session *ses,
			  const struct proc_sample *ps)
{
	bool chain = (ps->s->sample_type & PD_SAMPLE_CALLCHAIN) != 0;
	add_header(rs, ses, ps, chain);
	if (chain && pd_reader_is_pipe(ses->reader) && ps->s->attr &&
	    ps->s->attr->type == PD_TYPE_TRACEPOINT) {
		struct proc_frame *frames;
		size_t n = proc_session_frames(ses, ps, &frames);
		sb_addc(&rs->out, '\n');
		for (size_t i = 0; i < n; i++)
			add_frame_short(&rs->out, &frames[i]);
		sb_addc(&rs->out, '\n');
	} else if (chain) {
		sb_addc(&rs->out, '\n');
		add_chain(rs, ses, ps);
		sb_addc(&rs->out, '\n');
	} else {
		/* perf prints the sample on one line, with the raw address */
		struct proc_frame *frames;
		size_t n = proc_session_frames(ses, ps, &frames);
		sb_addc(&rs->out, ' ');
		sb_add_hex(&rs->out, ps->s->ip, 16);
		if (n)
			add_frame_text(&rs->out, &frames[0]);
		else
			sb_addc(&rs->out, '\n');
	}
}
