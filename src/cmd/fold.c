/*
 * cmd/fold: `scorch fold [options] [FILE...]`, and the drop-ins
 * stackcollapse-perf.pl, stackcollapse-stap.pl and stackcollapse.pl.
 * Stage: command. Reads each input once, streaming: the format is
 * detected from its first bytes (or --format), text goes line by line to
 * the text collapsers (stacks/collapse_text.h), perf.data to
 * fold_perfdata; all inputs merge into one stack table printed sorted ("stack count" lines, as the Perl
 * scripts print them). Key invariant: memory grows with distinct stacks,
 * never with input size; messages name the file and line.
 */
#include "cmd/cmd.h"
SCORCH_COMMAND(fold, "fold stacks (perf script, SystemTap, DTrace text or perf.data) into folded lines")

#include "cmd/fold_perfdata.h"
#include "cmd/input.h"
#include "cmd/namingopts.h"
#include "cmd/perfinput.h"
#include "cmd/symopts.h"

#include "base/diag.h"
#include "base/lines.h"
#include "base/opt.h"
#include "base/strbuf.h"
#include "stacks/collapse_parallel.h"
#include "stacks/collapse_text.h"
#include "stacks/detect.h"
#include "stacks/table.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
	O_CONTEXT = 1, O_SRCLINE, O_FORMAT, O_OUTPUT, O_JOBS, O_SAMPLE_TYPE,
};

static const struct opt_spec opts[] = {
	NAMING_SPECS,
	{ "context", 0, OPT_NONE, NULL, "with --inline: add :file:line to frames", O_CONTEXT },
	{ "srcline", 0, OPT_NONE, NULL, "input is perf script -F+srcline: add the source line to frames", O_SRCLINE },
	{ "format", 0, OPT_REQ, "FMT", "input format: perf-script, stap, dtrace, perf.data (default: detect)", O_FORMAT },
	{ "time", 0, OPT_REQ, "START,END", "perf.data: keep samples in this time range (seconds)", SYMOPT_TIME },
	{ "cpu", 0, OPT_REQ, "LIST", "perf.data: keep samples of these CPUs (e.g. 0-3,6)", SYMOPT_CPU },
	{ "comm", 0, OPT_REQ, "LIST", "perf.data: keep samples of these process names (comma-separated)", SYMOPT_COMM },
	{ "event", 0, OPT_REQ, "EVENT", "perf.data: keep samples of EVENT only", SYMOPT_EVENT },
	{ "buildid-dir", 0, OPT_REQ, "DIR", "perf.data: build-id cache directory (default ~/.debug)", SYMOPT_BUILDID_DIR },
	{ "symfs", 0, OPT_REQ, "DIR", "perf.data: look for binaries under DIR first", SYMOPT_SYMFS },
	{ "kallsyms", 0, OPT_REQ, "FILE", "perf.data: kernel symbols from FILE", SYMOPT_KALLSYMS },
	{ "vmlinux", 'k', OPT_REQ, "FILE", "perf.data: kernel symbols from this vmlinux ELF file", SYMOPT_VMLINUX },
	{ "jit-dir", 0, OPT_REQ, "DIR", "perf.data: directory holding perf-PID.map files (default /tmp)", SYMOPT_JIT_DIR },
	{ "vdso", 0, OPT_REQ, "FILE", "perf.data: the recording kernel's vdso image (when no build id was recorded)", SYMOPT_VDSO },
	{ "output", 'o', OPT_REQ, "FILE", "write to FILE instead of standard output", O_OUTPUT },
	{ "jobs", 'j', OPT_REQ, "N", "fold one perf script file with N threads (same output)", O_JOBS },
	{ "sample-type", 0, OPT_REQ, "NAME", "pprof input: the sample type to fold (default: the profile's)", O_SAMPLE_TYPE },
	OPT_END_SPEC
};

static const struct opt_cmd fold_cmd = {
	.name = "fold",
	.usage = "scorch fold [options] [FILE...]",
	.summary = "Fold stacks into \"frame;frame;... count\" lines, sorted. Input: perf\n"
	"script text (as stackcollapse-perf.pl), SystemTap print_stack output (as\n"
	"stackcollapse-stap.pl), DTrace stack aggregations (as stackcollapse.pl)\n"
	"or perf.data; detected from the content. No FILE or '-': standard input.",
	.opts = opts,
	.permute = true, /* options may follow files, as Getopt::Long allows */
};

/* Everything one run of the command keeps. */
struct fold_run {
	struct fold_perfdata_opts pd;
	enum stack_format forced;      /* FMT_UNKNOWN: detect per input */
	const char *output;
	struct stack_table table;
	struct collapse_text text;     /* the text collapsers, into table */
	int jobs;                      /* --jobs: threads for one text file */
	const char *sample_type;       /* --sample-type (pprof input) */
	bool single;                   /* exactly one regular file operand */
};

/* ---- options ---- */

