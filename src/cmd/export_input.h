/*
 * export_input: the inputs of `scorch export` and the profile built from
 * them. Stage: command helpers. perf.data goes through fold_perfdata
 * with the export's symbol options and filters into a profile of exact
 * frames (profile/collect_loc.h), perf script text through collapse_perf
 * with its naming options and folded text as they are into a stack
 * table that joins the profile as text frames; render/pprof.h encodes.
 * Ownership: the options are borrowed for the run's life; the run owns
 * its stacks until export_run_release. Functions print their own
 * messages (cmd/) and return 0, or 1 after one.
 */
#ifndef SCORCH_CMD_EXPORT_INPUT_H
#define SCORCH_CMD_EXPORT_INPUT_H

#include <stdbool.h>
#include <stddef.h>

#include "base/strbuf.h"
#include "cmd/fold_perfdata.h"
#include "profile/profile.h"
#include "stacks/table.h"

struct export_opts {
	struct fold_perfdata_opts fold; /* naming, symbols, filters (finished) */
	bool cpu_label;                 /* --cpu-label */
};
#define EXPORT_OPTS_INIT { FOLD_PERFDATA_OPTS_INIT, false }

struct export_run {
	const struct export_opts *o;
	struct profile prof;            /* perf.data samples, exact frames */
	struct stack_table t;           /* text inputs' stacks, by name */
	struct fold_perfdata_info info; /* of the first perf input */
	size_t perf_inputs, data_inputs, folded_inputs; /* perf: data or text */
};

void export_run_init(struct export_run *r, const struct export_opts *o);
void export_run_release(struct export_run *r);
/* Read one input (path "-": standard input). */
int export_read(struct export_run *r, const char *path);
/* The gzip'd Profile message of everything read; name is for messages. */
int export_pprof(struct export_run *r, const char *name, struct strbuf *out);

#endif
