/*
 * record: `scorch record [options] -- command` (or -p/-t/-a).
 * Stage: command. Parses options, then calls record/run (rec_run: the
 * workload held on a pipe until the events exist, the session until the
 * workload exits or a signal stops it, the file always finished), prints
 * its messages and the summary, passes the workload's exit status
 * through, and writes --folded/--svg/--html through cmd/recordout.
 */
#include "cmd/cmd.h"
#include "cmd/recordout.h"
#include "base/diag.h"
#include "base/opt.h"
#include "record/record.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

SCORCH_COMMAND(record, "sample a command or processes with perf_event_open and write perf.data")

enum {
	O_EVENT = 1, O_FREQ, O_COUNT, O_G, O_CALLGRAPH, O_ALL, O_CPU, O_PID,
	O_TID, O_NO_INHERIT, O_OUTPUT, O_COMPRESS, O_MMAP, O_NO_CACHE,
	O_NO_BUILDID, O_SVG, O_FOLDED, O_QUIET, O_OFFCPU, O_TITLE, O_COUNTNAME,
	O_HTML,
};

static const struct opt_spec opts[] = {
	{ "event", 'e', OPT_REQ, "EVENT", "event to sample: cpu-clock, task-clock, page-faults, context-switches, cycles, ..., or subsystem:tracepoint (repeatable, comma lists)", O_EVENT },
	{ "freq", 'F', OPT_REQ, "HZ", "samples per second (default 4000; prefer an odd rate such as 99 or 997)", O_FREQ },
	{ "count", 'c', OPT_REQ, "PERIOD", "sample every PERIOD events instead of a frequency", O_COUNT },
	{ "callchain", 'g', OPT_NONE, NULL, "record call chains with frame pointers (kernel and user)", O_G },
	{ "call-graph", 0, OPT_REQ, "MODE", "call chains: fp, or dwarf[,SIZE] (user registers and SIZE bytes of stack, default 8192)", O_CALLGRAPH },
	{ "all-cpus", 'a', OPT_NONE, NULL, "system-wide: every process on every cpu", O_ALL },
	{ "cpu", 'C', OPT_REQ, "LIST", "only these cpus, e.g. 0-3,6", O_CPU },
	{ "pid", 'p', OPT_REQ, "PID", "existing processes and all their threads (comma list)", O_PID },
	{ "tid", 't', OPT_REQ, "TID", "existing threads (comma list)", O_TID },
	{ "no-inherit", 0, OPT_NONE, NULL, "do not follow threads and children created later", O_NO_INHERIT },
	{ "output", 'o', OPT_REQ, "FILE", "output file (default perf.data, the old one kept as perf.data.old; - for pipe mode on stdout)", O_OUTPUT },
	{ "compression-level", 'z', OPT_OPTIONAL, "LEVEL", "compress the records with zstd (level 1-22, default 1)", O_COMPRESS },
	{ "mmap-pages", 'm', OPT_REQ, "PAGES", "ring buffer data pages per cpu, a power of two (default 128, 512 with dwarf)", O_MMAP },
	{ "no-buildid-cache", 'N', OPT_NONE, NULL, "do not copy the sampled binaries into ~/.debug", O_NO_CACHE },
	{ "no-buildid", 'B', OPT_NONE, NULL, "do not write build ids (nor fill the cache)", O_NO_BUILDID },
	{ "svg", 0, OPT_REQ, "FILE", "also write a flame graph of the recording to FILE", O_SVG },
	{ "folded", 0, OPT_REQ, "FILE", "also write the folded stacks of the recording to FILE", O_FOLDED },
	{ "html", 0, OPT_REQ, "FILE", "also write a scorch view explorer of the recording to FILE", O_HTML },
	{ "title", 0, OPT_REQ, "TEXT", "--svg: title of the graph (default: the event and the command)", O_TITLE },
	{ "countname", 0, OPT_REQ, "NAME", "--svg: what the counts are (default: by the event, e.g. \"\xc2\xb5s\" for cpu-clock)", O_COUNTNAME },
	{ "quiet", 'q', OPT_NONE, NULL, "no summary line at the end", O_QUIET },
	{ "offcpu", 0, OPT_NONE, NULL, "off-CPU profile for scorch offcpu: sched_switch and sched_wakeup with call chains, all CPUs", O_OFFCPU },
	OPT_END_SPEC
};

