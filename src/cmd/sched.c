/*
 * cmd/sched: `scorch sched latency`, `scorch sched timehist` and
 * `scorch sched map`, the tables of `perf sched latency`, `perf sched
 * timehist` and `perf sched map` computed from the sched:* tracepoints of
 * a perf.data.
 * Stage: command. Option parsing and the calls; the arithmetic and the
 * lines are made in analysis/sched and analysis/schedmap. Key invariant:
 * timehist and map lines stream out as they are made; only per-task state
 * is kept.
 */
#include "cmd/cmd.h"
SCORCH_COMMAND(sched, "scheduler latency, time history and CPU map (perf sched latency/timehist/map)")

#include "analysis/sched.h"
#include "analysis/schedmap.h"
#include "base/diag.h"
#include "base/opt.h"
#include "base/strbuf.h"
#include "cmd/symopts.h"
#include "symbols/dso.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { O_INPUT = 1, O_SORT, O_WAKEUPS, O_COMPACT, O_CPUS, O_COLOR_PIDS, O_COLOR_CPUS,
       O_SUMMARY, O_WITH_SUMMARY, O_VISUAL, O_STATE, O_CPU, O_PID, O_TID,
       O_CALLGRAPH, O_NO_CALLGRAPH, O_MAX_STACK };

/* What `sched latency` needs, as scorch record -e takes it. */

#define OPT_INPUT { "input", 'i', OPT_REQ, "FILE", "perf.data to read (default perf.data)", O_INPUT }
#define OPT_WAKEUPS { "wakeups", 'w', OPT_NONE, NULL, "timehist: also a line per wakeup (who woke whom)", O_WAKEUPS }
#define OPT_SORT { "sort", 's', OPT_REQ, "KEYS", "latency: sort by avg, max, switch, runtime, pid (default avg,max,switch,runtime)", O_SORT }
#define OPT_MAP \
	{ "compact", 0, OPT_NONE, NULL, "map: columns only for the CPUs that switch, in order seen", O_COMPACT }, \
	{ "cpus", 0, OPT_REQ, "CPUS", "map: draw only these CPUs (0-3,6)", O_CPUS }, \
	{ "color-pids", 0, OPT_REQ, "TIDS", "map: highlight these tasks (on a terminal)", O_COLOR_PIDS }, \
	{ "color-cpus", 0, OPT_REQ, "CPUS", "map: highlight these CPUs (on a terminal)", O_COLOR_CPUS }

#define OPT_TIMEHIST(summary_short) \
	{ "summary", summary_short, OPT_NONE, NULL, "timehist -s: only the per-task summary and totals", O_SUMMARY }, \
	{ "with-summary", 'S', OPT_NONE, NULL, "timehist: the rows, then the summary", O_WITH_SUMMARY }, \
	{ "cpu-visual", 'V', OPT_NONE, NULL, "timehist: a column per CPU marking the one that switched", O_VISUAL }, \
	{ "state", 0, OPT_NONE, NULL, "timehist: the state of the task switched out; the summary splits the wait", O_STATE }, \
	{ "cpu", 'C', OPT_REQ, "CPUS", "timehist: only the switches on these CPUs (0-3,6)", O_CPU }, \
	{ "pid", 'p', OPT_REQ, "PIDS", "timehist: only these processes (comma-separated)", O_PID }, \
	{ "tid", 't', OPT_REQ, "TIDS", "timehist: only these threads (comma-separated)", O_TID }, \
	{ "call-graph", 'g', OPT_NONE, NULL, "timehist: end a row with its call chain when recorded (default)", O_CALLGRAPH }, \
	{ "no-call-graph", 0, OPT_NONE, NULL, "timehist: no call chains", O_NO_CALLGRAPH }, \
	{ "max-stack", 0, OPT_REQ, "N", "timehist: call chains of N + 2 frames, as perf (default 5)", O_MAX_STACK }, \
	{ "buildid-dir", 0, OPT_REQ, "DIR", "timehist: build-id cache or archive tar (default ~/.debug)", SYMOPT_BUILDID_DIR }, \
	{ "symfs", 0, OPT_REQ, "DIR", "timehist: look for a binary recorded as P at DIR/P first", SYMOPT_SYMFS }, \
	{ "kallsyms", 0, OPT_REQ, "FILE", "timehist: kernel symbols from FILE", SYMOPT_KALLSYMS }, \
	{ "vdso", 0, OPT_REQ, "FILE", "timehist: the recording kernel's vdso image", SYMOPT_VDSO }

