/*
 * cmd/heatmap: `scorch heatmap latency` (drop-in trace2heatmap.pl, or
 * event pairs from perf.data) and `scorch heatmap subsecond` (FlameScope).
 * Stage: command. Option parsing and input dispatch only: text pairs go
 * straight to render/heatmap (heatmap_read_text_input); perf.data goes
 * through analysis/ (pairing, offsets) first (render/heatmap's
 * heatmap_events ties the pairing to the map); the map's option values
 * and their ranges are render/heatmap's (heatmap_opts_set), the
 * subsecond map cmd/heatmap_subsecond's. Key invariant: one option table
 * for both subcommands, so --help, the man page and
 * docs/scorch-heatmap.md list the same flags.
 */
#include "cmd/cmd.h"
SCORCH_COMMAND(heatmap, "latency and sub-second offset heat maps (SVG, HTML or cells)")

#include "analysis/latency.h"
#include "base/diag.h"
#include "base/lines.h"
#include "base/opt.h"
#include "base/strbuf.h"
#include "cmd/heatmap_subsecond.h"
#include "cmd/input.h"
#include "cmd/symopts.h"
#include "render/heatmap.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

enum {
	O_UNITSTIME = 1, O_UNITSLABEL, O_MINLAT, O_MAXLAT, O_STEPLAT, O_STEPSEC,
	O_ROWS, O_MAXCOL, O_GRID, O_TITLE, O_BOXSIZE, O_FONTTYPE, O_FONTSIZE,
	O_ACCSTATS, O_CELLS, O_QUIRKS, O_PAIRS, O_START, O_END, O_KEY,
	O_UNIT, O_ALL,
};

static const struct opt_spec opts[] = {
	{ "unitstime", 0, OPT_REQ, "U", "latency: units of the time column: s (default), ms, us, ns", O_UNITSTIME },
	{ "unitslabel", 0, OPT_REQ, "TEXT", "latency: suffix of latency labels (perf.data default: us)", O_UNITSLABEL },
	{ "minlat", 0, OPT_REQ, "N", "latency: drop latencies below N (row 0 starts here)", O_MINLAT },
	{ "maxlat", 0, OPT_REQ, "N", "latency: drop latencies above N (default: the largest)", O_MAXLAT },
	{ "steplat", 0, OPT_REQ, "N", "latency: row height (default: (maxlat-minlat)/rows)", O_STEPLAT },
	{ "stepsec", 0, OPT_REQ, "SEC", "latency: seconds per column (default 1)", O_STEPSEC },
	{ "rows", 0, OPT_REQ, "N", "rows: latency bands (default 50) or offsets per second (default 50)", O_ROWS },
	{ "maxcol", 0, OPT_REQ, "N", "latency: drop columns above N", O_MAXCOL },
	{ "grid", 0, OPT_NONE, NULL, "latency: draw grid lines and labels", O_GRID },
	{ "title", 0, OPT_REQ, "TEXT", "title of the map", O_TITLE },
	{ "boxsize", 0, OPT_REQ, "PX", "latency: cell size in pixels (default 8)", O_BOXSIZE },
	{ "fonttype", 0, OPT_REQ, "FONT", "latency: font family (default Verdana)", O_FONTTYPE },
	{ "fontsize", 0, OPT_REQ, "N", "latency: font size (default 12)", O_FONTSIZE },
	{ "accstats", 0, OPT_NONE, NULL, "latency: hover also shows cumulative counts", O_ACCSTATS },
	{ "cells", 0, OPT_NONE, NULL, "print the cells as TSV instead of drawing", O_CELLS },
	{ "quirks", 0, OPT_NONE, NULL, "latency: hide the last column and top band like trace2heatmap.pl", O_QUIRKS },
	{ "pairs", 0, OPT_NONE, NULL, "latency, perf.data: print \"time latency\" pairs instead of drawing", O_PAIRS },
	{ "start", 0, OPT_REQ, "EVENT", "latency, perf.data: first event of a pair (default block:block_rq_issue)", O_START },
	{ "end", 0, OPT_REQ, "EVENT", "latency, perf.data: second event (default block:block_rq_complete)", O_END },
	{ "key", 0, OPT_REQ, "FIELDS", "latency, perf.data: fields that match a pair (default dev,sector)", O_KEY },
	{ "unit", 0, OPT_REQ, "U", "latency, perf.data: unit of times and latencies: us (default) or ns", O_UNIT },
	{ "all", 0, OPT_NONE, NULL, "subsecond: keep idle samples too", O_ALL },
	OPT_END_SPEC
};

