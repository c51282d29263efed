/*
 * script: `perf script` for sampled events, default fields, byte for
 * byte: "comm tid [cpu] time: period event: " (tracepoints: their fields
 * as libtraceevent formats them), then one line per call chain entry,
 * "\t%16x sym+0xoff (dso)", and a blank line. Tools that read perf
 * script text can be fed by scorch.
 * Stage: command. Key invariant: fields appear exactly when perf 6.1
 * prints them by default (cpu only with PERF_SAMPLE_CPU, period only
 * with PERF_SAMPLE_PERIOD and not for tracepoints). In pipe mode perf
 * 6.1 sets up a tracepoint's chain fields as the attr arrives, with ip
 * and sym only: "\t%16x sym" (no offset, no object).
 */
#include "cmd/cmd.h"
SCORCH_COMMAND(script, "print the samples of a perf.data file as perf script does")

#include <errno.h>
#include <event-parse.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/tracepoint.h"
#include "base/diag.h"
#include "base/opt.h"
#include "base/strbuf.h"
#include "cmd/symopts.h"
#include "unwind/sample.h"
#include "process/session.h"
#include "profile/chain.h"
#include "unwind/sample.h"

enum { O_INPUT = 1 };

static const struct opt_spec opts[] = {
	{ "input", 'i', OPT_REQ, "FILE", "perf.data file to read (default perf.data; - for stdin)", O_INPUT },
	SYMOPTS_SPECS,
	OPT_END_SPEC
};

static const struct opt_cmd script_cmd = {
	"script", "scorch script [options] [FILE]",
	"Print the samples of FILE (default perf.data) as `perf script` prints them.",
	opts, false,
};

struct script {
	struct prof_filter filter;
	struct strbuf out;
	int name_width;
	bool tp_loaded;
	struct an_tp tp;
	struct trace_seq seq;
	int write_err;         /* errno of a failed write, or 0 */
	struct prof_chain_cache chains; /* chain -> offset of its frame lines in blocks */
	struct strbuf blocks;  /* u32 length + frame lines, back to back */
};

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

static void load_tracing(struct script *sc, struct proc_session *ses)
{
	sc->tp_loaded = true;
	size_t size;
	const uint8_t *data = pd_reader_tracing_data(ses->reader, &size);
	struct diag d = DIAG_INIT;
	if (data && an_tp_load(&sc->tp, data, size, &d) < 0)
		diag_warn("tracing data unreadable: %s", d.msg);
}

