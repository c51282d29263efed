/*
 * fold_perfdata: the perf.data input of `scorch fold`.
 * Stage: command. fold.c detects perf.data by its magic and hands its
 * reader to fold_perfdata_reader (record.c calls fold_perfdata with the
 * file it wrote), which adds one folded stack per sample to out, naming
 * frames and processes with the collapse_perf_* rules
 * (stacks/collapse_perf.h) so that the result matches
 * `perf script | stackcollapse-perf.pl` byte for byte.
 * Key invariant: out only grows; on error what was added stays and the
 * function prints its own message (it lives in cmd/) and returns 1.
 */
#ifndef SCORCH_CMD_FOLD_PERFDATA_H
#define SCORCH_CMD_FOLD_PERFDATA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/strbuf.h"
#include "perfdata/reader.h"
#include "process/session.h"
#include "profile/collect.h"
#include "profile/profile.h"
#include "stacks/collapse_perf.h"
#include "stacks/table.h"

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
	/* when not NULL: after the run, each folded name with its object and
	 * flags (prof_collector_each_name), given row_ctx */
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

/* Every field NULL/false but the naming defaults (designated, so that
 * a field added anywhere needs no change here). */
#define FOLD_PERFDATA_OPTS_INIT { .collapse = COLLAPSE_OPTS_INIT }

/* Fold the samples of one perf.data file (or "-") into out.
 * Returns 0, or 1 after printing a message. */
int fold_perfdata(const char *path, const struct fold_perfdata_opts *o,
		  struct stack_table *out);
/* Same over an open reader (fold.c opens its inputs once, see
 * cmd/input.h), which this takes and frees; name is for messages. */
int fold_perfdata_reader(struct pd_reader *r, const char *name,
			 const struct fold_perfdata_opts *o,
			 struct stack_table *out);

#endif
