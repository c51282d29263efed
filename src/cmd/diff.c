/*
 * diff: two folded profiles into differential folded lines, as
 * difffolded.pl prints them ("stack before after"; 0 where a stack is
 * missing), or straight into a red/blue differential flame graph with
 * --svg. Stage: command. Both inputs are streamed line by line into one
 * map of distinct stacks; output is sorted by stack so it is the same on
 * every run (difffolded.pl prints in Perl's random hash order).
 * perf.data or perf script text on either side is folded first
 * (fold_perf_input); an --svg of a folded AFTER recording labels its
 * counts by the event.
 */
#include "cmd/cmd.h"
SCORCH_COMMAND(diff, "compare two folded profiles (difffolded.pl), optionally as a differential SVG")

#include "cmd/perfinput.h"

#include "base/diag.h"
#include "base/lines.h"
#include "base/opt.h"
#include "base/strbuf.h"
#include "render/flame.h"
#include "render/tree.h"
#include "stacks/diff.h"
#include "stacks/folded.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { O_NORMALIZE = 1, O_STRIP_HEX, O_SVG, O_TITLE, O_NEGATE, O_SAMPLE_TYPE };

static const struct opt_spec diff_opts[] = {
	{ "normalize", 'n', OPT_NONE, NULL, "scale the first profile's counts to the second's total", O_NORMALIZE },
	{ "strip-hex", 's', OPT_NONE, NULL, "replace hexadecimal numbers (0x...) in stacks before comparing", O_STRIP_HEX },
	{ "svg", 0, OPT_NONE, NULL, "write the differential flame graph (SVG) instead of folded lines", O_SVG },
	{ "title", 0, OPT_REQ, "TEXT", "title of the --svg graph", O_TITLE },
	{ "negate", 0, OPT_NONE, NULL, "--svg: swap red and blue", O_NEGATE },
	{ "sample-type", 0, OPT_REQ, "NAME", "pprof inputs: the sample type to compare (default: each profile's)", O_SAMPLE_TYPE },
	OPT_END_SPEC
};

static const struct opt_cmd diff_cmd = {
	"diff", "scorch diff [options] BEFORE AFTER",
	"Compare two folded profiles, as difffolded.pl does.\n"
	"Prints \"stack BEFORE AFTER\" for every stack in either, or with --svg draws\n"
	"the differential flame graph: widths from AFTER, red grew, blue shrank.",
	diff_opts, true,
};

struct diff_run {
	struct stack_diff df; /* the stacks of both sides */
	bool normalize, svg, negate;
	const char *title;
	const char *sample_type;  /* --sample-type */
	struct stack_folded_bad bad; /* lines without a count */
	struct fold_perfdata_info info;  /* AFTER's, when it was perf input */
	bool after_perf;
};

struct side_ctx {
	struct diff_run *r;
	int side;
};

static void add_line(void *ctx, const struct stack_folded *f)
{
	struct side_ctx *sc = ctx;
	stack_diff_add(&sc->r->df, sc->side, f->stack, f->stack_len, f->count);
}

/* perf.data or perf script text: fold it, then take its stacks. */
static int read_perf(struct diff_run *r, int side, struct lines *lr,
		     const char *path, enum fold_input_kind kind)
{
	struct stack_table t;
	struct fold_perfdata_info info = FOLD_PERFDATA_INFO_INIT;
	stack_table_init(&t);
	int rc = fold_perf_input(lr, path, kind, &t, side ? &r->info : &info,
				 r->sample_type);
	for (size_t id = 0; !rc && id < stack_table_count(&t); id++) {
		size_t len;
		const char *k = stack_table_key(&t, id, &len);
		stack_diff_add(&r->df, side, k, len, (double)stack_table_value(&t, id));
	}
	r->after_perf |= side == 1 && !rc;
	stack_table_release(&t);
	fold_perfdata_info_release(&info);
	return rc;
}

