/*
 * report: `perf report --stdio` for a perf.data file: the children view
 * with call graphs when the file has call chains (as perf 6.1 decides),
 * else the flat table; sort keys comm, pid, dso, sym, cpu, parent,
 * trace, symbol_size, srcline; call
 * graphs in perf's graph, fractal, flat and folded forms, caller or
 * callee first. The engine is analysis/report.c (with what perf
 * decides from the file, rep_decide), the text and the -g value
 * render/reporttext.c; this file is options and calls.
 * Stage: command.
 */
#include "cmd/cmd.h"
SCORCH_COMMAND(report, "perf report --stdio: entries, children, call graphs, sort keys")

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/report.h"
#include "base/diag.h"
#include "base/opt.h"
#include "base/strbuf.h"
#include "cmd/symopts.h"
#include "process/session.h"
#include "render/reporttext.h"

enum { O_INPUT = 1, O_SORT, O_CHILDREN, O_NO_CHILDREN, O_GRAPH, O_NO_GRAPH, O_INVERTED,
       O_MAX_STACK, O_SAMPLES, O_PERCENT_LIMIT, O_STDIO, O_FIELDS };

static const struct opt_spec opts[] = {
	{ "input", 'i', OPT_REQ, "FILE", "perf.data file to read (default perf.data; - for stdin)", O_INPUT },
	{ "sort", 's', OPT_REQ, "KEYS", "sort keys, any of comm,pid,dso,sym,cpu,parent,trace,symbol_size,srcline (default comm,dso,sym; trace for tracepoints alone)", O_SORT },
	{ "fields", 'F', OPT_REQ, "FIELDS", "columns and sort order: overhead, overhead_children, period, sample and sort keys (with -s: after its keys)", O_FIELDS },
	{ "children", 0, OPT_NONE, NULL, "add each sample to every function of its chain (default with call chains)", O_CHILDREN },
	{ "no-children", 0, OPT_NONE, NULL, "self periods only", O_NO_CHILDREN },
	{ "call-graph", 'g', OPT_REQ, "MODE,MIN,LIMIT,ORDER,VALUE", "graph (default), fractal, flat, folded or none; threshold % (0.5); lines per level; caller or callee; percent or period; alone: " REP_GRAPH_DEFAULT, O_GRAPH },
	{ "no-call-graph", 0, OPT_NONE, NULL, "no call graphs (-g none)", O_NO_GRAPH },
	{ "inverted", 'G', OPT_NONE, NULL, "call graphs caller first (-g caller)", O_INVERTED },
	{ "max-stack", 0, OPT_REQ, "N", "use at most N frames of each chain (default 127)", O_MAX_STACK },
	{ "show-nr-samples", 'n', OPT_NONE, NULL, "show a Samples column", O_SAMPLES },
	{ "percent-limit", 0, OPT_REQ, "PCT", "hide entries (and call graph branches) below PCT percent", O_PERCENT_LIMIT },
	{ "stdio", 0, OPT_NONE, NULL, "text output (the only one; accepted as perf does)", O_STDIO },
	SYMOPTS_SPECS,
	OPT_END_SPEC
};

static const struct opt_cmd report_cmd = {
	"report", "scorch report [-s KEYS] [-g MODE] [--no-children] [-n] [options] [FILE]",
	"Print perf report's --stdio text for FILE: entries by sort key, children and call graphs.",
	opts, false,
};

struct report {
	struct rep rep;
	struct prof_filter filter;
	bool decided;          /* children and chains settled (first sample) */
	int children;          /* -1: as the file says */
	bool graph_none;
	bool sorted;           /* -s given */
};

/* perf's -g takes the next argument unless it is last or an option:
 * then it is perf's bare -g, REP_GRAPH_DEFAULT (given here as
 * --call-graph=...) */
static void bare_graph(int argc, char **argv)
{
	for (int i = 1; i < argc && strcmp(argv[i], "--"); i++)
		if ((!strcmp(argv[i], "-g") || !strcmp(argv[i], "--call-graph")) &&
		    (i + 1 == argc || argv[i + 1][0] == '-'))
			argv[i] = (char *)"--call-graph=" REP_GRAPH_DEFAULT;
}

static int on_sample(void *ctx, struct proc_session *ses, const struct proc_sample *ps)
{
	struct report *r = ctx;
	if (!r->decided) {
		r->decided = true;
		rep_decide(&r->rep, ses->reader, r->children, r->graph_none, r->sorted);
	}
	if (prof_filter_keep(&r->filter, ps))
		rep_add(&r->rep, ses, ps);
	return 0;
}

static int run(struct report *r, struct proc_session *ses, const char *input,
	       struct rep_text_opts *t)
{
	int rc = symopts_run_unwound(ses, UNW_INLINE_DWARF, on_sample, r, input);
	if (symopts_report_filtered_run(ses, rc, &r->filter, input))
		return -1; /* every sample dropped: no report */
	if (rc < 0)
		return rc;
	if (!r->rep.o.chains)
		t->mode = REP_G_NONE;
	/* fractal graphs cut by the parent's share: every tree */
	rep_sort(&r->rep, t->mode == REP_G_FRACTAL ? -1.0 : t->min_percent);
	rep_name_threads(&r->rep, &ses->machine);
	t->nr_lost = ses->nr_lost;
	struct strbuf o = SB_INIT;
	rep_text_print(&o, &r->rep, t);
	if (sb_flush(&o, stdout) != 0) {
		diag_write_error(NULL, errno);
		rc = 1;
	}
	sb_release(&o);
	return rc;
}