static void add_trace(struct script *sc, struct proc_session *ses,
		      const struct pd_sample *s)
{
	if (!sc->tp_loaded)
		load_tracing(sc, ses);
	struct tep_event *ev = sc->tp.tep ? an_tp_event(&sc->tp, s->attr->config) : NULL;
	if (!ev || !s->raw)
		return;
	trace_seq_reset(&sc->seq);
	an_tp_print(&sc->tp, ev, s->raw, s->raw_size, s->time, (int)s->cpu, &sc->seq);
	sb_add(&sc->out, sc->seq.buffer, sc->seq.len);
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

static void add_header(struct script *sc, struct proc_session *ses,
		       const struct proc_sample *ps, bool chain)
{
	const struct pd_sample *s = ps->s;
	struct strbuf *o = &sc->out;
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
	if (!sc->name_width)
		sc->name_width = max_name_width(ses);
	const char *ev = prof_event_name(ps);
	for (int n = (int)strlen(ev); n < sc->name_width; n++)
		sb_addc(o, ' ');
	sb_adds(o, ev);
	sb_add(o, ": ", 2);
	if (tp)
		add_trace(sc, ses, s);
}

static int flush_out(struct script *sc)
{
	if (sb_flush(&sc->out, stdout) != 0) {
		sc->write_err = errno;
		return 1;
	}
	return 0;
}

/* The frame lines of a call chain, from the cache when the same chain
 * of the same thread was printed since the last COMM/FORK/MMAP (the
 * chain cache fold uses, profile/chain.h). */
static void add_chain(struct script *sc, struct proc_session *ses,
		      const struct proc_sample *ps)
{
	struct proc_frame *frames;
	if (sc->blocks.len > (64u << 20)) {
		prof_chain_cache_clear(&sc->chains);
		sb_reset(&sc->blocks);
	}
	bool added;
	uint64_t *slot = prof_chain_cache_slot(&sc->chains, ses, ps, &added);
	if (!added) {
		uint32_t len;
		memcpy(&len, sc->blocks.buf + *slot, 4);
		sb_add(&sc->out, sc->blocks.buf + *slot + 4, len);
		return;
	}
	*slot = sc->blocks.len;
	size_t start = sc->out.len;
	size_t n = proc_session_frames(ses, ps, &frames);
	for (size_t i = 0; i < n; i++)
		add_frame(&sc->out, &frames[i]);
	uint32_t len = (uint32_t)(sc->out.len - start);
	sb_add(&sc->blocks, &len, 4);
	sb_add(&sc->blocks, sc->out.buf + start, len);
}

static int on_sample(void *ctx, struct proc_session *ses, const struct proc_sample *ps)
{
	struct script *sc = ctx;
	if (!prof_filter_keep(&sc->filter, ps))
		return 0;
	bool chain = (ps->s->sample_type & PD_SAMPLE_CALLCHAIN) != 0;
	add_header(sc, ses, ps, chain);
	if (chain && pd_reader_is_pipe(ses->reader) && ps->s->attr &&
	    ps->s->attr->type == PD_TYPE_TRACEPOINT) {
		struct proc_frame *frames;
		size_t n = proc_session_frames(ses, ps, &frames);
		sb_addc(&sc->out, '\n');
		for (size_t i = 0; i < n; i++)
			add_frame_short(&sc->out, &frames[i]);
		sb_addc(&sc->out, '\n');
	} else if (chain) {
		sb_addc(&sc->out, '\n');
		add_chain(sc, ses, ps);
		sb_addc(&sc->out, '\n');
	} else {
		/* perf prints the sample on one line, with the raw address */
		struct proc_frame *frames;
		size_t n = proc_session_frames(ses, ps, &frames);
		sb_addc(&sc->out, ' ');
		sb_add_hex(&sc->out, ps->s->ip, 16);
		if (n)
			add_frame_text(&sc->out, &frames[0]);
		else
			sb_addc(&sc->out, '\n');
	}
	if (sc->out.len > (1u << 20))
		return flush_out(sc);
	return 0;
}

int cmd_script(int argc, char **argv)
{
	struct symopts so;
	memset(&so, 0, sizeof(so));
	const char *input = NULL;
	struct opt_state st = OPT_STATE_INIT;
	const char *arg;
	int id;
	while ((id = opt_next(&st, argc, argv, &script_cmd, &arg)) > 0) {
		switch (id) {
		case O_INPUT: input = arg; break;
		default: symopts_option(&so, id, arg); break;
		}
	}
	if (id == OPT_HELP)
		return 0;
	if (id < 0)
		return 2;
	if (symopts_operand(&st, argc, argv, &script_cmd, &input))
		return 2;
	struct script sc;
	memset(&sc, 0, sizeof(sc));
	if (symopts_filter(&sc.filter, so.time, so.cpu, so.comm, so.event))
		return 2;
	struct sym_config cfg;
	if (symopts_config(&so, &cfg))
		return 1;
	an_tp_init(&sc.tp);
	sc.tp.keep_print = true;
	trace_seq_init(&sc.seq);
	prof_chain_cache_init(&sc.chains, 1u << 20);
	struct proc_session ses;
	struct proc_session_opts sopts = PROC_SESSION_OPTS_INIT;
	sopts.lazy = true; /* frames on demand: see add_chain */
	int rc = proc_session_open(&ses, input, &cfg, &sopts);
	if (rc == 0) {
		rc = symopts_run_unwound(&ses, UNW_INLINE_DWARF, on_sample, &sc, input);
		if (rc == 0)
			flush_out(&sc);
		bool all_dropped = symopts_report_run(&ses, rc, input);
		if (rc >= 0)
			symopts_report_filter(&sc.filter, input);
		if (all_dropped)
			rc = 1; /* every sample dropped */
	} else {
		diag_print(&ses.diag, input);
	}
	proc_session_close(&ses);
	trace_seq_destroy(&sc.seq);
	an_tp_release(&sc.tp);
	sb_release(&sc.out);
	prof_chain_cache_release(&sc.chains);
	sb_release(&sc.blocks);
	symopts_release(&so);
	if (sc.write_err) {
		diag_write_error(NULL, sc.write_err);
		return 1;
	}
	return rc ? 1 : 0;
}
