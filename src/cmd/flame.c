/*
 * flame: folded stacks in, SVG flame graph out (drop-in for
 * flamegraph.pl). Stage: command. Reads each input line by line and
 * merges it into the call tree at once (memory grows with distinct
 * stacks, not input size); malformed lines are skipped and reported once
 * with a count; empty input gives the "No samples" SVG and exit 2.
 * perf.data and perf script text are folded first (fold_perf_input),
 * and then the counts are labelled by their event
 * (render_flame_opts_perf_labels) unless options say otherwise. The
 * flame graph's option values are render/flame's (render_flame_opts_set),
 * the reading of folded text is render/tree's, the --nameattr and
 * --palette files are render/flame_files'.
 */
#include "cmd/cmd.h"
SCORCH_COMMAND(flame, "draw folded stacks as an interactive SVG flame graph")

#include "cmd/perfinput.h"
#include "base/diag.h"
#include "base/lines.h"
#include "base/opt.h"
#include "render/flame.h"
#include "stacks/folded.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
	O_TITLE = 1, O_SUBTITLE, O_WIDTH, O_HEIGHT, O_MINWIDTH, O_FONTTYPE,
	O_FONTSIZE, O_FONTWIDTH, O_COUNTNAME, O_NAMETYPE, O_NAMEATTR, O_FACTOR,
	O_COLORS, O_BGCOLORS, O_HASH, O_RANDOM, O_DETERMINISTIC, O_CP, O_PALETTE,
	O_REVERSE, O_INVERTED, O_FLAMECHART, O_NEGATE, O_NOTES, O_TOTAL,
	O_SEARCH_COLOR, O_TRUNC_RIGHT, O_TRUNC_LEFT, O_ENCODING, O_SAMPLE_TYPE,
};

static const struct opt_spec flame_opts[] = {
	{ "title", 0, OPT_REQ, "TEXT", "title text (default \"Flame Graph\")", O_TITLE },
	{ "subtitle", 0, OPT_REQ, "TEXT", "second line of title", O_SUBTITLE },
	{ "width", 0, OPT_REQ, "PX", "image width (default 1200)", O_WIDTH },
	{ "height", 0, OPT_REQ, "PX", "height of each frame (default 16)", O_HEIGHT },
	{ "minwidth", 0, OPT_REQ, "PX[%]", "merge frames narrower than PX pixels or PX% of the total (default 0.1)", O_MINWIDTH },
	{ "fonttype", 0, OPT_REQ, "FONT", "font family (default Verdana)", O_FONTTYPE },
	{ "fontsize", 0, OPT_REQ, "PX", "font size (default 12)", O_FONTSIZE },
	{ "fontwidth", 0, OPT_REQ, "RATIO", "average character width / font size (default 0.59)", O_FONTWIDTH },
	{ "countname", 0, OPT_REQ, "NAME", "count type label (default \"samples\")", O_COUNTNAME },
	{ "nametype", 0, OPT_REQ, "NAME", "name type label (default \"Function:\")", O_NAMETYPE },
	{ "nameattr", 0, OPT_REQ, "FILE", "file of per-function SVG attributes", O_NAMEATTR },
	{ "factor", 0, OPT_REQ, "NUM", "factor to scale counts by in tooltips", O_FACTOR },
	{ "colors", 0, OPT_REQ, "PALETTE", "colour palette: hot (default), mem, io, wakeup, chain, java, js, perl, python, rust, red, green, blue, aqua, yellow, purple, orange", O_COLORS },
	{ "bgcolors", 0, OPT_REQ, "COLOR", "background: yellow, blue, green, grey or #rrggbb", O_BGCOLORS },
	{ "hash", 0, OPT_NONE, NULL, "colours from flamegraph.pl's name hash", O_HASH },
	{ "random", 0, OPT_NONE, NULL, "random colours (not reproducible)", O_RANDOM },
	{ "deterministic", 0, OPT_NONE, NULL, NULL, O_DETERMINISTIC },
	{ "cp", 0, OPT_NONE, NULL, "consistent colours through ./palette.map", O_CP },
	{ "palette", 0, OPT_REQ, "FILE", "consistent colours through FILE (like --cp)", O_PALETTE },
	{ "reverse", 0, OPT_NONE, NULL, "reverse stacks: merge from the leaf", O_REVERSE },
	{ "inverted", 0, OPT_NONE, NULL, "icicle graph: root at the top", O_INVERTED },
	{ "flamechart", 0, OPT_NONE, NULL, "flame chart: keep input (time) order, no merging across lines", O_FLAMECHART },
	{ "negate", 0, OPT_NONE, NULL, "differential: swap red and blue", O_NEGATE },
	{ "notes", 0, OPT_REQ, "TEXT", "notes stored in the SVG", O_NOTES },
	{ "total", 0, OPT_REQ, "NUM", "widths relative to NUM when above the input total", O_TOTAL },
	{ "search-color", 0, OPT_REQ, "COLOR", "colour of search matches (default rgb(230,0,230))", O_SEARCH_COLOR },
	{ "truncate-text-right", 0, OPT_NONE, NULL, "labels that do not fit keep their start: \"name..\" (default)", O_TRUNC_RIGHT },
	{ "truncate-text-left", 0, OPT_NONE, NULL, "labels that do not fit keep their end: \"..name\"", O_TRUNC_LEFT },
	{ "encoding", 0, OPT_REQ, "ENC", "encoding named in the XML declaration", O_ENCODING },
	{ "sample-type", 0, OPT_REQ, "NAME", "pprof input: the sample type to draw (default: the profile's)", O_SAMPLE_TYPE },
	OPT_END_SPEC
};