/* --help lists every mode's options; each mode parses its own table
 * (-s is latency's --sort and timehist's --summary, as in perf). */
static const struct opt_spec all_opts[] = { OPT_INPUT, OPT_WAKEUPS, OPT_SORT, OPT_TIMEHIST(0), OPT_MAP, OPT_END_SPEC };
static const struct opt_spec latency_opts[] = { OPT_INPUT, OPT_SORT, OPT_END_SPEC };
static const struct opt_spec timehist_opts[] = { OPT_INPUT, OPT_WAKEUPS, OPT_TIMEHIST('s'), OPT_END_SPEC };
static const struct opt_spec map_opts[] = { OPT_INPUT, OPT_MAP, OPT_END_SPEC };

#define SCHED_USAGE "scorch sched latency|timehist|map [options] [FILE]"
#define SCHED_SUMMARY \
	"Scheduler latency per task, per-switch time history and the CPU map from\n" \
	"sched:* tracepoints. Record them with perf sched record, or with scorch\n" \
	"record -a -e " AN_SCHED_EVENTS "\n" \
	"(scorch record --offcpu lacks sched_stat_runtime: no run times)."

static const struct opt_cmd sched_cmd = { "sched", SCHED_USAGE, SCHED_SUMMARY, all_opts, true };

struct out_ctx {
	struct strbuf out;
	int err;
};

static int flush_out(void *ctx, struct strbuf *out)
{
	struct out_ctx *o = ctx;
	if (sb_flush(out, stdout) < 0) {
		o->err = errno;
		return -EIO;
	}
	return 0;
}

/* The end of a run: the message, and the exit status. */
static int finish(int rc, struct out_ctx *o, const struct pd_dropped *dropped,
		  const struct diag *d, const char *path)
{
	if (symopts_report_dropped(dropped, path) && !o->err)
		return 1; /* every sample dropped */
	if (rc < 0) {
		sb_flush(&o->out, stdout);
		if (o->err)
			diag_write_error(NULL, o->err);
		else
			diag_print(d, path);
		return 1;
	}
	if (d->set)
		diag_print_kept(d, path);
	if (sb_flush(&o->out, stdout) < 0) {
		diag_write_error(NULL, errno);
		return 1;
	}
	return 0;
}

static int run_map(const char *path, struct an_schedmap_opts *mo)
{
	struct out_ctx o = { SB_INIT, 0 };
	struct sym_config cfg;
	memset(&cfg, 0, sizeof(cfg));
	struct pd_dropped dropped;
	memset(&dropped, 0, sizeof(dropped));
	struct diag d = DIAG_INIT;
	long n = sysconf(_SC_NPROCESSORS_CONF);
	mo->ncpus = n > 0 && n < AN_SCHED_MAX_CPUS ? (unsigned)n : 1;
	mo->color = isatty(STDOUT_FILENO);
	int rc = an_schedmap_run(path, &cfg, mo, &o.out, flush_out, &o, &dropped, &d);
	rc = finish(rc, &o, &dropped, &d, path);
	sb_release(&o.out);
	return rc;
}

static int run_sched(const char *path, const struct an_timehist_opts *th,
		     struct symopts *so)
{
	struct an_sched s;
	struct out_ctx o = { SB_INIT, 0 };
	struct sym_config cfg;
	if (symopts_config(so, &cfg))
		return 1;
	an_sched_init(&s);
	if (th)
		an_sched_timehist(&s, th, &o.out, flush_out, &o);
	struct diag d = DIAG_INIT;
	int rc = an_sched_read(&s, path, &cfg, &d);
	if (rc >= 0 && !th) {
		struct strbuf notes = SB_INIT;
		an_sched_latency_table(&s, &o.out);
		an_sched_latency_notes(&s, path, &notes);
		diag_warn_lines(notes.buf);
		sb_release(&notes);
	}
	if (rc >= 0 && th && th->summary)
		an_timehist_summary(&s);
	rc = finish(rc, &o, &s.dropped, &d, path);
	sb_release(&o.out);
	an_sched_release(&s);
	return rc;
}