static const struct opt_cmd heatmap_cmd = {
	"heatmap",
	"scorch heatmap latency|subsecond [options] [FILE...]",
	"Draw a latency heat map (from \"time latency\" text or event pairs in a\n"
	"perf.data) or a sub-second offset heat map with range flame graphs.",
	opts, true,
};

struct args {
	struct heatmap_opts hm;        /* the map's options */
	struct heatmap_events_opts ev; /* perf.data: the events paired */
	bool cells, all, rows_set;
};

/* ---- option values ---- */

/* Returns 0 or the exit status of a usage error. */
static int set_option(struct args *a, int id, const char *v)
{
	const char *name = opts[id - 1].name;
	int bad = heatmap_opts_set(&a->hm, name, v);
	if (bad < 0 && id == O_UNITSTIME)
		return opt_usage_error(&heatmap_cmd, "can't parse time units \"%s\"; "
				       "try \"ms\" etc.", v);
	if (bad < 0)
		return opt_usage_error(&heatmap_cmd, "--%s: bad value '%s'", name, v);
	a->rows_set |= id == O_ROWS;
	switch (id) {
	case O_CELLS: a->cells = true; return 0;
	case O_PAIRS: a->ev.pairs = true; return 0;
	case O_START: a->ev.start = v; return 0;
	case O_END: a->ev.end = v; return 0;
	case O_KEY: a->ev.key = v; return 0;
	case O_UNIT:
		if (strcmp(v, "us") && strcmp(v, "ns"))
			return opt_usage_error(&heatmap_cmd, "--unit: us or ns, not '%s'", v);
		a->ev.ns = strcmp(v, "ns") == 0;
		return 0;
	case O_ALL: a->all = true; return 0;
	}
	return bad ? 2 : 0;
}

/* ---- output ---- */

/* name: the one input named in messages, or NULL for several. */
static int draw_latency(struct heatmap *hm, bool cells, const char *name)
{
	struct diag d = DIAG_INIT;
	struct strbuf out = SB_INIT;
	int rc = 1;
	if (heatmap_render(hm, cells, &out, &d) < 0)
		diag_print(&d, name);
	else
		rc = cmd_flush_stdout(&out);
	sb_release(&out);
	return rc;
}

/* ---- latency from text ---- */

static int read_text(struct heatmap *hm, struct cmd_input *in, struct heatmap_text *ts)
{
	struct diag d = DIAG_INIT;
	int rc = in->dir ? -EISDIR : heatmap_read_text_input(hm, &in->lr, ts, &d);
	if (in->dir)
		diag_set(&d, "is a directory (perf.data is read from one input only)");
	if (rc < 0)
		diag_print(&d, in->name);
	return rc < 0;
}

/* first: files[0] (or standard input), already open. */
static int latency_text(struct args *a, struct cmd_input *first, int nfiles,
			char **files)
{
	struct heatmap hm;
	struct heatmap_text ts = { 0 };
	struct strbuf note = SB_INIT;
	heatmap_init(&hm, &a->hm);
	int rc = read_text(&hm, first, &ts);
	for (int i = 1; i < nfiles && rc == 0; i++) {
		struct cmd_input in;
		rc = cmd_input_open(&in, files[i]);
		if (rc == 0)
			rc = read_text(&hm, &in, &ts);
		cmd_input_close(&in);
	}
	if (heatmap_text_note(&ts, &note))
		diag_warn("%s", note.buf);
	sb_release(&note);
	if (rc == 0)
		rc = draw_latency(&hm, a->cells, nfiles > 1 ? NULL
				  : nfiles == 1 ? files[0] : "<stdin>");
	heatmap_release(&hm);
	return rc;
}