static const struct opt_cmd flame_cmd = {
	"flame", "scorch flame [options] [FILE...] > graph.svg",
	"Draw folded stacks as an interactive SVG flame graph (flamegraph.pl).\n"
	"Input: \"a;b;c 42\" lines; stdin when no FILE; several files are merged.\n"
	"Two count columns (\"a;b 10 14\") draw a differential graph.",
	flame_opts, true,
};

struct flame_run {
	struct render_flame_opts o;
	struct render_tree tree;
	struct render_flame_files files; /* --nameattr, --cp, --palette */
	bool reverse;
	struct stack_folded_bad bad; /* lines without a count */
	const char *only_input;   /* named when nothing is drawn; NULL: several */
	bool title_set, countname_set, factor_set;
	size_t perf_inputs;       /* perf.data or perf script inputs folded */
	const char *sample_type;  /* --sample-type */
	struct fold_perfdata_info info;  /* of the first of them */
	struct strbuf title;      /* the title made from info */
};

/* The options that are not the flame graph's own (render_flame_opts_set). */
static void set_other(struct flame_run *r, int id, const char *arg)
{
	switch (id) {
	case O_NAMEATTR: r->files.nameattr_path = arg; break;
	case O_CP: r->files.palette_path = "palette.map"; break;
	case O_PALETTE: r->files.palette_path = arg; break;
	case O_REVERSE: r->reverse = true; break;
	case O_SAMPLE_TYPE: r->sample_type = arg; break;
	}
}

/* Returns 0 or the exit status of a usage error. */
static int set_option(struct flame_run *r, int id, const char *arg)
{
	r->title_set |= id == O_TITLE;
	r->countname_set |= id == O_COUNTNAME;
	r->factor_set |= id == O_FACTOR;
	int bad = render_flame_opts_set(&r->o, flame_opts[id - 1].name, arg);
	if (bad == 1) {
		set_other(r, id, arg);
		bad = 0;
	}
	if (bad && id == O_COLORS)
		return opt_usage_error(&flame_cmd, "unknown palette '%s' (known: %s)",
				       arg, render_palette_names);
	if (bad)
		return opt_usage_error(&flame_cmd, "invalid value '%s' for --%s", arg,
				       flame_opts[id - 1].name);
	return 0;
}

/* perf.data or perf script text: fold it, then draw its stacks. */
static int read_perf(struct flame_run *r, struct lines *lr, const char *path,
		     enum fold_input_kind kind)
{
	struct stack_table t;
	struct fold_perfdata_info info = FOLD_PERFDATA_INFO_INIT;
	stack_table_init(&t);
	int rc = fold_perf_input(lr, path ? path : "-", kind, &t, &info,
				 r->sample_type);
	if (!rc)
		render_tree_add_table(&r->tree, &t);
	stack_table_release(&t);
	fold_perfdata_info_keep_first(&r->info, &info, !rc, &r->perf_inputs);
	return rc;
}

