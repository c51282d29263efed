/*
 * cmd/sched: `scorch sched latency` and `scorch sched timehist`, the
 * tables of `perf sched latency` and `perf sched timehist` computed from
 * the sched:* tracepoints of a perf.data.
 * Stage: command. Option parsing and printing; the arithmetic is in
 * analysis/sched. Key invariant: timehist rows stream out as they are
 * computed; only per-task state is kept.
 */
#include "cmd/cmd.h"
SCORCH_COMMAND(sched, "scheduler latency and time history (perf sched latency/timehist)")

#include "analysis/sched.h"
#include "base/diag.h"
#include "base/opt.h"
#include "base/strbuf.h"
#include "cmd/symopts.h"
#include "symbols/dso.h"

#include <errno.h>
#include <string.h>

enum { O_INPUT = 1, O_SORT, O_WAKEUPS };

/* What `sched latency` needs, as scorch record -e takes it. */
#define SCHED_EVENTS "sched:sched_switch,sched:sched_wakeup,sched:sched_wakeup_new,sched:sched_stat_runtime"

static const struct opt_spec opts[] = {
	{ "input", 'i', OPT_REQ, "FILE", "perf.data to read (default perf.data)", O_INPUT },
	{ "wakeups", 'w', OPT_NONE, NULL, "timehist: also a line per wakeup (who woke whom)", O_WAKEUPS },
	{ "sort", 's', OPT_REQ, "KEYS", "latency: sort by avg, max, switch, runtime, pid (default avg,max,switch,runtime)", O_SORT },
	OPT_END_SPEC
};

static const struct opt_cmd sched_cmd = {
	"sched",
	"scorch sched latency|timehist [options] [FILE]",
	"Scheduler latency per task and per-switch time history from sched:*\n"
	"tracepoints. Record them with perf sched record, or with scorch record -a\n"
	"-e " SCHED_EVENTS "\n"
	"(scorch record --offcpu lacks sched_stat_runtime: no run times).",
	opts, true,
};

struct out_ctx {
	struct strbuf out;
	int err;
};

static int on_row(void *ctx, const struct an_sched_row *row)
{
	struct out_ctx *o = ctx;
	an_sched_timehist_row(row, &o->out);
	if (o->out.len > 65536 && sb_flush(&o->out, stdout) < 0) {
		o->err = errno;
		return -EIO;
	}
	return 0;
}

/* Say what the file lacks for the table to mean what it says. */
static void latency_notes(const struct an_sched *s, const char *path)
{
	if (!s->have_runtime || !s->nr_runtime)
		diag_warn("%s: no sched:sched_stat_runtime events, so every Runtime is 0: "
			  "record with perf sched record, or scorch record -a -e "
			  SCHED_EVENTS, path);
	if (s->nr_lost && s->nr_cs_bugs)
		diag_warn("%s: %llu events were lost while recording (the ring buffer "
			  "filled up): the context switch bugs are those gaps; record "
			  "with a larger -m or without -g", path,
			  (unsigned long long)s->nr_lost);
}

int cmd_sched(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : NULL;
	if (mode && (!strcmp(mode, "--help") || !strcmp(mode, "-h"))) {
		opt_usage(stdout, &sched_cmd);
		return 0;
	}
	bool latency = mode && !strcmp(mode, "latency");
	bool timehist = mode && !strcmp(mode, "timehist");
	if (!latency && !timehist)
		return opt_usage_error(&sched_cmd, "expected 'latency' or 'timehist'");
	const char *path = "perf.data", *v;
	bool wakeups = false;
	struct opt_state st = OPT_STATE_INIT;
	int id;
	while ((id = opt_next(&st, argc - 1, argv + 1, &sched_cmd, &v)) > 0)
		if (id == O_INPUT)
			path = v;
		else if (id == O_WAKEUPS)
			wakeups = true;
		else if (id == O_SORT && an_sched_set_sort(v) < 0)
			return opt_usage_error(&sched_cmd, "--sort: unknown key in '%s'", v);
	if (id == OPT_HELP)
		return 0;
	if (id < 0)
		return 2;
	if (argc - 1 - st.ind > 1)
		return opt_usage_error(&sched_cmd, "one input file at most");
	if (argc - 1 - st.ind == 1)
		path = argv[1 + st.ind];

	struct an_sched s;
	struct out_ctx o = { SB_INIT, 0 };
	struct sym_config cfg;
	memset(&cfg, 0, sizeof(cfg));
	an_sched_init(&s);
	if (timehist) {
		s.on_row = on_row;
		s.ctx = &o;
		s.wakeups = wakeups;
		an_sched_timehist_header(&o.out);
	}
	struct diag d = DIAG_INIT;
	int rc = an_sched_read(&s, path, &cfg, &d);
	if (symopts_report_dropped(&s.dropped, path) && !o.err) {
		sb_release(&o.out);
		an_sched_release(&s);
		return 1; /* every sample dropped */
	}
	if (rc < 0) {
		sb_flush(&o.out, stdout);
		if (o.err)
			diag_write_error(NULL, o.err);
		else
			diag_print(&d, path);
		rc = 1;
	} else {
		if (d.set)
			diag_print_kept(&d, path);
		if (latency)
			an_sched_latency_table(&s, &o.out);
		if (latency)
			latency_notes(&s, path);
		rc = 0;
		if (sb_flush(&o.out, stdout) < 0) {
			diag_write_error(NULL, errno);
			rc = 1;
		}
	}
	sb_release(&o.out);
	an_sched_release(&s);
	return rc;
}
