/*
 * filter: which samples of a session count, as perf script's --time,
 * --cpu, --comm and --event choose them, with counts of what each
 * filter left out for the note when nothing is kept.
 * Stage: profile (the collector's side: commands and analyses ask it
 * per sample, before the sample reaches the model).
 *
 *   struct prof_filter f;
 *   if (prof_filter_init(&f, time, cpu, comm, event, &d) < 0) ... usage, d
 *   ... per sample: if (!prof_filter_keep(&f, ps)) return 0;
 *   if (prof_filter_note(&f, path, &sb)) ... warn sb
 *
 * Ownership: the option strings are borrowed (argv) for the filter's
 * life. Nothing to release.
 */
#ifndef SCORCH_PROFILE_FILTER_H
#define SCORCH_PROFILE_FILTER_H

#include <stdbool.h>
#include <stdint.h>

#include "base/diag.h"
#include "base/strbuf.h"
#include "process/session.h"

struct prof_filter {
	bool have_start, have_end, relative;
	uint64_t start, end;   /* ns (relative: from the first sample) */
	uint64_t first_time;
	bool have_first;
	uint64_t cpus[16];     /* bitmap of CPUs 0..1023 */
	bool have_cpus;
	const char *comms;     /* comma-separated list, or NULL */
	const char *event;     /* or NULL */
	/* what the samples were, for the note when nothing is kept */
	const char *time_arg, *cpu_arg;  /* as given */
	uint64_t seen, kept, min_time, max_time;
	uint64_t out_time, out_cpu, out_comm, out_event; /* left out by each */
};

/* Parse the option strings (each may be NULL). Returns 0, or -EINVAL
 * with d saying which option is bad and what was expected. */
int prof_filter_init(struct prof_filter *f, const char *time,
		     const char *cpu, const char *comm, const char *event,
		     struct diag *d);
/* true when the sample is kept. */
bool prof_filter_keep(struct prof_filter *f, const struct proc_sample *ps);
/* When samples were seen but a filter left none: appends to sb one
 * line "PATH: ..." saying which filter and, for --time, the time range
 * of the file's samples (perf script's seconds), and returns true.
 * Nothing (false) otherwise. */
bool prof_filter_note(const struct prof_filter *f, const char *path,
		      struct strbuf *sb);
/* Event name of a sample as perf script prints it. */
const char *prof_event_name(const struct proc_sample *ps);

#endif
