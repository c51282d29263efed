/*
 * fold_perfdata: the perf.data input of `scorch fold` (see
 * fold_perfdata.h). Stage: command: the symbol options, the session and
 * the messages; which samples are kept and how they fold is the samples
 * -> stacks stage, profile/fold.h.
 */
#include "cmd/fold_perfdata.h"

#include "base/diag.h"
#include "cmd/input.h"
#include "cmd/symopts.h"
#include "process/session.h"
#include "profile/fold.h"
#include "unwind/sample.h"

static void warn_filtering(const char *kept)
{
	diag_warn("Filtering for events of type: %s", kept);
}

/* Fold r's samples (r is freed here); shown names the input. */
static int run(struct pd_reader *r, const char *shown,
	       const struct fold_perfdata_opts *o, struct stack_table *out)
{
	struct symopts so = { .buildid_dir = o->buildid_dir, .symfs = o->symfs,
			      .kallsyms = o->kallsyms, .vdso = o->vdso,
			      .vmlinux = o->vmlinux,
			      .jit_dir = o->jit_dir };
	struct sym_config cfg;
	if (symopts_config(&so, &cfg)) {
		pd_reader_free(r);
		return 1;
	}
	struct prof_fold f;
	struct diag d = DIAG_INIT;
	if (prof_fold_init(&f, o, out, &d) < 0) {
		diag_print(&d, NULL);
		pd_reader_free(r);
		symopts_release(&so);
		return 2; /* a usage error, as in script and report */
	}
	struct proc_session ses;
	struct proc_session_opts sopts = PROC_SESSION_OPTS_INIT;
	sopts.lazy = true; /* frames on demand: the collector's */
	sopts.forget_exited = true; /* it keeps no thread past a sample */
	int rc = proc_session_attach(&ses, r, &cfg, &sopts);
	if (rc < 0) {
		diag_print(&ses.diag, shown);
		proc_session_close(&ses);
		symopts_release(&so);
		prof_fold_release(&f);
		return 1;
	}
	f.on_other_event = warn_filtering;
	rc = symopts_run_unwound(&ses, prof_fold_inline_mode(&f), prof_fold_sample,
				 &f, shown);
	bool all_dropped = symopts_report_filtered_run(&ses, rc, &f.filter, shown);
	if (rc >= 0)
		prof_fold_finish(&f, &ses);
	if (all_dropped)
		rc = -1; /* every sample dropped: nothing was folded */
	if (rc >= 0)
		prof_fold_names(&f);
	proc_session_close(&ses);
	symopts_release(&so);
	prof_fold_release(&f);
	return rc < 0 ? 1 : 0;
}

int fold_perfdata(const char *path, const struct fold_perfdata_opts *o,
		  struct stack_table *out)
{
	struct diag d = DIAG_INIT;
	struct pd_reader *r = pd_reader_open(path, &d);
	if (!r) {
		diag_print(&d, path);
		return 1;
	}
	return run(r, path, o, out);
}

int fold_perfdata_reader(struct pd_reader *r, const char *name,
			 const struct fold_perfdata_opts *o,
			 struct stack_table *out)
{
	return run(r, name, o, out);
}

int fold_perfdata_input(struct cmd_input *in, const struct fold_perfdata_opts *o,
			struct stack_table *out)
{
	struct diag d = DIAG_INIT;
	struct pd_reader *r = cmd_input_reader(in, &d);
	if (!r) {
		diag_print(&d, in->name);
		return 1;
	}
	return run(r, in->name, o, out);
}
