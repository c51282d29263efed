/*
 * fold: the samples -> stacks stage for perf.data. Which samples a
 * folded profile keeps (the sample filter --time/--cpu/--comm/--event,
 * and the one event perf script would show: the given --event-filter,
 * else the first met), with what weight (the period perf script prints,
 * else 1), and where each goes: the collector's stack table
 * (profile/collect.h, named with the collapse_perf_* rules, so that the
 * result matches `perf script | stackcollapse-perf.pl` byte for byte),
 * the model, the exact-frame profile (profile/collect_loc.h), and the
 * caller's sinks; what the counts are goes into fold_perfdata_info,
 * from which fold_perfdata_labels says how a graph of them is labelled.
 * Stage: profile. The caller opens the session and runs it (cmd/
 * fold_perfdata.c does, and prints the messages).
 *
 * Usage:
 *   struct prof_fold f;
 *   if (prof_fold_init(&f, &opts, out, &d) < 0) bad filter option (d)
 *   f.on_other_event = say_filtering;        // optional
 *   unw_perf_run(ses, prof_fold_inline_mode(&f), prof_fold_sample, &f, &notes);
 *   if the run worked: prof_fold_finish(&f, ses);
 *   if something was folded: prof_fold_names(&f);
 *   prof_fold_release(&f);
 *
 * Ownership: f borrows opts (and all it points to) and out until
 * release. Key invariant: what perf script would not show (filtered
 * samples, an event other than the one kept) is skipped exactly as
 * stackcollapse-perf.pl skips it; out only grows.
 */
#ifndef SCORCH_PROFILE_FOLD_H
#define SCORCH_PROFILE_FOLD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/diag.h"
#include "base/strbuf.h"
#include "perfdata/reader.h"
#include "process/session.h"
#include "profile/collect.h"
#include "profile/collect_loc.h"
#include "profile/filter.h"
#include "profile/profile.h"
#include "stacks/collapse_perf.h"
#include "stacks/table.h"
#include "unwind/sample.h"

struct fold_perfdata_opts {
	struct collapse_opts collapse; /* naming: --pid --tid --all ... */
	const char *time;        /* --time START,END (perf script syntax), or NULL */
	const char *cpu;         /* --cpu LIST, e.g. "0-3,6", or NULL */
	const char *comm;        /* --comm LIST, comma-separated, or NULL */
	const char *event;       /* --event EV: keep only this event, or NULL */
	const char *buildid_dir; /* --buildid-dir DIR (default ~/.debug) */
	const char *symfs;       /* --symfs DIR: look for path P as DIR/P first */
	const char *kallsyms;    /* --kallsyms FILE */
	const char *vmlinux;     /* --vmlinux FILE */
	const char *jit_dir;     /* --jit-dir DIR: where perf-PID.map files are */
	bool no_inline;          /* --no-inline: no inline frames from DWARF */
	const char *vdso;        /* --vdso FILE: the recording kernel's vdso image */
	struct fold_perfdata_info *info; /* filled when not NULL */
	struct fold_sample_sink *sink;   /* told of every sample kept, or NULL */
	struct profile *model;   /* when not NULL: every sample kept is also
				  * added here, frames by identity, a row each
				  * (prof_collector_model) */
	struct profile *profile; /* not NULL: samples go there as exact
				  * frames (profile/collect_loc.h), not to out */
	/* when not NULL: called for every sample folded, with the id in out
	 * of its stack and its weight (scorch view keeps sample rows) */
	void (*on_row)(void *ctx, size_t stack, const struct proc_sample *ps,
		       uint64_t weight);
	void *row_ctx;
	/* when not NULL: after the run, each folded name with its object,
	 * flags and source (prof_collector_each_name, with
	 * prof_collector_sources), given row_ctx */
	prof_name_fn on_name;
};

/* Per-sample consumer (export's fleet TSV, push): stack is the id in
 * out the sample was added to, weight its count there, s the decoded
 * sample (time, pid, tid, cpu by s->sample_type). */
struct fold_sample_sink {
	void (*fn)(void *ctx, size_t stack, uint64_t weight, const struct pd_sample *s);
	void *ctx;
};

