/*
 * view: `scorch view [-o FILE] [INPUT...]` and `scorch view --diff
 * BEFORE AFTER`: the stacks `scorch fold` makes of perf.data, perf
 * script text or folded files, written as one self-contained HTML
 * explorer (render/view_html.h). Stage: command.
 * Key invariant: the output file appears whole or not at all (the page
 * is built in memory, written to a temporary file beside it, renamed:
 * cmd/viewpage.h).
 */
#include "cmd/cmd.h"
SCORCH_COMMAND(view, "write stacks as a single-file HTML explorer")

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/diag.h"
#include "base/lines.h"
#include "base/opt.h"
#include "base/strbuf.h"
#include "cmd/fold_perfdata.h"
#include "cmd/input.h"
#include "cmd/namingopts.h"
#include "cmd/perfinput.h"
#include "cmd/symopts.h"
#include "cmd/viewpage.h"
#include "render/palette.h"
#include "stacks/folded.h"
#include "stacks/table.h"

enum { O_OUTPUT = 1, O_DIFF, O_TITLE, O_COLORS };

static const struct opt_spec opts[] = {
	{ "output", 'o', OPT_REQ, "FILE", "write FILE (default, or -: standard output)", O_OUTPUT },
	{ "diff", 0, OPT_NONE, NULL, "two inputs, BEFORE and AFTER: a differential explorer", O_DIFF },
	{ "title", 0, OPT_REQ, "TEXT", "page title (default: the event and command, or \"scorch view\")", O_TITLE },
	{ "colors", 0, OPT_REQ, "PALETTE", "frame colours as scorch flame's --colors (default hot)", O_COLORS },
	NAMING_SPECS,
	SYMOPTS_SPECS,
	OPT_END_SPEC
};

static const struct opt_cmd view_cmd = {
	"view", "scorch view [-o FILE] [INPUT...] | scorch view --diff [-o FILE] BEFORE AFTER",
	"Write the stacks of perf.data, perf script text or folded INPUTs "
	"(default: standard input; several are merged) as one HTML file that "
	"explores them offline: flame graph, icicle, top functions, sandwich, "
	"regex search. --diff compares two profiles. The naming options are "
	"scorch fold's (for perf.data and perf script text).",
	opts, true,
};

struct view_run {
	struct fold_perfdata_opts fo;   /* symbol options for perf.data */
	struct view_data v;             /* gets the sample rows of perf.data */
	struct stack_table t[2];        /* the profile; with --diff: before, after */
	struct fold_perfdata_info info; /* of the first perf input */
	size_t perf_inputs;
	struct strbuf title;
};


static void table_add(void *ctx, const char *stack, size_t len, uint64_t count)
{
	stack_table_add(ctx, stack, len, count);
}

static int read_folded(struct stack_table *t, struct lines *lr, const char *name)
{
	return cmd_read_folded(lr, name, table_add, t);
}

static int read_perf(struct view_run *r, struct stack_table *t, struct lines *lr,
		     const char *path, enum fold_input_kind kind)
{
	struct fold_perfdata_info in = FOLD_PERFDATA_INFO_INIT;
	int rc;
	r->fo.info = &in;
	if (kind == FOLD_INPUT_PERF_DATA) /* a file or a pipe */
		rc = fold_perf_data(lr, path, &r->fo, t);
	else if (kind == FOLD_INPUT_PERF_SCRIPT) /* named as fold names it */
		rc = fold_perf_script(lr, &r->fo.collapse, t, &in);
	else /* pprof */
		rc = fold_perf_input(lr, path ? path : "-", kind, t, &in, NULL);
	r->fo.info = NULL;
	fold_perfdata_info_keep_first(&r->info, &in, !rc, &r->perf_inputs);
	return rc;
}

static int read_input(struct view_run *r, struct stack_table *t, const char *path)
{
	struct lines lr;
	const char *name = path && strcmp(path, "-") ? path : "<stdin>";
	int rc = lines_open(&lr, path);
	if (rc < 0) {
		diag_error("%s: %s", name, strerror(-rc));
		return 1;
	}
	enum fold_input_kind kind = fold_input_kind(&lr);
	if (kind == FOLD_INPUT_BINARY) {
		fold_input_binary_error(&lr, name, "view");
		rc = 1;
	} else if (kind == FOLD_INPUT_FOLDED) {
		rc = read_folded(t, &lr, name);
	} else {
		rc = read_perf(r, t, &lr, path, kind);
	}
	lines_close(&lr);
	if (!rc && stack_table_count(t) == 0)
		diag_warn("%s: no stack counts found", name);
	return rc;
}

static int write_page(struct view_run *r, bool diff, const char *title,
		      const char *output)
{
	struct view_page pg = { title, "samples", 1 };
	if (r->perf_inputs) {
		fold_perfdata_labels(&r->info, NULL, &pg.unit, &pg.factor, &r->title);
		if (!title && !diff)
			pg.title = r->title.buf;
	}
	if (!pg.title)
		pg.title = diff ? "scorch view: differential" : "scorch view";
	const struct stack_table *cols[2] = { &r->t[0], &r->t[1] };
	return viewpage_write(&r->v, cols, &pg, output);
}

int cmd_view(int argc, char **argv)
{
	const char *output = NULL, *title = NULL, *colors = "hot", *arg;
	bool diff = false;
	struct opt_state st = OPT_STATE_INIT;
	int id;
	struct symopts so;
	memset(&so, 0, sizeof(so));
	struct view_run r = { .fo = FOLD_PERFDATA_OPTS_INIT,
			      .t = { STACK_TABLE_INIT, STACK_TABLE_INIT },
			      .info = FOLD_PERFDATA_INFO_INIT, .title = SB_INIT };
	while ((id = opt_next(&st, argc, argv, &view_cmd, &arg)) > 0) {
		switch (id) {
		case O_OUTPUT: output = arg; break;
		case O_DIFF: diff = true; break;
		case O_TITLE: title = arg; break;
		case O_COLORS: colors = arg; break;
		default:
			if (!namingopts_option(&r.fo, id, arg))
				symopts_option(&so, id, arg);
			break;
		}
	}
	symopts_to_fold(&so, &r.fo);
	collapse_opts_finish(&r.fo.collapse);
	if (id == OPT_HELP)
		return 0;
	if (id < 0)
		return 2;
	if (diff && argc - st.ind != 2)
		return opt_usage_error(&view_cmd, "--diff takes two inputs, BEFORE and AFTER");
	view_data_init(&r.v, diff ? 2 : 1);
	if (render_palette_parse(colors, &r.v.palette) < 0)
		return opt_usage_error(&view_cmd, "unknown palette '%s' (known: %s)", colors,
				       render_palette_names);
	viewpage_collect(&r.fo, &r.v, !diff); /* a diff has no sample rows */
	int rc = 0;
	if (diff) {
		rc = read_input(&r, &r.t[0], argv[st.ind]);
		if (!rc)
			rc = read_input(&r, &r.t[1], argv[st.ind + 1]);
	} else if (st.ind >= argc) {
		rc = read_input(&r, &r.t[0], NULL);
	}
	for (int i = st.ind; i < argc && !rc && !diff; i++)
		rc = read_input(&r, &r.t[0], argv[i]);
	if (!rc)
		rc = write_page(&r, diff, title, output);
	view_data_release(&r.v);
	stack_table_release(&r.t[0]);
	stack_table_release(&r.t[1]);
	fold_perfdata_info_release(&r.info);
	sb_release(&r.title);
	return rc;
}