struct sched_args {
	const char *path;
	struct an_schedmap_opts mo;
	struct an_timehist_opts th;
	struct symopts so;
};

/* One option into a: NULL, or the usage message of a bad value. */
static const char *take(struct sched_args *a, int id, const char *v)
{
	static const char *cpus = "not a CPU list (0-3,6): '%s'", *ids = "not a list of ids: '%s'";
	char *end;
	switch (id) {
	case O_INPUT: a->path = v; return NULL;
	case O_WAKEUPS: a->th.wakeups = true; return NULL;
	case O_SUMMARY: a->th.summary = true; a->th.rows = false; return NULL;
	case O_WITH_SUMMARY: a->th.summary = true; return NULL;
	case O_VISUAL: a->th.visual = true; return NULL;
	case O_STATE: a->th.state = true; return NULL;
	case O_CALLGRAPH: case O_NO_CALLGRAPH: a->th.callchain = id == O_CALLGRAPH; return NULL;
	case O_COMPACT: a->mo.compact = true; return NULL;
	case O_SORT: return an_sched_set_sort(v) < 0 ? "--sort: unknown key in '%s'" : NULL;
	case O_CPUS: return an_cpuset_parse(&a->mo.cpus, v) < 0 ? cpus : NULL;
	case O_COLOR_CPUS: return an_cpuset_parse(&a->mo.color_cpus, v) < 0 ? cpus : NULL;
	case O_CPU: return an_cpuset_parse(&a->th.cpus, v) < 0 ? cpus : NULL;
	case O_COLOR_PIDS:
		an_idlist_release(&a->mo.color_pids);
		return an_idlist_parse(&a->mo.color_pids, v) < 0 ? ids : NULL;
	case O_PID:
		an_idlist_release(&a->th.pids);
		return an_idlist_parse(&a->th.pids, v) < 0 ? ids : NULL;
	case O_TID:
		an_idlist_release(&a->th.tids);
		return an_idlist_parse(&a->th.tids, v) < 0 ? ids : NULL;
	case O_MAX_STACK:
		a->th.max_stack = (unsigned)strtoul(v, &end, 10);
		return end == v || *end || *v == '-' || a->th.max_stack > 1000 ?
		       "--max-stack: not a number from 0 to 1000: '%s'" : NULL;
	default:
		symopts_option(&a->so, id, v);
		return NULL;
	}
}

int cmd_sched(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "";
	if (!strcmp(mode, "--help") || !strcmp(mode, "-h")) {
		opt_usage(stdout, &sched_cmd);
		return 0;
	}
	struct opt_cmd cmd = sched_cmd;
	cmd.opts = !strcmp(mode, "latency") ? latency_opts : !strcmp(mode, "timehist") ?
		   timehist_opts : !strcmp(mode, "map") ? map_opts : NULL;
	if (!cmd.opts)
		return opt_usage_error(&sched_cmd, "expected 'latency', 'timehist' or 'map'");
	struct sched_args a;
	memset(&a, 0, sizeof(a));
	a.path = "perf.data";
	an_timehist_opts_init(&a.th);
	struct opt_state st = OPT_STATE_INIT;
	const char *v, *bad = NULL;
	int id, rc = 2;
	while (!bad && (id = opt_next(&st, argc - 1, argv + 1, &cmd, &v)) > 0)
		bad = take(&a, id, v);
	if (bad)
		opt_usage_error(&cmd, bad, v);
	else if (id == OPT_HELP)
		rc = 0;
	else if (id < 0)
		;
	else if (argc - 1 - st.ind > 1)
		opt_usage_error(&cmd, "one input file at most");
	else if (!a.th.rows && a.th.wakeups)   /* perf refuses it too */
		opt_usage_error(&cmd, "--summary and --wakeups are mutually exclusive");
	else {
		if (argc - 1 - st.ind == 1)
			a.path = argv[1 + st.ind];
		rc = cmd.opts == map_opts ? run_map(a.path, &a.mo)
		     : run_sched(a.path, cmd.opts == latency_opts ? NULL : &a.th, &a.so);
	}
	an_idlist_release(&a.mo.color_pids);
	an_idlist_release(&a.th.pids);
	an_idlist_release(&a.th.tids);
	symopts_release(&a.so);
	return rc;
}