/* ---- latency from perf.data ---- */

static int latency_perfdata(struct args *a, struct cmd_input *in)
{
	const char *name = in->name;
	struct diag d = DIAG_INIT;
	struct pd_reader *r = cmd_input_reader(in, &d);
	if (!r) {
		diag_print(&d, name);
		return 1;
	}
	struct heatmap_events e;
	heatmap_events_init(&e, &a->hm, &a->ev, stdout);
	int rc = an_latency_read(&e.lat, r, &d);
	struct heatmap_pairs *pc = &e.pc;
	struct strbuf note = SB_INIT;
	if (symopts_report_dropped(&e.lat.dropped, name) && !pc->write_err) {
		rc = 1; /* every sample dropped */
	} else if (rc < 0 || pc->err) {
		if (rc < 0 && !pc->write_err)
			diag_print(&d, name);
		else if (pc->write_err)
			diag_write_error(NULL, -pc->write_err);
		else
			diag_error("%s", strerror(-pc->err));
		rc = 1;
	} else {
		if (d.set)
			diag_print_kept(&d, name);
		if (an_latency_note(&e.lat, &note))
			diag_warn("%s: %s", name, note.buf);
		rc = a->ev.pairs ? cmd_flush_stdout(&pc->out) : draw_latency(&e.hm, a->cells, name);
	}
	sb_release(&note);
	heatmap_events_release(&e);
	return rc;
}

/* One input (or standard input): perf.data or "time latency" text;
 * several inputs: text. Each is opened once (see cmd/input.h). */
static int cmd_latency(struct args *a, int nfiles, char **files)
{
	struct cmd_input in;
	if (cmd_input_open(&in, nfiles ? files[0] : "-"))
		return 1;
	int rc;
	if (nfiles <= 1 && cmd_input_is_perfdata(&in))
		rc = latency_perfdata(a, &in);
	else if (a->ev.pairs || a->ev.start || a->ev.end || a->ev.key)
		rc = opt_usage_error(&heatmap_cmd, "--pairs, --start, --end and --key "
				     "need one perf.data file");
	else
		rc = latency_text(a, &in, nfiles, files);
	cmd_input_close(&in);
	return rc;
}

int cmd_heatmap(int argc, char **argv)
{
	struct args a = { 0 };
	heatmap_opts_init(&a.hm);
	const char *mode = argc > 1 ? argv[1] : NULL;
	bool latency = mode && strcmp(mode, "latency") == 0;
	bool subsecond = mode && strcmp(mode, "subsecond") == 0;
	if (!latency && !subsecond) {
		if (mode && (!strcmp(mode, "--help") || !strcmp(mode, "-h"))) {
			opt_usage(stdout, &heatmap_cmd);
			return 0;
		}
		return opt_usage_error(&heatmap_cmd, "expected 'latency' or 'subsecond'");
	}
	struct opt_state st = OPT_STATE_INIT;
	const char *v;
	int id;
	while ((id = opt_next(&st, argc - 1, argv + 1, &heatmap_cmd, &v)) > 0)
		if (set_option(&a, id, v))
			return 2;
	if (id == OPT_HELP)
		return 0;
	if (id < 0)
		return 2;
	int nfiles = argc - 1 - st.ind;
	char **files = argv + 1 + st.ind;
	if (latency)
		return cmd_latency(&a, nfiles, files);
	if (nfiles > 1)
		return opt_usage_error(&heatmap_cmd, "subsecond takes one input file");
	struct heatmap_subsecond_opts so = { a.rows_set ? a.hm.rows : 50, a.all, a.cells,
					     a.hm.title };
	return heatmap_subsecond(&so, nfiles ? files[0] : NULL);
}
