/*
 * schedmap: `perf sched map` from the sched:sched_switch events of a
 * perf.data: a line per switch with a column per CPU naming the task that
 * runs there by a two-character short name (A0, B0, ... Z0, A1, ...; "."
 * for the idle task, perf's "swapper"), "*" at the CPU that switched, the
 * time, and "XX => comm:tid" when a task gets its short name or changed
 * its name (a COMM record) since it was last named.
 * Stage: analysis (tracepoint samples in time order -> text lines).
 * perf's quirks are kept, as its output is the reference: without
 * --compact the columns are the CPUs below max(ncpus, highest CPU seen),
 * so the CPU that raises that maximum is not drawn on its first line;
 * a FORK record makes a task new (perf makes a new thread), so a reused
 * tid gets a new short name. When events were lost, perf's closing INFO
 * line gives their share of all records.
 * Key invariant: memory grows with the number of tasks, not of events.
 */
#ifndef SCORCH_ANALYSIS_SCHEDMAP_H
#define SCORCH_ANALYSIS_SCHEDMAP_H

#include <stdbool.h>

#include "analysis/schedlist.h"
#include "base/diag.h"
#include "base/strbuf.h"
#include "perfdata/reader.h"

struct sym_config;

struct an_schedmap_opts {
	bool compact;               /* columns only for CPUs seen, in order */
	struct an_cpuset cpus;      /* --cpus: draw only these */
	struct an_cpuset color_cpus;
	struct an_idlist color_pids;
	bool color;                 /* ANSI colours (perf: on a terminal) */
	unsigned ncpus;             /* perf: sysconf(_SC_NPROCESSORS_CONF) of
				     * the machine running it */
};

/* Replay path, appending the map to out (flush empties it). Returns 0
 * (d may hold a damage note) or negative with d filled; dropped receives
 * the samples the reader could not decode. */
int an_schedmap_run(const char *path, const struct sym_config *cfg,
		    const struct an_schedmap_opts *o, struct strbuf *out,
		    an_sched_flush_fn flush, void *ctx,
		    struct pd_dropped *dropped, struct diag *d);

#endif