static const struct opt_cmd cmd = {
	"record", "scorch record [options] [--] [COMMAND [ARGS...]]",
	"sample a command or processes with perf_event_open and write perf.data",
	opts, false,
};

struct record_args {
	struct rec_opts o;
	const char *output;
	int zlevel;             /* 0: no compression */
	bool no_cache, no_buildid, quiet, mmap_set;
	struct record_outputs out; /* --svg, --folded, --html and labels */
	char **argv;            /* workload command, or NULL */
};

/* ---- option parsing ---- */

static int add_events(struct record_args *a, const char *list)
{
	struct diag d = DIAG_INIT;
	if (rec_opts_add_events(&a->o, list, &d) < 0) {
		diag_print(&d, NULL);
		return -1;
	}
	return 0;
}

static int one_option(struct record_args *a, int id, const char *arg)
{
	uint64_t v;
	switch (id) {
	case O_EVENT:
		return add_events(a, arg) < 0 ? 1 : 0;
	case O_FREQ:
		if (!rec_parse_u64(arg, &v) || v == 0)
			return opt_usage_error(&cmd, "bad -F '%s'", arg);
		a->o.freq = v;
		a->o.freq_given = true;
		return 0;
	case O_COUNT:
		if (!rec_parse_u64(arg, &v) || v == 0)
			return opt_usage_error(&cmd, "bad -c '%s'", arg);
		a->o.period = v;
		return 0;
	case O_G: a->o.callgraph = REC_CG_FP; return 0;
	case O_CALLGRAPH:
		if (rec_opts_callgraph(&a->o, arg) < 0)
			return opt_usage_error(&cmd, "bad --call-graph '%s' (fp or dwarf[,SIZE], SIZE up to 65528)", arg);
		return 0;
	case O_ALL: a->o.system_wide = true; return 0;
	case O_OFFCPU: /* what scorch offcpu reads; -g unless a call graph is given */
		a->o.system_wide = true;
		if (a->o.callgraph == REC_CG_NONE)
			a->o.callgraph = REC_CG_FP;
		return add_events(a, "sched:sched_switch,sched:sched_wakeup") < 0 ? 1 : 0;
	case O_CPU: a->o.cpu_list = arg; return 0;
	case O_PID:
		if (rec_opts_add_pids(&a->o.pids, &a->o.nr_pids, arg) < 0)
			return opt_usage_error(&cmd, "bad -p '%s'", arg);
		return 0;
	case O_TID:
		if (rec_opts_add_pids(&a->o.tids, &a->o.nr_tids, arg) < 0)
			return opt_usage_error(&cmd, "bad -t '%s'", arg);
		return 0;
	case O_NO_INHERIT: a->o.inherit = false; return 0;
	case O_OUTPUT: a->output = arg; return 0;
	case O_COMPRESS:
		a->zlevel = 1;
		if (arg && (!rec_parse_u64(arg, &v) || v < 1 || v > 22))
			return opt_usage_error(&cmd, "bad compression level '%s' (1-22)", arg);
		if (arg)
			a->zlevel = (int)v;
		return 0;
	case O_MMAP:
		if (!rec_parse_u64(arg, &v) || v == 0 || (v & (v - 1)) || v > (1u << 20))
			return opt_usage_error(&cmd, "bad -m '%s' (a power of two)", arg);
		a->o.mmap_pages = (size_t)v;
		a->mmap_set = true;
		return 0;
	case O_NO_CACHE: a->no_cache = true; return 0;
	case O_NO_BUILDID: a->no_buildid = a->no_cache = true; return 0;
	case O_SVG: a->out.svg = arg; return 0;
	case O_FOLDED: a->out.folded = arg; return 0;
	case O_HTML: a->out.html = arg; return 0;
	case O_QUIET: a->quiet = true; return 0;
	case O_TITLE: a->out.title = arg; return 0;
	case O_COUNTNAME: a->out.countname = arg; return 0;
	}
	return 2;
}