/* What the folded counts are, for labels: the event kept (perf.data or
 * perf script text) and, from perf.data, its attr and the recording's
 * command line. Embedded: FOLD_PERFDATA_INFO_INIT, then _release. */
struct fold_perfdata_info {
	struct strbuf event;     /* "cpu-clock"; empty when no sample */
	bool have_attr;          /* type and config are the event's */
	uint32_t type;
	uint64_t config;
	bool weighted;           /* counts are periods (else sample counts) */
	struct strbuf cmdline;   /* CMDLINE feature, words joined by ' ' */
	struct strbuf hostname;  /* HOSTNAME feature; empty when absent */
	bool freq;               /* the event samples at a frequency ... */
	uint64_t period;         /* ... of period Hz, else every period events */
	bool have_clock;         /* CLOCK_DATA: clock_tod_ns is wall time at clock_ns */
	uint64_t clock_tod_ns, clock_ns;
	bool have_times;         /* the kept samples carry times (ns, perf clock) */
	uint64_t first_time, last_time; /* least and greatest sample time kept */
	uint64_t untimed;        /* samples given to opts' model without a time */
};

#define FOLD_PERFDATA_INFO_INIT { .event = SB_INIT, .cmdline = SB_INIT, .hostname = SB_INIT }
void fold_perfdata_info_release(struct fold_perfdata_info *in);
/* Several inputs, labelled by the first that folded: when ok and *n is
 * 0, in moves to *kept (its old contents released); else in is
 * released. ok counts in *n. */
void fold_perfdata_info_keep_first(struct fold_perfdata_info *kept,
				   struct fold_perfdata_info *in, bool ok, size_t *n);

/* True when the kept event counts nanoseconds: cpu-clock and task-clock
 * (by attr, else by name). Whether its counts are periods at all
 * (in->weighted) is the caller's to check. */
bool fold_perfdata_counts_ns(const struct fold_perfdata_info *in);

/* How a flame graph of such counts is labelled: *countname ("samples",
 * "µs" for the cpu-clock and task-clock periods, which are nanoseconds,
 * with *factor 0.001, or the event's name, borrowed from in), and title
 * "EVENT: COMMAND" (reset first; command: NULL takes the recorded
 * command line, the part after "--" when there is one). */
void fold_perfdata_labels(const struct fold_perfdata_info *in, const char *command,
			  const char **countname, double *factor,
			  struct strbuf *title);

/* Every field NULL/false but the naming defaults (designated, so that
 * a field added anywhere needs no change here). */
#define FOLD_PERFDATA_OPTS_INIT { .collapse = COLLAPSE_OPTS_INIT }

struct prof_fold {
	const struct fold_perfdata_opts *o;
	struct prof_collector col; /* folds the samples kept into the table */
	struct prof_loc_collector loc; /* or keeps them whole (o->profile) */
	struct prof_filter filter;
	struct strbuf event;       /* the event kept (given or first seen) */
	bool event_set, event_defaulted, info_set;
	bool other_event;          /* a sample of another event was left out
				    * while the event kept was the first met */
	/* when not NULL: called at the first such sample, with the event
	 * kept (perf script says "Filtering for events of type: EV") */
	void (*on_other_event)(const char *kept);
	uint64_t samples;          /* samples kept */
};

/* Ready f for one run into out. Returns 0, or -EINVAL (d) when a filter
 * option does not parse (nothing to release then). */
int prof_fold_init(struct prof_fold *f, const struct fold_perfdata_opts *o,
		   struct stack_table *out, struct diag *d);
/* Which inline frames the unwinder adds (--no-inline, --inline). */
enum unw_inline prof_fold_inline_mode(const struct prof_fold *f);
/* The per-sample callback (proc_sample_fn) for unw_perf_run, ctx = f. */
int prof_fold_sample(void *ctx, struct proc_session *ses, const struct proc_sample *ps);
/* After a run that worked: the session's command line, host and clock
 * into o->info. */
void prof_fold_finish(struct prof_fold *f, const struct proc_session *ses);
/* Each folded name with its object and flags to o->on_name. */
void prof_fold_names(struct prof_fold *f);
void prof_fold_release(struct prof_fold *f);

#endif
