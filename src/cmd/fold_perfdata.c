/*
 * fold_perfdata: the perf.data input of `scorch fold` (see
 * fold_perfdata.h). Stage: command. The session reads and resolves the
 * samples; this picks the samples and events perf script would show and
 * hands each to the profile collector (profile/collect.h), which folds
 * it from the frames' fields with the collapse_perf_* rules the text
 * path uses, so both paths fold identically.
 * Key invariant: what perf script would not show (filtered samples, an
 * event other than the first one met unless --event-filter) is skipped
 * exactly as stackcollapse-perf.pl skips it.
 */
#include "cmd/fold_perfdata.h"

#include <stdio.h>
#include <stdlib.h>
#include <stddef.h>
#include <string.h>

#include "base/diag.h"
#include "base/strbuf.h"
#include "cmd/symopts.h"
#include "perfdata/feature.h"
#include "process/session.h"
#include "profile/collect.h"
#include "profile/collect_loc.h"
#include "unwind/sample.h"

struct fold_ctx {
	const struct fold_perfdata_opts *o;
	struct prof_collector col; /* folds the samples kept into the table */
	struct prof_loc_collector loc; /* or keeps them whole (o->profile) */
	struct prof_filter filter;
	struct strbuf event;       /* the event kept (given or first seen) */
	bool event_set, event_defaulted, warned, info_set;
	uint64_t samples;
};

/* The event name perf script ends the header with, or NULL when the
 * header line does not end with "event:" (tracepoints print their
 * fields after it). Samples without a call chain (perf script prints
 * them on one line, which stackcollapse-perf.pl folds to nothing) are
 * folded here as "comm;symbol" weighted by their period, as if perf had
 * printed the sampled frame below the header. */
static const char *header_event(const struct proc_sample *ps)
{
	const struct pd_attr *a = ps->s->attr;
	if (!a || a->type == PD_TYPE_TRACEPOINT)
		return NULL;
	return prof_event_name(ps);
}

static bool keep_event(struct fold_ctx *c, const char *ev)
{
	if (!ev)
		return true;
	if (!c->event_set) {
		sb_adds(&c->event, ev);
		c->event_set = true;
		c->event_defaulted = true;
		return true;
	}
	if (strcmp(ev, c->event.buf) == 0)
		return true;
	if (c->event_defaulted && !c->warned) {
		diag_warn("Filtering for events of type: %s", c->event.buf);
		c->warned = true;
	}
	return false;
}

static void note_event(struct fold_perfdata_info *in, const struct proc_sample *ps,
		       bool weighted)
{
	sb_reset(&in->event);
	sb_adds(&in->event, prof_event_name(ps));
	in->weighted = weighted;
	in->have_attr = ps->s->attr != NULL;
	if (ps->s->attr) {
		in->type = ps->s->attr->type;
		in->config = ps->s->attr->config;
		in->freq = pd_attr_flag(ps->s->attr, PD_ATTR_FREQ);
		in->period = ps->s->attr->sample_period;
	}
}

/* What the sink's consumers need besides the samples: the recording's
 * host and its wall-clock reference (perf record -k writes CLOCK_DATA). */
static void note_host(struct fold_perfdata_info *in, const struct proc_session *ses)
{
	const struct pd_features *f = pd_reader_features(ses->reader);
	sb_reset(&in->hostname);
	if (f && f->state[PD_FEAT_HOSTNAME] == PD_FEAT_OK && f->hostname)
		sb_adds(&in->hostname, f->hostname);
	in->have_clock = f && f->state[PD_FEAT_CLOCK_DATA] == PD_FEAT_OK &&
			 f->clock_data_tod_ns;
	if (in->have_clock) {
		in->clock_tod_ns = f->clock_data_tod_ns;
		in->clock_ns = f->clock_data_clockid_ns;
	}
}

static void note_time(struct fold_perfdata_info *in, const struct pd_sample *s)
{
	if (!(s->sample_type & PD_SAMPLE_TIME))
		return;
	if (!in->have_times || s->time < in->first_time)
		in->first_time = s->time;
	in->have_times = true;
	if (s->time > in->last_time)
		in->last_time = s->time;
}

static void note_cmdline(struct fold_perfdata_info *in, const struct proc_session *ses)
{
	const struct pd_features *f = pd_reader_features(ses->reader);
	sb_reset(&in->cmdline);
	for (size_t i = 0; f && i < f->cmdline_nr; i++) {
		if (i)
			sb_addc(&in->cmdline, ' ');
		sb_adds(&in->cmdline, f->cmdline[i]);
	}
}

