/*
 * run: one recording from the first event to the finished file (see
 * record.h, rec_run). Stage: record. The order of the steps is perf's:
 * the workload is forked and held, the events are opened (enabled on
 * its exec), the file gets its header records, then the workload is let
 * go and the rings are copied until it ends or a signal stops us.
 * Invariant: once the output file is created it is always finished
 * (header, features) before rec_run returns, whatever stopped it.
 */
#include "record/record.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>

/* The session's notes, a line at a time, to the caller. */
static void pass_warnings(const struct rec_run *run, struct rec_session *s)
{
	char *line = s->warnings.buf, *nl;
	while ((nl = strchr(line, '\n'))) {
		run->warn(run->ctx, line, (int)(nl - line));
		line = nl + 1;
	}
	sb_reset(&s->warnings);
}

/* Output open and set up, events writing to it. Returns 0, or -1 after
 * run->fail (w then released). */
static int start_output(struct rec_run *run, struct rec_session *s,
			struct pd_writer *w, int fd, bool pipe_mode)
{
	struct diag d = DIAG_INIT;
	int so = rec_output_setup(w, fd, pipe_mode, run->o, run->zlevel,
				  run->argc, run->argv, &d);
	if (so == 0 && !pipe_mode && !run->no_buildid)
		s->dsos = rec_dsos_new();
	if (so == 0 && rec_session_start(s, w) == 0)
		return 0;
	if (d.set)
		run->fail(run->ctx, &d, NULL);
	run->fail(run->ctx, &w->diag, run->output);
	pd_writer_release(w);
	return -1;
}

/* From the started session to the finished file. Returns 0 or -1. */
static int run_to_end(struct rec_run *run, struct rec_session *s,
		      struct pd_writer *w, struct rec_workload *wl, pid_t target)
{
	if (run->o->system_wide || !target)
		rec_session_enable(s);
	if (wl->pid) {
		int e = rec_workload_start(wl);
		if (e) {
			run->cannot(run->ctx, "run", e);
			run->exec_failed = true;
		}
	}
	int r = rec_workload_run(s, wl, &rec_stop_signal, &run->status);
	if (r == 0)
		r = rec_session_stop(s, !run->no_cache);
	if (r < 0 && !w->err)
		run->fail(run->ctx, &s->diag, NULL);
	if (pd_writer_finish(w) < 0) {
		run->fail(run->ctx, &w->diag, run->output); /* write errors land here */
		r = -1;
	}
	run->size = pd_writer_size(w); /* still valid after finish */
	run->samples = s->samples;
	run->lost = s->lost;
	run->lost_records = s->lost_records;
	wl->pid = 0;
	return r < 0 ? -1 : 0;
}

int rec_run(struct rec_run *run)
{
	struct rec_workload wl = REC_WORKLOAD_INIT;
	struct rec_session s;
	struct pd_writer w;
	bool pipe_mode;
	int fd = -1, rc = -1;

	run->status = -1;
	rec_signals_install();
	if (run->workload && rec_workload_prepare(&wl, run->workload,
						  !strcmp(run->output, "-")) < 0) {
		run->cannot(run->ctx, "start", errno);
		return -1;
	}
	/* with -p/-t the command only sets how long to record, as in perf */
	pid_t target = run->o->nr_pids || run->o->nr_tids ? 0 : wl.pid;
	int ro = rec_session_open(&s, run->o, target);
	pass_warnings(run, &s);
	if (ro < 0) {
		run->fail(run->ctx, &s.diag, NULL);
		goto out;
	}
	struct diag d = DIAG_INIT;
	fd = rec_output_open(run->output, &pipe_mode, &d);
	if (fd < 0)
		run->fail(run->ctx, &d, NULL);
	else if (start_output(run, &s, &w, fd, pipe_mode) == 0)
		rc = run_to_end(run, &s, &w, &wl, target);
out:
	rec_session_close(&s);
	rec_workload_abort(&wl);
	if (fd > STDOUT_FILENO)
		close(fd);
	return rc;
}