static int parse_args(struct record_args *a, int argc, char **argv)
{
	struct opt_state st = OPT_STATE_INIT;
	const char *arg;
	int id, r;
	rec_opts_init(&a->o);
	a->output = "perf.data";
	int bad = 0;
	/* read every option even after a bad one: opt_next frees its
	 * tables only when it reaches the end */
	while ((id = opt_next(&st, argc, argv, &cmd, &arg)) > 0)
		if (!bad && (r = one_option(a, id, arg)) != 0)
			bad = r;
	if (bad)
		return bad;
	if (id == OPT_HELP)
		return -1;
	if (id < 0)
		return 2;
	if (st.ind < argc)
		a->argv = argv + st.ind;
	if (!a->argv && !a->o.system_wide && !a->o.nr_pids && !a->o.nr_tids)
		return opt_usage_error(&cmd, "nothing to record: give a command, -p, -t or -a");
	if (a->o.system_wide && (a->o.nr_pids || a->o.nr_tids))
		return opt_usage_error(&cmd, "-a cannot be combined with -p or -t");
	struct diag d = DIAG_INIT;
	if (rec_opts_finish(&a->o, a->mmap_set, &d) < 0) {
		diag_print(&d, NULL);
		return 1;
	}
	if (!strcmp(a->output, "-") && (a->out.svg || a->out.folded || a->out.html))
		return opt_usage_error(&cmd, "--svg, --folded and --html need a file, not -o -");
	if (!a->out.svg && (a->out.title || a->out.countname))
		return opt_usage_error(&cmd, "--title and --countname label the --svg graph: give --svg FILE");
	return 0;
}

/* ---- output ---- */

static void summary(const struct record_args *a, const struct rec_run *run)
{
	if (run->lost)
		diag_warn("lost %llu samples in %llu LOST records: the ring buffer "
			  "filled up; use a larger -m or a lower -F",
			  (unsigned long long)run->lost,
			  (unsigned long long)run->lost_records);
	if (!a->quiet)
		fprintf(stderr, "[ scorch record: wrote %.3f MB %s (%llu samples) ]\n",
			(double)run->size / 1e6, a->output,
			(unsigned long long)run->samples);
}

static void warn_line(void *ctx, const char *line, int len)
{
	diag_warn("%.*s", len, line);
}

static void fail(void *ctx, const struct diag *d, const char *file)
{
	diag_print(d, file);
}

static void cannot(void *ctx, const char *what, int err)
{
	const struct record_args *a = ctx;
	diag_error("cannot %s %s: %s", what, a->argv[0], strerror(err));
}

static int record(struct record_args *a, int argc, char **argv)
{
	struct rec_run run = {
		.o = &a->o, .output = a->output, .zlevel = a->zlevel,
		.no_cache = a->no_cache, .no_buildid = a->no_buildid,
		.workload = a->argv, .argc = argc, .argv = argv, .ctx = a,
		.warn = warn_line, .fail = fail, .cannot = cannot,
	};
	if (rec_run(&run) < 0)
		return run.exec_failed ? 127 : 1;
	summary(a, &run);
	int rc = run.exec_failed ? 127
		 : run.status != -1 ? rec_workload_exit_status(run.status) : 0;
	a->out.input = a->output;
	a->out.command = a->argv;
	if ((a->out.svg || a->out.folded || a->out.html) &&
	    record_outputs_write(&a->out) != 0 && rc == 0)
		rc = 1;
	return rc;
}

int cmd_record(int argc, char **argv)
{
	struct record_args a;
	memset(&a, 0, sizeof(a));
	int r = parse_args(&a, argc, argv);
	if (r == -1)
		r = 0;
	else if (r == 0)
		r = record(&a, argc, argv);
	rec_opts_release(&a.o);
	return r;
}