int cmd_report(int argc, char **argv)
{
	struct symopts so;
	memset(&so, 0, sizeof(so));
	struct report r;
	memset(&r, 0, sizeof(r));
	r.children = -1;
	const char *input = NULL, *sort = NULL, *fields = NULL;
	struct rep_graph_opts g = REP_GRAPH_OPTS_INIT;
	struct rep_text_opts t;
	memset(&t, 0, sizeof(t));
	size_t max_stack = PROC_SESSION_MAX_STACK;
	bare_graph(argc, argv);
	struct opt_state st = OPT_STATE_INIT;
	const char *arg;
	char *end;
	int id;
	while ((id = opt_next(&st, argc, argv, &report_cmd, &arg)) > 0) {
		switch (id) {
		case O_INPUT: input = arg; break;
		case O_SORT: sort = arg; r.sorted = true; break;
		case O_CHILDREN: r.children = 1; break;
		case O_NO_CHILDREN: r.children = 0; break;
		case O_GRAPH:
			if (rep_text_parse_graph(arg, &g))
				return opt_usage_error(&report_cmd, "bad -g '%s': MODE (graph, fractal, flat, folded, none), threshold, print limit, caller or callee, function, percent or period, comma-separated (address and count are not supported)", arg);
			break;
		case O_NO_GRAPH: g.mode = REP_G_NONE; break;
		case O_INVERTED: g.order = REP_CALLER; break;
		case O_MAX_STACK:
			max_stack = strtoul(arg, &end, 10);
			if (end == arg || *end || *arg == '-')
				return opt_usage_error(&report_cmd, "bad --max-stack '%s': a number", arg);
			break;
		case O_SAMPLES: t.samples = true; break;
		case O_PERCENT_LIMIT:
			t.percent_limit = strtod(arg, &end);
			if (end == arg || *end)
				return opt_usage_error(&report_cmd, "bad --percent-limit '%s': a number", arg);
			g.min = t.percent_limit; /* perf: call graphs too */
			break;
		case O_STDIO: break;
		case O_FIELDS: fields = arg; break;
		default: symopts_option(&so, id, arg); break;
		}
	}
	if (id == OPT_HELP)
		return 0;
	if (id < 0)
		return 2;
	if (symopts_operand(&st, argc, argv, &report_cmd, &input))
		return 2;
	struct rep_opts ro;
	memset(&ro, 0, sizeof(ro));
	char bad[64];
	if (fields && sort && rep_parse_sort_fields(&ro, sort, fields, bad, sizeof(bad)) < 0)
		return opt_usage_error(&report_cmd, "bad -F '%s' with -s '%s' at '%s': -s takes sort keys, -F fields and keys, each once", fields, sort, bad);
	if (fields && !sort && rep_parse_fields(&ro, fields, bad, sizeof(bad)) < 0)
		return opt_usage_error(&report_cmd, "bad -F field '%s': use overhead, overhead_children, period, sample and sort keys, each once", bad);
	if (fields)
		r.sorted = true;
	else if (rep_parse_keys(&ro, sort ? sort : "comm,dso,sym", bad, sizeof(bad)) < 0)
		return opt_usage_error(&report_cmd, "bad --sort key '%s': use comm, pid, dso, sym, cpu, parent, trace, symbol_size and srcline, each once", bad);
	/* perf: only without -F */
	t.skip_first = !fields && sort && !strncmp(sort, "sym", 3);
	t.mode = g.mode;
	t.min_percent = g.min;
	t.print_limit = g.limit;
	t.period_values = g.period;
	r.graph_none = g.mode == REP_G_NONE;
	if (symopts_filter(&r.filter, so.time, so.cpu, so.comm, so.event))
		return 2;
	struct sym_config cfg;
	if (symopts_config(&so, &cfg))
		return 1;
	/* children view: callers first unless asked (perf's default) */
	ro.order = g.order >= 0 ? (enum rep_order)g.order : r.children == 0 ? REP_CALLEE : REP_CALLER;
	struct proc_session ses;
	struct proc_session_opts sopts = PROC_SESSION_OPTS_INIT;
	sopts.max_stack = 1u << 16; /* rep_add keeps max_stack of them */
	ro.max_stack = max_stack;
	bool parent = false;
	for (size_t i = 0; i < ro.nkeys; i++)
		parent |= ro.keys[i] == REP_PARENT;
	if (r.children == 0 && r.graph_none && !parent)
		sopts.max_stack = 0; /* only the sampled address matters */
	rep_init(&r.rep, &ro);
	int rc = proc_session_open(&ses, input, &cfg, &sopts);
	if (rc == 0) {
		rc = run(&r, &ses, input, &t);
	} else {
		diag_print(&ses.diag, input);
	}
	proc_session_close(&ses);
	rep_release(&r.rep);
	symopts_release(&so);
	return rc ? 1 : 0;
}