static int read_input(struct flame_run *r, const char *path)
{
	struct lines lr;
	const char *name;
	enum fold_input_kind kind;
	if (fold_input_open(&lr, path, "flame", &name, &kind))
		return 1;
	int rc;
	if (kind != FOLD_INPUT_FOLDED) {
		rc = read_perf(r, &lr, path, kind);
		lines_close(&lr);
		return rc;
	}
	struct diag d = DIAG_INIT;
	rc = render_tree_read_folded(&r->tree, &lr, name, &r->bad, &d);
	if (rc < 0)
		diag_print(&d, name);
	lines_close(&lr);
	return rc < 0 ? 1 : 0;
}

static int load_side_files(struct flame_run *r)
{
	struct diag d = DIAG_INIT;
	struct strbuf notes = SB_INIT;
	int rc = render_flame_files_load(&r->files, &r->o, &notes, &d);
	diag_warn_lines(notes.buf);
	sb_release(&notes);
	if (rc < 0)
		diag_print(&d, r->files.failed);
	return rc < 0;
}

static int draw(struct flame_run *r)
{
	struct diag d = DIAG_INIT;
	if (r->perf_inputs) /* labelled by their event */
		render_flame_opts_perf_labels(&r->o, &r->info, r->title_set,
					      r->countname_set || r->factor_set, &r->title);
	struct strbuf note = SB_INIT;
	if (stack_folded_bad_note(&r->bad, &note))
		diag_warn("%s", note.buf);
	sb_release(&note);
	if (!isfinite(r->tree.nodes[0].value)) {
		diag_error("the counts add up to more than a double can hold");
		return 1;
	}
	if (r->tree.nodes[0].value <= 0) {
		if (r->only_input)
			diag_error("%s: no stack counts found", strcmp(r->only_input, "-")
				   ? r->only_input : "<stdin>");
		else
			diag_error("no stack counts found");
		if (r->perf_inputs) /* a recording without samples: no picture */
			return 2;
		render_flame_write_empty(&r->o, stdout);
		return 2;
	}
	int wrc = render_flame_write(&r->tree, &r->o, stdout, &d);
	if (wrc < 0) {
		diag_write_error(NULL, -wrc);
		return 1;
	}
	if (render_flame_files_save(&r->files, &d) < 0) {
		diag_print(&d, r->files.failed);
		return 1;
	}
	return 0;
}

int cmd_flame(int argc, char **argv)
{
	struct flame_run r;
	memset(&r, 0, sizeof(r));
	r.info = (struct fold_perfdata_info)FOLD_PERFDATA_INFO_INIT;
	sb_init(&r.title);
	render_flame_opts_init(&r.o);
	render_flame_files_init(&r.files);
	struct opt_state st = OPT_STATE_INIT;
	const char *arg;
	int id, rc = 0;
	while ((id = opt_next(&st, argc, argv, &flame_cmd, &arg)) > 0)
		if ((rc = set_option(&r, id, arg)) != 0)
			goto out;
	if (id == OPT_HELP)
		goto out;
	if (id < 0) {
		rc = 2;
		goto out;
	}
	if ((rc = load_side_files(&r)) != 0)
		goto out;
	render_tree_init(&r.tree, r.o.flamechart, r.reverse);
	r.tree.chain = r.o.palette == PAL_CHAIN;
	r.only_input = st.ind >= argc ? "<stdin>" : st.ind + 1 == argc ? argv[st.ind] : NULL;
	if (st.ind >= argc)
		rc = read_input(&r, NULL);
	for (int i = st.ind; i < argc && !rc; i++)
		rc = read_input(&r, argv[i]);
	if (!rc)
		rc = draw(&r);
	render_tree_release(&r.tree);
	fold_perfdata_info_release(&r.info);
	sb_release(&r.title);
out:
	render_flame_files_release(&r.files);
	return rc;
}
