/*
 * export_input: read the inputs of `scorch export` (see export_input.h).
 * Stage: command helpers. Key invariant: an input is opened once and
 * read as what its first bytes say (cmd/input.h), so a pipe reads as
 * the same bytes in a file do.
 */
#include "cmd/export_input.h"

#include <errno.h>
#include <string.h>

#include "base/diag.h"
#include "base/lines.h"
#include "cmd/input.h"
#include "cmd/perfinput.h"
#include "render/pprof.h"
#include "stacks/folded.h"

void export_run_init(struct export_run *r, const struct export_opts *o)
{
	memset(r, 0, sizeof(*r));
	r->o = o;
	stack_table_init(&r->t);
	profile_init(&r->prof, o->cpu_label ? PROF_COL_CPU : 0);
	r->info = (struct fold_perfdata_info)FOLD_PERFDATA_INFO_INIT;
}

void export_run_release(struct export_run *r)
{
	stack_table_release(&r->t);
	profile_release(&r->prof);
	fold_perfdata_info_release(&r->info);
}

static void table_add(void *ctx, const char *stack, size_t len, uint64_t count)
{
	stack_table_add(ctx, stack, len, count);
}

static int read_folded(struct export_run *r, struct lines *lr)
{
	r->folded_inputs++;
	return cmd_read_folded(lr, lr->name, table_add, &r->t);
}

/* perf.data or perf script text; its event kept when it is the first. */
static int read_perf(struct export_run *r, struct cmd_input *in,
		     enum fold_input_kind kind)
{
	struct fold_perfdata_info info = FOLD_PERFDATA_INFO_INIT;
	int rc;
	if (kind == FOLD_INPUT_PERF_SCRIPT) {
		rc = fold_perf_script(&in->lr, &r->o->fold.collapse, &r->t, &info);
	} else {
		struct fold_perfdata_opts fo = r->o->fold;
		fo.info = &info;
		fo.profile = &r->prof;
		r->data_inputs++;
		rc = fold_perfdata_input(in, &fo, &r->t);
	}
	fold_perfdata_info_keep_first(&r->info, &info, !rc, &r->perf_inputs);
	return rc;
}

int export_read(struct export_run *r, const char *path)
{
	struct cmd_input in;
	if (cmd_input_open(&in, path))
		return 1;
	int rc;
	enum fold_input_kind kind = cmd_input_is_perfdata(&in) ? FOLD_INPUT_PERF_DATA
				    : fold_input_kind(&in.lr);
	if (kind == FOLD_INPUT_BINARY) {
		fold_input_binary_error(&in.lr, in.name, "export");
		rc = 1;
	} else if (kind == FOLD_INPUT_FOLDED) {
		rc = read_folded(r, &in.lr);
	} else if (kind == FOLD_INPUT_PPROF) {
		rc = fold_pprof(&in.lr, NULL, &r->t);
		r->folded_inputs++;
	} else {
		rc = read_perf(r, &in, kind);
	}
	cmd_input_close(&in);
	return rc;
}

/* Times of perf.data samples: the span of the kept samples, and their
 * start as wall-clock time when the recording has CLOCK_DATA. */
static void times_of(const struct fold_perfdata_info *in, struct pprof_meta *m)
{
	if (!in->have_times)
		return;
	m->duration_nanos = in->last_time - in->first_time;
	if (in->have_clock && in->first_time >= in->clock_ns)
		m->time_nanos = in->clock_tod_ns + (in->first_time - in->clock_ns);
	else if (in->have_clock && in->clock_ns - in->first_time < in->clock_tod_ns)
		m->time_nanos = in->clock_tod_ns - (in->clock_ns - in->first_time);
}

/* The sample types: the sample count and, for a weighted event, its
 * periods (cpu nanoseconds for cpu-clock and task-clock, else named for
 * the event); text inputs keep one value, what their counts are. */
static void meta_of(const struct export_run *r, struct pprof_meta *m)
{
	const struct fold_perfdata_info *in = &r->info;
	memset(m, 0, sizeof(*m));
	m->type[0] = "samples";
	m->unit[0] = "count";
	m->ntypes = 1;
	m->comm_label = r->perf_inputs > 0 && r->folded_inputs == 0;
	m->comm_ids = r->o->fold.collapse.pid || r->o->fold.collapse.tid;
	m->cpu_label = r->o->cpu_label;
	if (!r->perf_inputs || !in->weighted || !in->event.len)
		return;
	bool ns = fold_perfdata_counts_ns(in);
	size_t at = r->data_inputs ? 1 : 0; /* text: the one value */
	m->ntypes = at + 1;
	m->type[at] = ns ? "cpu" : in->event.buf;
	m->unit[at] = ns ? "nanoseconds" : "count";
	if (!r->data_inputs)
		return;
	m->period_type = m->type[1];
	m->period_unit = m->unit[1];
	if (!in->freq)
		m->period = in->period;
	else if (ns && in->period)
		m->period = 1000000000u / in->period;
	else if (r->prof.samples)
		m->period = r->prof.weight / r->prof.samples; /* the mean */
	times_of(in, m);
}

/* The text inputs' stacks join the profile as TEXT frames (with
 * --cpu-label, as rows of no cpu: the samples written are the rows). */
static void add_table(struct export_run *r)
{
	struct prof_sample none = { 0, -1, -1, UINT32_MAX };
	for (size_t i = 0; i < stack_table_count(&r->t); i++) {
		size_t len;
		const char *k = stack_table_key(&r->t, i, &len);
		uint64_t v = stack_table_value(&r->t, i);
		if (r->o->cpu_label)
			profile_sample(&r->prof, profile_add_folded(&r->prof, k, len, 0, 0),
				       v, &none);
		else
			profile_add_folded(&r->prof, k, len, v, v);
	}
}

int export_pprof(struct export_run *r, const char *name, struct strbuf *out)
{
	struct pprof_meta m;
	meta_of(r, &m);
	add_table(r);
	struct prof_names nm;
	prof_names_init(&nm, &r->o->fold.collapse);
	struct strbuf pb = SB_INIT;
	pprof_from_profile(&r->prof, &nm, &m, &pb);
	prof_names_release(&nm);
	int rc = pprof_gzip(pb.buf, pb.len, out);
	if (rc < 0)
		diag_error("%s: gzip compression failed", name);
	sb_release(&pb);
	return rc < 0 ? 1 : 0;
}
