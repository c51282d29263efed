/*
 * fold: the samples -> stacks stage for perf.data (see fold.h).
 * Stage: profile. The session reads and resolves the samples; this picks
 * the samples and events perf script would show and hands each to the
 * profile collector (profile/collect.h), which folds it from the frames'
 * fields with the collapse_perf_* rules the text path uses, so both
 * paths fold identically.
 */
#include "profile/fold.h"

#include <errno.h>
#include <string.h>

#include "perfdata/feature.h"

void fold_perfdata_info_release(struct fold_perfdata_info *in)
{
	sb_release(&in->event);
	sb_release(&in->cmdline);
	sb_release(&in->hostname);
}

void fold_perfdata_info_keep_first(struct fold_perfdata_info *kept,
				   struct fold_perfdata_info *in, bool ok, size_t *n)
{
	if (ok && (*n)++ == 0) {
		fold_perfdata_info_release(kept);
		*kept = *in;
	} else {
		fold_perfdata_info_release(in);
	}
}

/* cpu-clock and task-clock count nanoseconds (by attr, else by name) */
bool fold_perfdata_counts_ns(const struct fold_perfdata_info *in)
{
	if (in->have_attr)
		return in->type == 1 /* PERF_TYPE_SOFTWARE */ &&
		       (in->config == 0 || in->config == 1);
	return !strncmp(in->event.buf, "cpu-clock", 9) ||
	       !strncmp(in->event.buf, "task-clock", 10);
}

void fold_perfdata_labels(const struct fold_perfdata_info *in, const char *command,
			  const char **countname, double *factor,
			  struct strbuf *title)
{
	*countname = "samples";
	*factor = 1;
	if (in->weighted && fold_perfdata_counts_ns(in)) {
		*countname = "\xc2\xb5s"; /* µs */
		*factor = 0.001;
	} else if (in->weighted && in->event.len) {
		*countname = in->event.buf;
	}
	sb_reset(title);
	sb_adds(title, in->event.len ? in->event.buf : "Flame Graph");
	if (!command) {
		const char *dd = strstr(in->cmdline.buf, " -- ");
		command = dd ? dd + 4 : in->cmdline.buf;
	}
	if (*command) {
		sb_add(title, ": ", 2);
		sb_adds(title, command);
	}
}

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

static bool keep_event(struct prof_fold *c, const char *ev)
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
	if (c->event_defaulted && !c->other_event) {
		c->other_event = true;
		if (c->on_other_event) /* the caller says so, as perf script does */
			c->on_other_event(c->event.buf);
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

int prof_fold_sample(void *ctx, struct proc_session *ses, const struct proc_sample *ps)
{
	struct prof_fold *c = ctx;
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

int prof_fold_init(struct prof_fold *f, const struct fold_perfdata_opts *o,
		   struct stack_table *out, struct diag *d)
{
	memset(f, 0, sizeof(*f));
	f->o = o;
	if (prof_filter_init(&f->filter, o->time, o->cpu, o->comm, o->event, d) < 0)
		return -EINVAL;
	sb_init(&f->event);
	if (o->collapse.event_filter) {
		sb_adds(&f->event, o->collapse.event_filter);
		f->event_set = true;
	}
	prof_collector_init(&f->col, &o->collapse, out);
	if (o->on_name) /* the explorer shows where functions are defined */
		prof_collector_sources(&f->col);
	if (o->model)
		prof_collector_model(&f->col, o->model);
	if (o->profile)
		prof_loc_collector_init(&f->loc, &o->collapse, o->profile);
	return 0;
}

enum unw_inline prof_fold_inline_mode(const struct prof_fold *f)
{
	return f->o->no_inline ? UNW_INLINE_NONE
	       : f->col.copts.inline_ ? UNW_INLINE_ALL : UNW_INLINE_DWARF;
}

void prof_fold_finish(struct prof_fold *f, const struct proc_session *ses)
{
	const struct fold_perfdata_opts *o = f->o;
	if (o->info) {
		note_cmdline(o->info, ses);
		note_host(o->info, ses);
		o->info->untimed += f->col.untimed;
	}
}

void prof_fold_names(struct prof_fold *f)
{
	if (f->o->on_name)
		prof_collector_each_name(&f->col, f->o->on_name, f->o->row_ctx);
}

void prof_fold_release(struct prof_fold *f)
{
	prof_collector_release(&f->col);
	if (f->o->profile)
		prof_loc_collector_release(&f->loc);
	sb_release(&f->event);
}