static int parse_args(struct fold_run *r, int argc, char **argv, int *first)
{
	struct opt_state st = OPT_STATE_INIT;
	struct collapse_opts *c = &r->pd.collapse;
	const char *arg, *bad_format = NULL, *bad_jobs = NULL;
	struct symopts so; /* the perf.data options, as the other commands' */
	memset(&so, 0, sizeof(so));
	int id;
	while ((id = opt_next(&st, argc, argv, &fold_cmd, &arg)) > 0) {
		if (namingopts_option(&r->pd, id, arg) || symopts_option(&so, id, arg))
			continue;
		switch (id) {
		case O_CONTEXT: c->context = true; break;
		case O_SRCLINE: c->srcline = true; break;
		case O_FORMAT:
			r->forced = stack_format_parse(arg);
			if (r->forced == FMT_UNKNOWN)
				bad_format = arg; /* reported once parsing is done */
			break;
		case O_OUTPUT: r->output = arg; break;
		case O_SAMPLE_TYPE: r->sample_type = arg; break;
		case O_JOBS:
			r->jobs = atoi(arg);
			if (r->jobs < 1 || r->jobs > 64)
				bad_jobs = arg;
			break;
		}
	}
	if (id == OPT_HELP)
		return 0;
	if (id < 0)
		return 2;
	if (bad_format)
		return opt_usage_error(&fold_cmd, "unknown format '%s' (perf-script, "
				       "stap, dtrace, perf.data)", bad_format);
	if (bad_jobs)
		return opt_usage_error(&fold_cmd, "--jobs takes 1 to 64, not '%s'", bad_jobs);
	symopts_to_fold(&so, &r->pd);
	collapse_opts_finish(c);
	*first = st.ind;
	return -1; /* go on */
}

/* ---- text inputs ---- */

/* The notes of the input just read, and perf script's filtering message. */
static void print_notes(struct fold_run *r, struct strbuf *notes)
{
	diag_warn_lines(notes->buf);
	sb_release(notes);
	const char *event = collapse_text_filter_news(&r->text);
	if (event) /* the Perl script's message, naming the event kept */
		fprintf(stderr, "Filtering for events of type: %s\n", event);
}

/* One text input; perf script text by --jobs threads when it is the one
 * regular file and can be split, else line by line. */
static int fold_text(struct fold_run *r, struct cmd_input *in, enum stack_format fmt)
{
	struct diag d = DIAG_INIT;
	struct strbuf notes = SB_INIT;
	int rc = -EAGAIN;
	if (fmt == FMT_PERF_SCRIPT && r->jobs > 1 && r->single && in->regular)
		rc = collapse_text_read_parallel(&r->text, in->path, r->jobs, &notes, &d);
	bool split_failed = rc < 0 && rc != -EAGAIN; /* no notes then */
	if (rc == -EAGAIN)
		rc = collapse_text_read_input(&r->text, &in->lr, fmt, &notes, &d);
	if (!split_failed)
		print_notes(r, &notes);
	if (rc < 0)
		diag_print(&d, in->name);
	return rc < 0;
}

/* ---- one input ---- */

static int fold_input(struct fold_run *r, const char *path)
{
	struct cmd_input in;
	if (cmd_input_open(&in, path))
		return 1;
	int rc = 0;
	struct diag d = DIAG_INIT;
	bool pprof = r->forced == FMT_UNKNOWN && cmd_input_is_pprof(&in);
	enum stack_format fmt = pprof ? FMT_EMPTY : cmd_input_format(&in, r->forced, &d);
	if (pprof)
		rc = fold_pprof(&in.lr, r->sample_type, &r->table);
	else if (fmt == FMT_UNKNOWN) {
		diag_print(&d, in.name);
		rc = 1;
	} else if (fmt == FMT_PERF_DATA)
		rc = fold_perfdata_input(&in, &r->pd, &r->table);
	else if (in.dir) {
		diag_error("%s: is a directory (not %s text)", in.name,
			   stack_format_name(fmt));
		rc = 1;
	} else if (fmt != FMT_EMPTY)
		rc = fold_text(r, &in, fmt);
	cmd_input_close(&in);
	return rc;
}

/* ---- output ---- */

static int write_output(struct fold_run *r)
{
	bool opened;
	int rc = stack_table_write_path(&r->table, r->output, &opened);
	if (rc < 0 && !opened)
		diag_error("%s: %s", r->output, strerror(-rc));
	else if (rc < 0)
		diag_write_error(r->output && strcmp(r->output, "-") ? r->output : NULL, -rc);
	return rc < 0;
}

static void final_notes(struct fold_run *r)
{
	struct strbuf notes = SB_INIT;
	collapse_text_end_notes(&r->text, r->pd.collapse.inline_, &notes);
	diag_warn_lines(notes.buf);
	sb_release(&notes);
}

int cmd_fold(int argc, char **argv)
{
	struct fold_run r;
	memset(&r, 0, sizeof(r));
	r.pd = (struct fold_perfdata_opts)FOLD_PERFDATA_OPTS_INIT;
	int first = 0;
	int rc = parse_args(&r, argc, argv, &first);
	if (rc >= 0)
		return rc;
	stack_table_init(&r.table);
	collapse_text_init(&r.text, &r.pd.collapse, &r.table);

	rc = 0;
	r.single = argc - first == 1 && strcmp(argv[first], "-") != 0;
	if (first >= argc)
		rc = fold_input(&r, "-");
	for (int i = first; i < argc && rc == 0; i++)
		rc = fold_input(&r, argv[i]);
	if (rc == 0) {
		final_notes(&r);
		rc = write_output(&r);
	}
	collapse_text_release(&r.text);
	stack_table_release(&r.table);
	return rc;
}
