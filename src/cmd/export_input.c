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
	r->info = (struct fold_perfdata_info)FOLD_PERFDATA_INFO_INIT;
}

void export_run_release(struct export_run *r)
{
	stack_table_release(&r->t);
	fold_perfdata_info_release(&r->info);
}

static int read_folded(struct export_run *r, struct lines *lr)
{
	const char *line;
	size_t len;
	int rc;
	while ((rc = lines_next(lr, &line, &len)) > 0) {
		struct stack_folded f;
		if (len == 0 || line[0] == '#' || stack_folded_parse(line, len, &f) < 0)
			continue; /* as flame: blank, comment, no count */
		if (f.count >= 1)
			stack_table_add(&r->t, f.stack, f.stack_len, (uint64_t)f.count);
	}
	if (rc < 0)
		diag_error("%s: line %llu: %s", lr->name, (unsigned long long)lr->lineno + 1,
			   rc == -E2BIG ? "line too long" : strerror(-rc));
	r->folded_inputs++;
	return rc < 0 ? 1 : 0;
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
		struct diag d = DIAG_INIT;
		struct pd_reader *rd = cmd_input_reader(in, &d);
		struct fold_perfdata_opts fo = r->o->fold;
		fo.info = &info;
		if (!rd) {
			diag_print(&d, in->name);
			rc = 1;
		} else {
			rc = fold_perfdata_reader(rd, in->name, &fo, &r->t);
		}
	}
	if (!rc && r->perf_inputs++ == 0) {
		fold_perfdata_info_release(&r->info);
		r->info = info;
	} else {
		fold_perfdata_info_release(&info);
	}
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
	} else {
		rc = read_perf(r, &in, kind);
	}
	cmd_input_close(&in);
	return rc;
}

/* The sample type: the period of a weighted event (nanoseconds of CPU
 * for cpu-clock and task-clock), else a sample count. */
static void meta_of(const struct export_run *r, struct pprof_meta *m)
{
	const struct fold_perfdata_info *in = &r->info;
	*m = (struct pprof_meta){ "samples", "count", NULL, NULL, 0, false };
	m->comm_label = r->perf_inputs > 0 && r->folded_inputs == 0;
	if (!r->perf_inputs || !in->weighted || !in->event.len)
		return;
	bool ns = in->have_attr ? in->type == 1 /* PERF_TYPE_SOFTWARE */ &&
		  (in->config == 0 || in->config == 1) /* cpu-, task-clock */
		: !strncmp(in->event.buf, "cpu-clock", 9) ||
		  !strncmp(in->event.buf, "task-clock", 10);
	m->type = ns ? "cpu" : in->event.buf;
	m->unit = ns ? "nanoseconds" : "count";
}

int export_pprof(struct export_run *r, const char *name, struct strbuf *out)
{
	struct pprof_meta m;
	meta_of(r, &m);
	struct strbuf pb = SB_INIT;
	pprof_from_table(&r->t, &m, &pb);
	int rc = pprof_gzip(pb.buf, pb.len, out);
	if (rc < 0)
		diag_error("%s: gzip compression failed", name);
	sb_release(&pb);
	return rc < 0 ? 1 : 0;
}