static int read_side(struct diff_run *r, int side, const char *path)
{
	struct lines lr;
	const char *name;
	enum fold_input_kind kind;
	if (fold_input_open(&lr, path, "diff", &name, &kind))
		return 1;
	int rc;
	if (kind != FOLD_INPUT_FOLDED) {
		rc = read_perf(r, side, &lr, path, kind);
		lines_close(&lr);
		return rc;
	}
	struct side_ctx sc = { r, side };
	struct stack_folded_file ff = { 0 };
	rc = stack_folded_read(&lr, name, false, add_line, &sc, &r->bad, &ff);
	if (rc < 0)
		diag_error("%s: line %llu: %s", name, (unsigned long long)lr.lineno + 1,
			   rc == -E2BIG ? "line too long" : strerror(-rc));
	else if (ff.first_bad && !ff.good)
		/* not an empty profile: the wrong kind of file (perf.data, perf script) */
		diag_error("%s: line %llu: no folded stacks (\"frame;frame count\" lines) "
			   "in the file", name, ff.first_bad);
	lines_close(&lr);
	return rc < 0 || (ff.first_bad && !ff.good) ? 1 : 0;
}

static int print_svg(struct diff_run *r, const size_t *order)
{
	struct render_tree t;
	struct render_flame_opts o;
	struct diag d = DIAG_INIT;
	render_flame_opts_init(&o);
	o.title = r->title ? r->title : "Differential Flame Graph";
	struct strbuf title = SB_INIT;
	if (r->after_perf) /* the counts' unit; the title stays the diff's */
		fold_perfdata_labels(&r->info, NULL, &o.countname, &o.factor, &title);
	o.negate = r->negate;
	render_tree_init(&t, false, false);
	for (size_t i = 0; i < stack_diff_count(&r->df); i++) {
		size_t len;
		const char *k = stack_diff_key(&r->df, order[i], &len);
		double before = stack_diff_before(&r->df, order[i]);
		double after = stack_diff_after(&r->df, order[i]);
		render_tree_add(&t, k, len, after, after - before, true);
	}
	int rc = 0;
	if (t.nodes[0].value <= 0) {
		diag_error("no samples in the second profile");
		render_flame_write_empty(&o, stdout);
		rc = 2;
	} else if ((rc = render_flame_write(&t, &o, stdout, &d)) < 0) {
		diag_write_error(NULL, -rc);
		rc = 1;
	}
	render_tree_release(&t);
	sb_release(&title);
	return rc;
}

static int run(struct diff_run *r, const char *before, const char *after)
{
	if (read_side(r, 0, before) || read_side(r, 1, after))
		return 1;
	struct strbuf note = SB_INIT;
	if (stack_folded_bad_note(&r->bad, &note))
		diag_warn("%s", note.buf);
	sb_release(&note);
	if (r->normalize)
		stack_diff_normalize(&r->df);
	size_t *order = stack_diff_sorted(&r->df);
	int rc = 0;
	if (r->svg)
		rc = print_svg(r, order);
	else if ((rc = stack_diff_write(&r->df, order, stdout)) < 0) {
		diag_write_error(NULL, -rc);
		rc = 1;
	}
	free(order);
	return rc;
}

int cmd_diff(int argc, char **argv)
{
	struct diff_run r;
	memset(&r, 0, sizeof(r));
	stack_diff_init(&r.df, false);
	r.info = (struct fold_perfdata_info)FOLD_PERFDATA_INFO_INIT;
	struct opt_state st = OPT_STATE_INIT;
	const char *arg;
	int id, rc;
	while ((id = opt_next(&st, argc, argv, &diff_cmd, &arg)) > 0) {
		switch (id) {
		case O_NORMALIZE: r.normalize = true; break;
		case O_STRIP_HEX: r.df.strip_hex = true; break;
		case O_SVG: r.svg = true; break;
		case O_TITLE: r.title = arg; break;
		case O_NEGATE: r.negate = true; break;
		case O_SAMPLE_TYPE: r.sample_type = arg; break;
		}
	}
	if (id == OPT_HELP)
		rc = 0;
	else if (id < 0)
		rc = 2;
	else if (argc - st.ind != 2)
		rc = opt_usage_error(&diff_cmd, "expected two folded files, BEFORE and AFTER");
	else
		rc = run(&r, argv[st.ind], argv[st.ind + 1]);
	stack_diff_release(&r.df);
	fold_perfdata_info_release(&r.info);
	return rc;
}