static int on_sample(void *ctx, struct proc_session *ses, const struct proc_sample *ps)
{
	struct fold_ctx *c = ctx;
	if (!prof_filter_keep(&c->filter, ps))
		return 0;
	const char *ev = header_event(ps);
	if (!keep_event(c, ev))
		return 0;
	uint64_t weight = 1;
	if (ev && ps->s->period)
		weight = ps->s->period; /* perf script prints the period */
	if (c->o->info && !c->info_set)
		note_event(c->o->info, ps, ev != NULL);
	c->info_set = true;
	bool added = c->o->profile ? prof_loc_collector_add(&c->loc, ses, ps, weight, ev)
		     : prof_collector_add(&c->col, ses, ps, weight, ev);
	if (!added)
		return 0;
	c->samples++;
	if (c->o->info)
		note_time(c->o->info, ps->s);
	if (c->o->sink && !c->o->profile)
		c->o->sink->fn(c->o->sink->ctx, c->col.last, weight, ps->s);
	if (c->o->on_row && !c->o->profile)
		c->o->on_row(c->o->row_ctx, c->col.last, ps, weight);
	return 0;
}

/* Fold r's samples (r is freed here); shown names the input. */
static int run(struct pd_reader *r, const char *shown,
	       const struct fold_perfdata_opts *o, struct stack_table *out)
{
	struct symopts so = { .buildid_dir = o->buildid_dir, .symfs = o->symfs,
			      .kallsyms = o->kallsyms, .vdso = o->vdso,
			      .vmlinux = o->vmlinux,
			      .jit_dir = o->jit_dir };
	struct sym_config cfg;
	if (symopts_config(&so, &cfg)) {
		pd_reader_free(r);
		return 1;
	}
	struct fold_ctx c;
	memset(&c, 0, sizeof(c));
	c.o = o;
	int bad = symopts_filter(&c.filter, o->time, o->cpu, o->comm, o->event);
	if (bad) {
		pd_reader_free(r);
		symopts_release(&so);
		return bad; /* 2: a usage error, as in script and report */
	}
	if (o->collapse.event_filter) {
		sb_adds(&c.event, o->collapse.event_filter);
		c.event_set = true;
	}
	struct proc_session ses;
	struct proc_session_opts sopts = PROC_SESSION_OPTS_INIT;
	sopts.lazy = true; /* frames on demand: the collector's */
	sopts.forget_exited = true; /* it keeps no thread past a sample */
	int rc = proc_session_attach(&ses, r, &cfg, &sopts);
	if (rc < 0) {
		diag_print(&ses.diag, shown);
		proc_session_close(&ses);
		symopts_release(&so);
		sb_release(&c.event);
		return 1;
	}
	prof_collector_init(&c.col, &o->collapse, out);
	if (o->model)
		prof_collector_model(&c.col, o->model);
	if (o->profile)
		prof_loc_collector_init(&c.loc, &o->collapse, o->profile);
	rc = symopts_run_unwound(&ses, o->no_inline ? UNW_INLINE_NONE
				 : c.col.copts.inline_ ? UNW_INLINE_ALL : UNW_INLINE_DWARF,
				 on_sample, &c, shown);
	bool all_dropped = symopts_report_run(&ses, rc, shown);
	if (rc >= 0)
		symopts_report_filter(&c.filter, shown);
	if (rc >= 0 && o->info) {
		note_cmdline(o->info, &ses);
		note_host(o->info, &ses);
		o->info->untimed += c.col.untimed;
	}
	if (all_dropped)
		rc = -1; /* every sample dropped: nothing was folded */
	if (rc >= 0 && o->on_name)
		prof_collector_each_name(&c.col, o->on_name, o->row_ctx);
	proc_session_close(&ses);
	symopts_release(&so);
	prof_collector_release(&c.col);
	if (o->profile)
		prof_loc_collector_release(&c.loc);
	sb_release(&c.event);
	return rc < 0 ? 1 : 0;
}

int fold_perfdata(const char *path, const struct fold_perfdata_opts *o,
		  struct stack_table *out)
{
	struct diag d = DIAG_INIT;
	struct pd_reader *r = pd_reader_open(path, &d);
	if (!r) {
		diag_print(&d, path);
		return 1;
	}
	return run(r, path, o, out);
}

int fold_perfdata_reader(struct pd_reader *r, const char *name,
			 const struct fold_perfdata_opts *o,
			 struct stack_table *out)
{
	return run(r, name, o, out);
}
