/*
 * export_speedscope: the speedscope format of `scorch export` (see
 * export_speedscope.h). Stage: command helpers. perf.data goes through
 * fold's collector, which fills the model beside the folded table;
 * perf script text is folded as `scorch fold --tid` folds it and enters
 * the model as a process frame (the thread) and text frames
 * (profile_add_thread_folded); folded
 * files as text frames (no threads). Text inputs keep no times.
 */
#include "cmd/export_speedscope.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/diag.h"
#include "base/fdio.h"
#include "base/strbuf.h"
#include "cmd/input.h"
#include "cmd/perfinput.h"
#include "stacks/collapse_perf.h"
#include "stacks/folded.h"

int export_speedscope_per(const char *arg, enum speedscope_per *per)
{
	if (!strcmp(arg, "thread"))
		*per = SPEEDSCOPE_PER_THREAD;
	else if (!strcmp(arg, "process"))
		*per = SPEEDSCOPE_PER_PROCESS;
	else if (!strcmp(arg, "none"))
		*per = SPEEDSCOPE_PER_NONE;
	else
		return -1;
	return 0;
}

struct ss_run {
	struct fold_perfdata_opts o;    /* fo, with model and info */
	struct profile model;
	struct stack_table t;           /* fold's table (unused here) */
	struct fold_perfdata_info info; /* of the first perf input */
	size_t perf_inputs, folded_inputs;
	const char *untimed;            /* first input without sample times */
};

static void model_add(void *ctx, const char *stack, size_t len, uint64_t count)
{
	profile_add_folded(ctx, stack, len, 1, count);
}

static int read_folded(struct ss_run *r, struct lines *lr, const char *name)
{
	return cmd_read_folded(lr, name, model_add, &r->model);
}

/* perf script text, folded as `scorch fold` folds it with the thread
 * in the process frame ("comm-PID/TID"), which becomes a process frame;
 * the other frames are text frames. */
static int read_script(struct ss_run *r, struct cmd_input *in)
{
	struct stack_table t = STACK_TABLE_INIT;
	struct fold_perfdata_info info = FOLD_PERFDATA_INFO_INIT;
	struct collapse_opts co = r->o.collapse;
	co.tid = true;
	int rc = fold_perf_script(&in->lr, &co, &t, &info);
	fold_perfdata_info_keep_first(&r->info, &info, !rc, &r->perf_inputs);
	for (size_t i = 0; !rc && i < stack_table_count(&t); i++) {
		size_t len;
		const char *k = stack_table_key(&t, i, &len);
		profile_add_thread_folded(&r->model, k, len, 1, stack_table_value(&t, i));
	}
	stack_table_release(&t);
	return rc;
}

static int read_perfdata(struct ss_run *r, struct cmd_input *in)
{
	struct fold_perfdata_info info = FOLD_PERFDATA_INFO_INIT;
	r->o.info = &info;
	int rc = fold_perfdata_input(in, &r->o, &r->t);
	if (info.untimed && !r->untimed)
		r->untimed = in->name;
	fold_perfdata_info_keep_first(&r->info, &info, !rc, &r->perf_inputs);
	return rc;
}

static int read_input(struct ss_run *r, const char *path)
{
	struct cmd_input in;
	if (cmd_input_open(&in, path))
		return 1;
	int rc;
	if (cmd_input_is_perfdata(&in)) {
		rc = read_perfdata(r, &in);
	} else {
		enum fold_input_kind kind = fold_input_kind(&in.lr);
		if (!r->untimed)
			r->untimed = in.name;
		if (kind == FOLD_INPUT_BINARY) {
			fold_input_binary_error(&in.lr, in.name, "export");
			rc = 1;
		} else if (kind == FOLD_INPUT_PERF_SCRIPT) {
			rc = read_script(r, &in);
		} else {
			r->folded_inputs++;
			rc = read_folded(r, &in.lr, in.name);
		}
	}
	cmd_input_close(&in);
	return rc;
}

/* Weights are nanoseconds for the cpu-clock and task-clock periods. */
static const char *unit_of(const struct ss_run *r)
{
	const struct fold_perfdata_info *in = &r->info;
	if (!r->perf_inputs || r->folded_inputs || !in->weighted || !in->event.len)
		return "none";
	return fold_perfdata_counts_ns(in) ? "nanoseconds" : "none";
}

static void file_name(char **inputs, int n, struct strbuf *name)
{
	if (n == 0)
		sb_adds(name, "<stdin>");
	for (int i = 0; i < n; i++) {
		if (i)
			sb_addc(name, ' ');
		sb_adds(name, strcmp(inputs[i], "-") ? inputs[i] : "<stdin>");
	}
}

int export_speedscope(char **inputs, int n, const struct fold_perfdata_opts *fo,
		      const char *output, enum speedscope_per per, bool timeline)
{
	struct ss_run r = { .o = *fo, .t = STACK_TABLE_INIT,
			    .info = FOLD_PERFDATA_INFO_INIT };
	profile_init(&r.model, timeline ? PROF_COL_TIME : 0);
	r.o.model = &r.model;
	int rc = n ? 0 : read_input(&r, NULL);
	for (int i = 0; i < n && !rc; i++)
		rc = read_input(&r, inputs[i]);
	if (!rc && timeline && r.untimed) {
		diag_error("%s: no sample times for --timeline (perf.data recorded "
			   "with times is needed; text inputs keep none)", r.untimed);
		rc = 1;
	}
	if (!rc) {
		struct strbuf name = SB_INIT, exporter = SB_INIT, out = SB_INIT;
		file_name(inputs, n, &name);
		sb_adds(&exporter, "scorch " SCORCH_VERSION);
		struct speedscope_opts so = { name.buf, exporter.buf, unit_of(&r), per,
					      timeline };
		struct prof_names nm;
		prof_names_init(&nm, &fo->collapse);
		speedscope_write(&r.model, &nm, &so, &out); /* times checked above */
		rc = cmd_write_output(output, out.buf, out.len);
		prof_names_release(&nm);
		sb_release(&name);
		sb_release(&exporter);
		sb_release(&out);
	}
	profile_release(&r.model);
	stack_table_release(&r.t);
	fold_perfdata_info_release(&r.info);
	return rc;
}
