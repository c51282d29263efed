/*
 * tpsession: replay the tracepoint samples of a perf.data session with
 * their event formats, the loop `scorch sched` and `scorch offcpu` share.
 * Stage: analysis (over process sessions and tracepoint decoding).
 * The formats load once: at the start in file mode, in pipe mode when the
 * TRACING_DATA record has gone by; until then samples are skipped.
 * Key invariant: on_event sees only tracepoint samples with a time whose
 * event format is known, and only after find_fields accepted the formats.
 * Ownership: the tpsession owns its an_tp (release with
 * an_tpsession_release); it borrows the session and the diag.
 */
#ifndef SCORCH_ANALYSIS_TPSESSION_H
#define SCORCH_ANALYSIS_TPSESSION_H

#include "analysis/tracepoint.h"
#include "base/diag.h"
#include "process/session.h"

struct tep_event;

struct an_tpsession {
	struct an_tp tp;
	struct proc_session *ses;
	struct diag *d;
	int loaded;             /* 0 not yet, 1 formats loaded, <0 failed */
	/* After the formats load: look up events and fields in tp; 0, or
	 * negative with d set (the run then fails). */
	int (*find_fields)(void *ctx);
	/* A tracepoint sample of a known event; negative stops the run. */
	int (*on_event)(void *ctx, struct tep_event *ev,
			const struct proc_sample *ps);
	/* NULL, or a LOST record in time order (proc_session_on_lost). */
	int (*on_lost)(void *ctx, const struct pd_lost *l);
	/* NULL, or a FORK or EXIT record in time order (proc_session_on_task). */
	int (*on_task)(void *ctx, const struct pd_task *t);
	void *ctx;
};

/* Set up t over an open session; d receives the errors. */
void an_tpsession_init(struct an_tpsession *t, struct proc_session *ses,
		       struct diag *d);
void an_tpsession_release(struct an_tpsession *t);

/* Run the session. Returns what proc_session_run returned (d filled with
 * its error, or with the reader's damage note when it went on), or
 * -EINVAL when the formats did not load: with no_data in d when the file
 * has no tracing data, else with the loader's or find_fields' message. */
int an_tpsession_run(struct an_tpsession *t, const char *no_data);

#endif
